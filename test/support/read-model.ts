/**
 * For specs that write a read-model file's collections by hand: the file accepts writes only while
 * a fold runs (`ReadModelFile.folding`), as the projection runtime sets it around each event.
 */
import type { ReadModelFile } from '../../src/platform/projections/read-model-file.js';

/** Runs `fn` as a fold of `file` would run: writes allowed, and disallowed again afterwards. */
export function foldingOn(file: ReadModelFile): (fn: () => void) => void {
  return (fn) => {
    file.folding = true;
    try {
      fn();
    } finally {
      file.folding = false;
    }
  };
}
