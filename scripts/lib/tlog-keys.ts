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

export interface TrustFlags {
  /** The log's verifier key. */
  key: NoteVerifierKey;
  /** Witness cosignature keys, and how many of them must have cosigned. */
  witnesses: string[];
  quorum: number;
}

/** `--key`, `--witness …` and `--quorum` (default: every witness); calls `usage` when they are wrong. */
export function readTrustFlags(
  values: { key?: string | undefined; witness?: string[] | undefined; quorum?: string | undefined },
  usage: (message: string) => never,
): TrustFlags {
  if (values.key === undefined) return usage('--key is required');
  let key: NoteVerifierKey;
  let witnesses: string[];
  try {
    key = readVerifierKey(values.key);
    witnesses = (values.witness ?? []).map((w) => readVerifierKey(w).vkey);
  } catch (error) {
    return usage(`bad key: ${(error as Error).message}`);
  }
  const quorum = values.quorum === undefined ? witnesses.length : Number(values.quorum);
  if (!Number.isInteger(quorum) || quorum < 0 || quorum > witnesses.length)
    return usage('--quorum is 0 to the number of --witness');
  return { key, witnesses, quorum };
}
