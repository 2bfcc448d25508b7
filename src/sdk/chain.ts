/**
 * Ledger chain verification in the client (ARCHITECTURE §3.1, §3.4): recompute each event's
 * content_hash (SHA-256 of the RFC 8785 canonical JSON of its content) and link hash (SHA-256 of
 * JCS {seq, prev_hash, content_hash}), so a reader trusts the hashes, not the server. Another
 * org's events arrive redacted: their content cannot be rehashed, but their links still can.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import canonicalize from 'canonicalize';
import type { LedgerEntry } from './types.js';

export const GENESIS_HASH = '0'.repeat(64);

export type ChainIssueCode = 'content_hash_mismatch' | 'hash_mismatch' | 'broken_link' | 'seq_gap';

export interface ChainIssue {
  code: ChainIssueCode;
  seq: number;
  expected: string;
  actual: string;
}

export interface ChainVerification {
  ok: boolean;
  /** Events checked. */
  checked: number;
  /** Of those, redacted events whose content could not be rehashed (links still checked). */
  redacted: number;
  /** The first seq with an issue, or null. */
  first_broken_seq: number | null;
  issues: ChainIssue[];
}

export interface VerifyChainOptions {
  /**
   * The event before the first one given, to verify a page in the middle of the chain. Default:
   * the genesis (seq 0, 64 zeros), or — when the first event is not seq 1 — trust its prev_hash.
   */
  from?: { seq: number; hash: string };
}

const sha256Hex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)));

function isRedacted(event: LedgerEntry): boolean {
  return event.type === 'Redacted' && !('data' in event);
}

function contentHashOf(event: Record<string, unknown>): string {
  const text = canonicalize({
    id: event.id,
    stream: event.stream,
    type: event.type,
    schema: event.schema,
    data: event.data,
    meta: event.meta,
    recorded_at: event.recorded_at,
  });
  return text === undefined ? '' : sha256Hex(text);
}

/**
 * JCS of {seq, prev_hash, content_hash} (keys sort content_hash < prev_hash < seq): the bytes whose
 * SHA-256 is the event's hash, and the event's leaf input in the transparency log.
 */
export function linkInputOf(seq: number, prevHash: string, contentHash: string): string {
  return `{"content_hash":${JSON.stringify(contentHash)},"prev_hash":${JSON.stringify(prevHash)},"seq":${seq}}`;
}

function linkHashOf(seq: number, prevHash: string, contentHash: string): string {
  return sha256Hex(linkInputOf(seq, prevHash, contentHash));
}

/** Verifies consecutive ledger events (e.g. pages of `GET /api/ledger`); never throws on bad data. */
export function verifyChain(
  events: readonly LedgerEntry[],
  options: VerifyChainOptions = {},
): ChainVerification {
  const issues: ChainIssue[] = [];
  const first = events[0];
  let prev =
    options.from ??
    (first === undefined || first.seq === 1
      ? { seq: 0, hash: GENESIS_HASH }
      : { seq: first.seq - 1, hash: String(first.prev_hash) });
  let redacted = 0;
  for (const event of events) {
    const seq = Number(event.seq);
    const found: ChainIssue[] = [];
    if (seq !== prev.seq + 1)
      found.push({ code: 'seq_gap', seq, expected: String(prev.seq + 1), actual: String(seq) });
    if (isRedacted(event)) {
      redacted += 1;
    } else {
      const computed = contentHashOf(event as unknown as Record<string, unknown>);
      if (computed !== event.content_hash)
        found.push({
          code: 'content_hash_mismatch',
          seq,
          expected: computed,
          actual: String(event.content_hash),
        });
    }
    if (event.prev_hash !== prev.hash)
      found.push({ code: 'broken_link', seq, expected: prev.hash, actual: String(event.prev_hash) });
    const link = linkHashOf(seq, String(event.prev_hash), String(event.content_hash));
    if (link !== event.hash)
      found.push({ code: 'hash_mismatch', seq, expected: link, actual: String(event.hash) });
    issues.push(...found);
    // Link the next event to what this one claims, so one bad event is reported once, not cascaded.
    prev = { seq, hash: String(event.hash) };
  }
  return {
    ok: issues.length === 0,
    checked: events.length,
    redacted,
    first_broken_seq: issues[0]?.seq ?? null,
    issues,
  };
}
