/**
 * Reading verifier keys for the transparency-log CLIs: a flag holds the key text itself, or the
 * path of a file whose first line is the key.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseVerifierKey, type NoteVerifierKey } from '../../src/sdk/index.js';

export function readVerifierKey(value: string): NoteVerifierKey {
  const text =
    !value.includes('+') && existsSync(value) ? (readFileSync(value, 'utf8').split('\n')[0] ?? '') : value;
  return parseVerifierKey(text);
}
