/**
 * Chain verification (ARCHITECTURE §3.4). Pure: takes events, returns issues, never throws.
 * `ChainVerifier` is the incremental form the CLI and the background verifier stream through;
 * it can also check stored canonical bytes directly (`pushStored`), which avoids re-canonicalizing.
 */
import { hash as digest } from 'node:crypto';
import { HEX64, sha256Hex } from '../crypto/hash.js';
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

/**
 * A run of consecutive stored rows as SQLite folds them (`SqliteEventStore.readPacked`): the rows'
 * content bytes concatenated, their lengths, and their chain columns concatenated, all in one row
 * order. What the store could not fold (a column that is not text, an empty range) leaves `first`
 * or another field null, and `ChainVerifier.pushPacked` declines the run.
 */
export interface PackedRows {
  /** Rows in the run. */
  count: number;
  /** Lowest and highest seq among them. */
  first: number | null;
  last: number | null;
  /** Each row's content length in bytes, comma-separated. */
  lengths: string | null;
  /** Each row's content bytes, concatenated. */
  content: Uint8Array | null;
  /** Each row's content_hash, prev_hash and hash concatenated: 192 characters a sound row. */
  links: string | null;
}

/** A sound row's three chain columns: 64 hex digits each. */
const LINK_COLUMNS = 3 * 64;

/**
 * `pushPacked`'s leaf hashes, held until the whole run has verified: only then do they reach the
 * caller's sink, so a run declined half-way leaves the sink as it was.
 */
const PACKED_LEAVES: string[] = [];

/**
 * The link JSON `{"content_hash":…,"prev_hash":…,"seq":…}` (JCS: keys sorted, no spaces) of one
 * event at a time, written into a buffer reused for every event and preceded by the Merkle leaf
 * prefix 0x00, so the link hash and the leaf hash are taken over views of the same bytes. Only
 * for 64-character hex digests and a safe-integer seq; the views for each possible length are made
 * once.
 */
class LinkBytes {
  static readonly #HEAD = '{"content_hash":"';
  static readonly #MIDDLE = '","prev_hash":"';
  static readonly #SEQ = '","seq":';
  readonly #bytes = Buffer.alloc(256);
  readonly #contentAt = 1 + LinkBytes.#HEAD.length;
  readonly #prevAt = this.#contentAt + 64 + LinkBytes.#MIDDLE.length;
  readonly #seqAt = this.#prevAt + 64 + LinkBytes.#SEQ.length;
  /** By end offset (exclusive): the leaf input (0x00 ‖ JSON) and the JSON alone. */
  readonly #leafViews: Buffer[] = [];
  readonly #jsonViews: Buffer[] = [];

  constructor() {
    this.#bytes[0] = 0x00;
    this.#bytes.write(LinkBytes.#HEAD, 1, 'latin1');
    this.#bytes.write(LinkBytes.#MIDDLE, this.#contentAt + 64, 'latin1');
    this.#bytes.write(LinkBytes.#SEQ, this.#prevAt + 64, 'latin1');
    // A safe integer has at most 16 digits, then the closing brace.
    for (let end = this.#seqAt + 2; end <= this.#seqAt + 17; end += 1) {
      this.#leafViews[end] = this.#bytes.subarray(0, end);
      this.#jsonViews[end] = this.#bytes.subarray(1, end);
    }
  }

