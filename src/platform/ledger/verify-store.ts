/**
 * Streams a whole store through the ChainVerifier over its stored canonical bytes. Used by the
 * `ledger:verify` CLI, the background verifier and /api/ledger/verify.
 */
import type { EventStore } from '../event-store/port.js';
import { linkJson, type LedgerHead } from './envelope.js';
import {
  ChainVerifier,
  type PackedRows,
  type StoredRecord,
  type StoredRow,
  type VerifyIssue,
  type VerifyResult,
} from './verify.js';

export interface VerifyProgress {
  checked: number;
  head: number;
}

export interface VerifyStoreOptions {
  /** Resume after a verified position (the background verifier's watermark). */
  from?: LedgerHead;
  /** Stop after this seq (one share of a parallel pass); the whole rest of the ledger by default. */
  to?: number;
  /** Stop at the first bad seq (the CLI) instead of collecting every issue. */
  stopAtFirstIssue?: boolean;
  /**
   * Rows per read; 1,000 by default. Measured on the 100k bench ledger: 10,000-row pages (about
   * 6 MB of strings each) outlive the young generation and the promotions cost a third of the
   * pass in GC; 1,000 keeps them short-lived, and 500 is no faster.
   */
  pageSize?: number;
  onProgress?: (p: VerifyProgress) => void;
  /**
   * Awaited after each page. A synchronous store (SQLite) never yields on its own, so a server's
   * background pass passes one that yields to the event loop, or a full pass over a large ledger
   * would hold every request until it ends.
   */
  betweenPages?: () => Promise<void>;
  /** Asked after each page: true ends the pass there (a shutdown), with what it verified so far. */
  stopped?: () => boolean;
  /**
   * The Merkle tree's leaf hash for a seq (undefined beyond the tree), and the leaf hash of link
   * JSON: each event is then also checked against its tree leaf, in the same pass.
   */
  tree?: { leaf(seq: number): Buffer | undefined; hashLeaf(input: string): Buffer };
}

export async function verifyStore(
  store: EventStore,
  opts: VerifyStoreOptions = {},
): Promise<VerifyResult & { head: number }> {
  const head = (await store.head()).seq;
  const verifier = new ChainVerifier(opts.from);
  const pageSize = opts.pageSize ?? 1000;
  // Raw rows where the store has them, except for a pass that stops at the first issue (which must
  // stop before the chain check of a row whose tree leaf differs; see `rowWalk`).
  const rows = opts.stopAtFirstIssue ? null : rowSourceOf(store);
  const walk = rows ? rowWalk(verifier, opts.tree) : recordWalk(verifier, opts);
  let next = (opts.from?.seq ?? 0) + 1;
  let checked = 0;
  const to = opts.to ?? Number.MAX_SAFE_INTEGER;
  const admits = opts.tree ? treeAdmits(opts.tree) : undefined;
  while (next <= to) {
    // Never read far past `to`: a parallel share would otherwise read rows its neighbour checks.
    const limit = Math.min(pageSize, to - next + 1);
    // A whole page that verifies, chain and tree leaves alike, goes packed (`verifyRows`); any other
    // page — the last, partial one, or one with an issue — is walked row by row, which flags it.
    if (rows && pushedPacked(rows, verifier, next, limit, undefined, admits)) {
      checked += limit;
      opts.onProgress?.({ checked, head });
      await opts.betweenPages?.();
      if (opts.stopped?.()) break;
      next += limit;
      continue;
    }
    const page = rows ? rows.readRows(next, limit) : await store.readRecords(next, limit);
    const walked = walk(page, to);
    checked += walked.checked;
    if (walked.stop) return { ...verifier.result(), head };
    opts.onProgress?.({ checked, head });
    if (page.length < limit) break;
    await opts.betweenPages?.();
    if (opts.stopped?.()) break;
    next = seqOf(page[page.length - 1]!) + 1;
  }
  return { ...verifier.result(), head };
}

type Page = readonly StoredRecord[] | readonly StoredRow[];
type Walk = (page: Page, to: number) => { checked: number; stop: boolean };

function seqOf(item: StoredRecord | StoredRow): number {
  return Array.isArray(item) ? (item as StoredRow)[0] : (item as StoredRecord).seq;
}

function rowSourceOf(store: EventStore): RowSource | null {
  const source = store as unknown as Partial<RowSource>;
  return typeof source.readRows === 'function' ? (source as RowSource) : null;
}

/** Each record's tree leaf checked (hashed from its link fields), then the record pushed. */
function recordWalk(verifier: ChainVerifier, opts: VerifyStoreOptions): Walk {
  return (page, to) => {
    let checked = 0;
    for (const record of page as readonly StoredRecord[]) {
      if (record.seq > to) return { checked, stop: true };
      const treeLeaf = opts.tree?.leaf(record.seq);
      if (treeLeaf) {
        const leaf = opts.tree!.hashLeaf(linkJson(record.seq, record.prev_hash, record.content_hash));
        if (!leaf.equals(treeLeaf)) {
          verifier.flag(treeMismatch(record.seq, treeLeaf, leaf));
          if (opts.stopAtFirstIssue) return { checked, stop: true };
        }
      }
      const issues = verifier.pushStored(record);
      if (issues.length > 0 && opts.stopAtFirstIssue) return { checked, stop: true };
      checked += 1;
    }
    return { checked, stop: false };
  };
}

