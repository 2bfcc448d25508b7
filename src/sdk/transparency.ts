/**
 * Checking the transparency log without trusting the server: consistency between two checkpoints
 * (is the newer one an append-only extension of the older?) and receipts (is this event in the
 * log a signed checkpoint commits to?).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, fromBase64, hexToBytes, utf8 } from './bytes.js';
import { linkInputOf } from './chain.js';
import {
  verifyCheckpoint,
  type Checkpoint,
  type VerifiedCheckpoint,
  type VerifyCheckpointOptions,
} from './checkpoint.js';
import { hashLeaf, verifyConsistencyProof, verifyInclusion } from './merkle.js';
import { NoteError, type NoteVerifierKey } from './note.js';
import type { LedgerReceipt } from './types.js';

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

/**
 * Why a receipt does not prove its event: `malformed` — not a receipt; `bad_checkpoint` — the
 * checkpoint's log signature (or a required cosignature) does not verify; `event_hash_mismatch` —
 * the event's hash is not SHA-256 of its leaf input; `size_mismatch` / `index_mismatch` — the
 * receipt's tree size or leaf index disagree with the checkpoint or the seq; `not_included` — the
 * inclusion proof does not lead to the checkpoint's root.
 */
export type ReceiptFailure =
  | 'malformed'
  | 'bad_checkpoint'
  | 'event_hash_mismatch'
  | 'size_mismatch'
  | 'index_mismatch'
  | 'not_included';

export type ReceiptVerification =
  | { valid: true; seq: number; hash: string; tree_size: number; checkpoint: VerifiedCheckpoint }
  | { valid: false; reason: ReceiptFailure; detail: string };

const HEX64 = /^[0-9a-f]{64}$/;

function receiptShape(receipt: unknown): LedgerReceipt | null {
  const r = receipt as Partial<LedgerReceipt> | null;
  const e = r?.event;
  const ok =
    typeof r === 'object' &&
    r !== null &&
    typeof e === 'object' &&
    e !== null &&
    Number.isSafeInteger(e.seq) &&
    [e.prev_hash, e.content_hash, e.hash].every((h) => typeof h === 'string' && HEX64.test(h)) &&
    Number.isSafeInteger(r.leaf_index) &&
    Number.isSafeInteger(r.tree_size) &&
    Array.isArray(r.inclusion_proof) &&
    r.inclusion_proof.every((p) => typeof p === 'string') &&
    typeof r.checkpoint === 'string';
  return ok ? (r as LedgerReceipt) : null;
}

/**
 * Verifies a receipt offline with the log's verifier key: the checkpoint's signature, the event's
 * hash from its leaf input (so the leaf is the event the receipt names), and the RFC 9162 §2.1.3.2
 * inclusion of that leaf under the checkpoint's root. Never throws on bad data.
 */
export async function verifyReceipt(
  receipt: unknown,
  verifierKey: string | NoteVerifierKey,
  options: VerifyCheckpointOptions = {},
): Promise<ReceiptVerification> {
  const r = receiptShape(receipt);
  if (r === null)
    return { valid: false, reason: 'malformed', detail: 'not a receipt (see docs/transparency-log.md)' };
  const { event } = r;
  const input = utf8(linkInputOf(event.seq, event.prev_hash, event.content_hash));
  if (bytesToHex(sha256(input)) !== event.hash)
    return {
      valid: false,
      reason: 'event_hash_mismatch',
      detail: `seq ${event.seq}: hash is not SHA-256 of its leaf input`,
    };
  if (r.leaf_index !== event.seq - 1)
    return { valid: false, reason: 'index_mismatch', detail: `leaf ${r.leaf_index} is not seq ${event.seq}` };
  let checkpoint: VerifiedCheckpoint;
  try {
    checkpoint = await verifyCheckpoint(r.checkpoint, verifierKey, options);
  } catch (error) {
    if (!(error instanceof NoteError)) throw error; // e.g. no WebCrypto here: not the receipt's fault
    return { valid: false, reason: 'bad_checkpoint', detail: error.message };
  }
  if (checkpoint.size !== r.tree_size)
    return {
      valid: false,
      reason: 'size_mismatch',
      detail: `tree_size ${r.tree_size}, checkpoint size ${checkpoint.size}`,
    };
  const path = proofBytes(r.inclusion_proof);
  if (path === null || !verifyInclusion(r.leaf_index, r.tree_size, hashLeaf(input), path, checkpoint.root))
    return {
      valid: false,
      reason: 'not_included',
      detail: `the inclusion proof of seq ${event.seq} does not lead to the root of the checkpoint of size ${checkpoint.size}`,
    };
  return { valid: true, seq: event.seq, hash: event.hash, tree_size: r.tree_size, checkpoint };
}