  /** Writes one event's link JSON; returns its end offset. */
  write(seq: number, contentHash: string, prevHash: string): number {
    const bytes = this.#bytes;
    bytes.write(contentHash, this.#contentAt, 64, 'latin1');
    bytes.write(prevHash, this.#prevAt, 64, 'latin1');
    let digits = 1;
    for (let rest = seq; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
    let rest = seq;
    for (let i = this.#seqAt + digits - 1; i >= this.#seqAt; i -= 1) {
      bytes[i] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    bytes[this.#seqAt + digits] = 0x7d; // }
    return this.#seqAt + digits + 1;
  }

  leafInput(end: number): Buffer {
    return this.#leafViews[end]!;
  }

  linkJson(end: number): Buffer {
    return this.#jsonViews[end]!;
  }
}

/** One for the thread: `pushRow` writes and hashes it synchronously, never interleaved. */
const LINK = new LinkBytes();

/** What a clean push returns: shared, so a verified event allocates no issue list. */
const NO_ISSUES: readonly VerifyIssue[] = Object.freeze([]);

export class ChainVerifier {
  // The previous event's position and claimed hash, kept as two fields rather than a fresh
  // LedgerHead per event: a full pass pushes millions of events through here.
  #prevSeq: number;
  #prevHash: string;
  /** Whether #prevHash is a lowercase hex SHA-256 digest (what `pushRow`'s byte path needs). */
  #prevHashIsHex: boolean;
  #checked = 0;
  #verifiedThrough: number;
  #issues: VerifyIssue[] = [];

  /** Start after `from` (the genesis by default) to verify a suffix of the chain. */
  constructor(from: LedgerHead = { seq: 0, hash: GENESIS_HASH }) {
    this.#prevSeq = from.seq;
    this.#prevHash = from.hash;
    this.#prevHashIsHex = typeof from.hash === 'string' && HEX64.test(from.hash);
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
   * (RFC 9162: SHA-256(0x00 ‖ link JSON)), taken over the same link JSON bytes as the link hash, is
   * also pushed there as a 32-character latin1 ('binary') string: one byte per character, so the
   * caller joins a run of them and encodes it once (`Buffer.from(joined, 'latin1')`) rather than
   * copying each digest into a buffer — a call into the runtime per event, ~0.15 µs.
   *
   * A row whose content hash, seq step and link already check out (every row of a sound ledger) has
   * its link JSON written into one reused buffer (`LinkBytes`): both hashes then read the same bytes,
   * with no string built, flattened and UTF-8 encoded twice per event. Any other row takes the
   * string path, so a tampered column of any length or alphabet is hashed exactly as stored.
   */
  pushRow(row: StoredRow, leaves?: { push(leaf: string): unknown }): readonly VerifyIssue[] {
    const seq = row[0];
    const contentHash = row[2];
    const prevHash = row[3];
    const hash = row[4];
    const computedContentHash = sha256Hex(row[1]);
    let computedHash: string;
    if (
      this.#prevHashIsHex &&
      computedContentHash === contentHash &&
      prevHash === this.#prevHash &&
      seq === this.#prevSeq + 1 &&
      seq <= Number.MAX_SAFE_INTEGER
    ) {
      // Both hex digests are now known to be 64 ASCII characters: their latin1 bytes are their UTF-8.
      const end = LINK.write(seq, contentHash, prevHash);
      if (leaves) leaves.push(digest('sha256', LINK.leafInput(end), 'binary'));
      computedHash = digest('sha256', LINK.linkJson(end), 'hex');
    } else {
      const json = linkJson(seq, prevHash, contentHash);
      // UTF-8 encodes U+0000 as the single byte 0x00: these are exactly the bytes `leafHash` hashes.
      if (leaves) leaves.push(digest('sha256', `\0${json}`, 'binary'));
      computedHash = sha256Hex(json);
    }
    return this.#checkLinked(seq, computedContentHash, contentHash, prevHash, hash, computedHash);
  }

  /**
   * A whole packed run (`PackedRows`), verified at once, or declined: true when every row checked
   * out — its seq is the next one, its content hashes to its content_hash, its prev_hash is the
   * hash before it, and its link hash is its hash — and the verifier has moved past the run (with
   * `leaves`, each row's Merkle leaf hash pushed there, as `pushRow` pushes it; with `admits`, each
   * row's leaf hash must also be admitted, e.g. equal the stored tree's). Anything else —
   * any issue, a run that is not exactly the next seqs, a field the store could not fold — returns
   * false with the verifier and `leaves` untouched, and the caller pushes the same rows one by one
   * (`pushRow`), which names what is wrong exactly as before. Only clean runs take this path, so it
   * finds no issue `pushRow` would not; the seq is part of each link hash, so rows out of order
   * cannot verify here either.
   *
   * The content hash is taken over the stored bytes themselves; `pushRow`'s over the string SQLite
   * decodes from them, which is the same bytes for any valid UTF-8 (a row whose bytes are not
   * declines here and goes to `pushRow`).
   */
  pushPacked(
    run: PackedRows,
    leaves?: { push(leaf: string): unknown },
    admits?: (seq: number, leaf: string) => boolean,
  ): boolean {
    const { count, first, last, lengths, content, links } = run;
    if (
      !this.#prevHashIsHex ||
      count < 1 ||
      first !== this.#prevSeq + 1 ||
      last !== first + count - 1 ||
      last > Number.MAX_SAFE_INTEGER ||
      lengths === null ||
      content === null ||
      links === null ||
      links.length !== count * LINK_COLUMNS
    )
      return false;
    const sizes = lengths.split(',');
    if (sizes.length !== count) return false;
    let prev = this.#prevHash;
    let at = 0;
    for (let i = 0; i < count; i += 1) {
      const end = at + Number(sizes[i]);
      // NaN, negative or past the bytes: not what SQLite folds from sound rows.
      if (!(end >= at && end <= content.length)) return false;
      const column = i * LINK_COLUMNS;
      const contentHash = links.substring(column, column + 64);
      if (digest('sha256', content.subarray(at, end), 'hex') !== contentHash) return false;
      const prevHash = links.substring(column + 64, column + 128);
      if (prevHash !== prev) return false;
      // contentHash equals a fresh hex digest and prevHash the hash before it: LinkBytes' input.
      const linkEnd = LINK.write(first + i, contentHash, prevHash);
      if (leaves || admits) PACKED_LEAVES[i] = digest('sha256', LINK.leafInput(linkEnd), 'binary');
      const hash = links.substring(column + 128, column + LINK_COLUMNS);
      if (digest('sha256', LINK.linkJson(linkEnd), 'hex') !== hash) return false;
      prev = hash;
      at = end;
    }
    if (at !== content.length) return false;
    if (admits) for (let i = 0; i < count; i += 1) if (!admits(first + i, PACKED_LEAVES[i]!)) return false;
    if (leaves) for (let i = 0; i < count; i += 1) leaves.push(PACKED_LEAVES[i]!);
    this.#checked += count;
    if (this.#issues.length === 0) this.#verifiedThrough = last;
    this.#prevSeq = last;
    this.#prevHash = prev;
    return true;
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
    this.#prevHashIsHex = computedHash === hash;
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
