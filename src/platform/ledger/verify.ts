/**
 * Chain verification (ARCHITECTURE §3.4). Pure: takes events, returns issues, never throws.
 * `ChainVerifier` is the incremental form the CLI and the background verifier stream through;
 * it can also check stored canonical bytes directly (`pushStored`), which avoids re-canonicalizing.
 */
import { hash as digest } from 'node:crypto';
import { sha256Hex } from '../crypto/hash.js';
import {
  contentJson,
  GENESIS_HASH,
  linkHash,
  linkJson,
  type LedgerHead,
  type SealedEvent,
} from './envelope.js';

export type VerifyIssueCode =
  | 'content_hash_mismatch'
  | 'hash_mismatch'
  | 'broken_link'
  | 'seq_gap'
  /** The Merkle tree's leaf differs from the event's link fields (transparency log). */
  | 'tree_mismatch'
  /** The tree's root at the last signed checkpoint's size is not the signed root. */
  | 'checkpoint_mismatch'
  /** The ledger (or tree) is smaller than a size it was known or signed to have. */
  | 'truncated';

export interface VerifyIssue {
  code: VerifyIssueCode;
  seq: number;
  expected: string;
  actual: string;
}

export interface VerifyResult {
  ok: boolean;
  checked: number;
  /** Last seq checked with no issue at or before it (the watermark). */
  verified_through: number;
  issues: VerifyIssue[];
}

/** A stored row: the canonical content bytes as written plus the chain columns. */
export interface StoredRecord {
  seq: number;
  content: string;
  content_hash: string;
  prev_hash: string;
  hash: string;
}

/**
 * A stored row as SQLite hands it over with `.raw()`: `[seq, content, content_hash, prev_hash,
 * hash]`. The full `ledger:verify` walk reads these, so no object is built per event.
 */
export type StoredRow = readonly [
  seq: number,
  content: string,
  contentHash: string,
  prevHash: string,
  hash: string,
];

/** What a clean push returns: shared, so a verified event allocates no issue list. */
const NO_ISSUES: readonly VerifyIssue[] = Object.freeze([]);

export class ChainVerifier {
  // The previous event's position and claimed hash, kept as two fields rather than a fresh
  // LedgerHead per event: a full pass pushes millions of events through here.
  #prevSeq: number;
  #prevHash: string;
  #checked = 0;
  #verifiedThrough: number;
  #issues: VerifyIssue[] = [];

  /** Start after `from` (the genesis by default) to verify a suffix of the chain. */
  constructor(from: LedgerHead = { seq: 0, hash: GENESIS_HASH }) {
    this.#prevSeq = from.seq;
    this.#prevHash = from.hash;
    this.#verifiedThrough = from.seq;
  }

  push(event: SealedEvent): readonly VerifyIssue[] {
    // Whatever arrives is checked as data: a malformed element yields issues, never an exception.
    const record = (typeof event === 'object' && event !== null ? event : {}) as Partial<SealedEvent>;
    let text: string;
    try {
      text = contentJson(record as SealedEvent);
    } catch {
      text = '';
    }
    return this.#check(
      Number(record.seq),
      sha256Hex(text),
      String(record.content_hash),
      String(record.prev_hash),
      String(record.hash),
    );
  }

  pushStored(record: StoredRecord): readonly VerifyIssue[] {
    return this.#check(
      record.seq,
      sha256Hex(record.content),
      record.content_hash,
      record.prev_hash,
      record.hash,
    );
  }

  /**
   * A raw stored row (the `ledger:verify` walk). With `leaves`, the event's Merkle leaf hash
   * (RFC 9162: SHA-256(0x00 ‖ link JSON)) is also written there at byte `at`, from the same link
   * JSON the link hash is taken over: one string built for both hashes. The leaf is hashed as the
   * string "\0" + link JSON — UTF-8 encodes U+0000 as the single byte 0x00, so these are exactly the
   * bytes `leafHash` hashes — and its digest comes back as a 32-character latin1 ('binary') string, which
   * is copied byte for byte into the caller's buffer (no Buffer per leaf).
   */
  pushRow(row: StoredRow, leaves?: Buffer, at = 0): readonly VerifyIssue[] {
    const seq = row[0];
    const contentHash = row[2];
    const prevHash = row[3];
    const hash = row[4];
    const json = linkJson(seq, prevHash, contentHash);
    if (leaves) leaves.write(digest('sha256', `\0${json}`, 'binary'), at, 32, 'latin1');
    return this.#checkLinked(seq, sha256Hex(row[1]), contentHash, prevHash, hash, sha256Hex(json));
  }

  #check(
    seq: number,
    computedContentHash: string,
    contentHash: string,
    prevHash: string,
    hash: string,
  ): readonly VerifyIssue[] {
    return this.#checkLinked(
      seq,
      computedContentHash,
      contentHash,
      prevHash,
      hash,
      linkHash(seq, prevHash, contentHash),
    );
  }

  #checkLinked(
    seq: number,
    computedContentHash: string,
    contentHash: string,
    prevHash: string,
    hash: string,
    computedHash: string,
  ): readonly VerifyIssue[] {
    const clean =
      seq === this.#prevSeq + 1 &&
      computedContentHash === contentHash &&
      prevHash === this.#prevHash &&
      computedHash === hash;
    const found = clean
      ? NO_ISSUES
      : this.#issuesOf(seq, computedContentHash, contentHash, prevHash, hash, computedHash);
    this.#checked += 1;
    if (found.length === 0 && this.#issues.length === 0) this.#verifiedThrough = seq;
    // Link the next event to what this one claims, so one bad row is reported once, not cascaded.
    this.#prevSeq = seq;
    this.#prevHash = hash;
    return found;
  }

  #issuesOf(
    seq: number,
    computedContentHash: string,
    contentHash: string,
    prevHash: string,
    hash: string,
    computedHash: string,
  ): VerifyIssue[] {
    const found: VerifyIssue[] = [];
    const expectedSeq = this.#prevSeq + 1;
    if (seq !== expectedSeq) {
      found.push({ code: 'seq_gap', seq, expected: String(expectedSeq), actual: String(seq) });
    }
    if (computedContentHash !== contentHash) {
      found.push({ code: 'content_hash_mismatch', seq, expected: computedContentHash, actual: contentHash });
    }
    if (prevHash !== this.#prevHash) {
      found.push({ code: 'broken_link', seq, expected: this.#prevHash, actual: prevHash });
    }
    if (computedHash !== hash) {
      found.push({ code: 'hash_mismatch', seq, expected: computedHash, actual: hash });
    }
    this.#issues.push(...found);
    return found;
  }

  /**
   * Records an issue found about the next event by another check (the Merkle tree): pushed before
   * that event, it keeps the watermark below it.
   */
  flag(issue: VerifyIssue): void {
    this.#issues.push(issue);
  }

  result(): VerifyResult {
    return {
      ok: this.#issues.length === 0,
      checked: this.#checked,
      verified_through: this.#verifiedThrough,
      issues: [...this.#issues],
    };
  }
}

/** Verifies a run of events starting after `from` (genesis by default). Never throws. */
export function verifyLedger(events: Iterable<SealedEvent>, from?: LedgerHead): VerifyResult {
  const verifier = new ChainVerifier(from);
  try {
    for (const event of events) verifier.push(event);
  } catch {
    // An iterable that fails mid-way leaves what was checked; the watermark says how far.
  }
  return verifier.result();
}
