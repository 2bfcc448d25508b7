/**
 * For specs that write a read-model file's collections by hand: the file accepts writes only while
 * a fold runs (`ReadModelFile.folding`), as the projection runtime sets it around each event. And
 * for specs that build a projection's state by hand: per-owner lists keyed as the projection keys them.
 */
import { ownedKey, type ReadModelFile } from '../../src/platform/projections/read-model-file.js';

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

/**
 * Per-owner id lists as a projection keeps them (`appendOwned`): one record per id keyed
 * `<owner>/<seq>`, the seqs increasing in each list's order — for hand-built states.
 */
export function ownedLists(lists: Record<string, readonly string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  let seq = 0;
  for (const [owner, ids] of Object.entries(lists)) for (const id of ids) out[ownedKey(owner, ++seq)] = id;
  return out;
}