/**
 * Each raw row pushed with its tree leaf taken over the same link JSON bytes as its link hash
 * (`ChainVerifier.pushRow`, as `ledger:verify`): one encoding and no object per row, where the
 * record walk built the link JSON a second time for the leaf (7.7–10.3 → 4.3–5.2 µs per event
 * on the 20k bench ledger). The leaf is RFC 9162's, what the tree's `hashLeaf` computes. It reaches
 * the sink before the row's chain check, so a tree mismatch is flagged first, as the record walk
 * flags it.
 */
function rowWalk(verifier: ChainVerifier, tree: VerifyStoreOptions['tree']): Walk {
  let seq = 0;
  let treeLeaf: Buffer | undefined;
  const sink = {
    push(leaf: string): void {
      if (treeLeaf && leaf !== treeLeaf.toString('latin1'))
        verifier.flag(treeMismatch(seq, treeLeaf, Buffer.from(leaf, 'latin1')));
    },
  };
  return (page, to) => {
    let checked = 0;
    for (const row of page as readonly StoredRow[]) {
      if (row[0] > to) return { checked, stop: true };
      seq = row[0];
      treeLeaf = tree?.leaf(seq);
      verifier.pushRow(row, treeLeaf ? sink : undefined);
      checked += 1;
    }
    return { checked, stop: false };
  };
}

/**
 * The `limit` rows from `next` read packed and pushed whole (`ChainVerifier.pushPacked`): false,
 * with nothing pushed, when the source cannot pack, rows are missing, or the run does not verify.
 */
function pushedPacked(
  source: RowSource,
  verifier: ChainVerifier,
  next: number,
  limit: number,
  leaves?: { push(leaf: string): unknown },
  admits?: (seq: number, leaf: string) => boolean,
): boolean {
  if (!source.readPacked) return false;
  const run = source.readPacked(next, next + limit - 1);
  return run.count === limit && verifier.pushPacked(run, leaves, admits);
}

/** Whether a leaf hash (32 latin1 characters) is the tree's at its seq, or beyond the tree. */
function treeAdmits(tree: NonNullable<VerifyStoreOptions['tree']>): (seq: number, leaf: string) => boolean {
  return (seq, leaf) => {
    const stored = tree.leaf(seq);
    return stored === undefined || leaf === stored.toString('latin1');
  };
}

function treeMismatch(seq: number, expected: Buffer, actual: Buffer): VerifyIssue {
  return { code: 'tree_mismatch', seq, expected: expected.toString('hex'), actual: actual.toString('hex') };
}

/**
 * A store that hands over raw rows synchronously (SQLite): what `verifyRows` walks. One that can
 * also fold a page of rows into one packed run (`readPacked`) has each page read that way first.
 */
export interface RowSource {
  readRows(from: number, limit: number): readonly StoredRow[];
  /** The rows with seq in [from, to], folded (`PackedRows`). */
  readPacked?(from: number, to: number): PackedRows;
}

/** Where `verifyRows` hands each verified event's Merkle leaf hash (`ChainVerifier.pushRow`). */
export interface LeafSink {
  push(leaf: string): unknown;
  /** Leaves taken so far. */
  readonly length: number;
}

export interface VerifyRowsOptions {
  /** Verify after this position (the stored head of the row before a chunk). */
  from: LedgerHead;
  /** Last seq to verify. */
  to: number;
  stopAtFirstIssue: boolean;
  /**
   * Also hand the Merkle leaf hash of every event, in seq order, to this sink (at most one per seq
   * of the range; they are the tree's only if the walk verified clean).
   */
  leaves?: LeafSink;
  /** Rows per read (see `VerifyStoreOptions.pageSize`); 250 by default, see `ROW_PAGE`. */
  pageSize?: number;
}

/**
 * Rows per read of `verifyRows`. A page's rows are alive until the page is walked, so a page that
 * spans a scavenge is copied and, spanning two, promoted: 1,000-row pages (about 1.2 MB of strings
 * on the bench ledgers) kept V8's young generation growing and the old one filling.
 */
const ROW_PAGE = 250;

/**
 * `verifyStore`'s walk over raw rows, for `ledger:verify`: one read of each row checks its content
 * hash, link hash, link and seq step and — with `leaves` — yields the event's Merkle leaf hash, so
 * the tree is rebuilt without reading the ledger a second time.
 */
export function verifyRows(source: RowSource, opts: VerifyRowsOptions): VerifyResult {
  const verifier = new ChainVerifier(opts.from);
  const pageSize = opts.pageSize ?? ROW_PAGE;
  const first = opts.from.seq + 1;
  const leaves = opts.leaves;
  const room = Math.max(0, opts.to - first + 1) + (leaves?.length ?? 0);
  let clean = true;
  for (let next = first; next <= opts.to && clean;) {
    const limit = Math.min(pageSize, opts.to - next + 1);
    // A sound page verifies packed (one read, no string per row); any other is read again as rows,
    // which find and name what is wrong. Leaves only while the range has room for the whole page.
    if ((!leaves || leaves.length + limit <= room) && pushedPacked(source, verifier, next, limit, leaves)) {
      next += limit;
      continue;
    }
    const page = source.readRows(next, limit);
    for (const row of page) {
      // Rows missing before `to` make the page run past it: those rows are the next chunk's.
      if (row[0] > opts.to) break;
      // Never more leaves than seqs in the range; more rows than that is an issue, the leaves unused.
      const issues = verifier.pushRow(row, leaves && leaves.length < room ? leaves : undefined);
      if (issues.length > 0 && opts.stopAtFirstIssue) {
        clean = false;
        break;
      }
    }
    if (page.length < limit || page[page.length - 1]![0] >= opts.to) break;
    next = page[page.length - 1]![0] + 1;
  }
  return verifier.result();
}
