/**
 * Checking the transparency log without trusting the server: consistency between two checkpoints
 * (is the newer one an append-only extension of the older?) and receipts (is this event in the
 * log a signed checkpoint commits to?).
 */
import { bytesToHex, fromBase64, hexToBytes } from './bytes.js';
import type { Checkpoint } from './checkpoint.js';
import { verifyConsistencyProof } from './merkle.js';

/**
 * Why two checkpoints are not one append-only log: `rollback` — the newer is smaller (the log
 * forgot entries it had published); `split_view` — same size with another root, or a larger tree
 * whose consistency proof does not verify (two different histories); `origin_mismatch` — not the
 * same log; `malformed_proof` — a proof hash that is not 32 bytes of base64.
 */
export type ConsistencyFailure = 'rollback' | 'split_view' | 'origin_mismatch' | 'malformed_proof';

export type ConsistencyVerification =
  { ok: true; from: number; to: number } | { ok: false; reason: ConsistencyFailure; detail: string };

export type ProofHashes = readonly (string | Uint8Array)[];

/** Proof hashes as bytes (base64 or hex text accepted); null if any is malformed. */
export function proofBytes(proof: ProofHashes): Uint8Array[] | null {
  const out: Uint8Array[] = [];
  for (const h of proof) {
    const bytes = typeof h !== 'string' ? h : /^[0-9a-f]{64}$/.test(h) ? hexToBytes(h) : fromBase64(h);
    if (bytes === null || bytes.length !== 32) return null;
    out.push(bytes);
  }
  return out;
}

/**
 * Verifies that `newCheckpoint` extends `oldCheckpoint` with the RFC 9162 §2.1.4.2 consistency
 * proof. Give checkpoints already verified with `verifyCheckpoint` (this checks the Merkle
 * relation, not signatures). Never throws on bad data.
 */
export function verifyConsistency(
  oldCheckpoint: Pick<Checkpoint, 'origin' | 'size' | 'root'>,
  newCheckpoint: Pick<Checkpoint, 'origin' | 'size' | 'root'>,
  proof: ProofHashes,
): ConsistencyVerification {
  const from = oldCheckpoint.size;
  const to = newCheckpoint.size;
  if (oldCheckpoint.origin !== newCheckpoint.origin)
    return {
      ok: false,
      reason: 'origin_mismatch',
      detail: `origin ${newCheckpoint.origin} is not ${oldCheckpoint.origin}`,
    };
  if (to < from)
    return { ok: false, reason: 'rollback', detail: `the log shrank from ${from} to ${to} entries` };
  const path = proofBytes(proof);
  if (path === null) return { ok: false, reason: 'malformed_proof', detail: 'a proof hash is not 32 bytes' };
  if (verifyConsistencyProof(from, to, oldCheckpoint.root, newCheckpoint.root, path))
    return { ok: true, from, to };
  const detail =
    from === to
      ? `two roots for size ${to}: ${bytesToHex(oldCheckpoint.root)} and ${bytesToHex(newCheckpoint.root)}`
      : `the tree of size ${to} does not extend the tree of size ${from} (the consistency proof fails)`;
  return { ok: false, reason: 'split_view', detail };
}
