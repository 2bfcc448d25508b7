/**
 * One clean stretch of the ledger, checked the way the background verifier checks it — every
 * content hash, link hash, prev_hash link and seq step, and each event's Merkle leaf against the
 * level-0 tile stored for it — in one synchronous walk over raw rows (`verifyRows`), for a thread
 * of its own (`verify-thread.ts`). It answers only "clean through seq N" or "not clean": naming what
 * is wrong stays with the background verifier's own pass, which walks the stretch again when this
 * one declines it.
 */
import type { LedgerHead } from '../ledger/envelope.js';
import { verifyRows, type RowSource } from '../ledger/verify-store.js';
import { HASH_SIZE } from './merkle.js';
import { TILE_WIDTH } from './tiles.js';
import { LeafRun, type TileStorage } from './tree.js';

/** Events walked between two tile comparisons: 40 tiles, a 320 KiB leaf buffer. */
const CHUNK = 40 * TILE_WIDTH;

export interface PrefixSource extends RowSource {
  /** The stored (seq, hash) of one row, or undefined when the row is missing. */
  stored(seq: number): LedgerHead | undefined;
}

/**
 * Verifies (from, to], but never past the last full level-0 tile in `tiles` (leaves after it are
 * in no stored tile; the caller's own pass checks those against the tree it keeps). Returns the
 * stored head of the last seq verified — `from` itself when there was nothing to walk — or null at
 * the first thing that does not verify: a chain issue, a missing row, a leaf that differs from its
 * stored tile, a tile missing or of the wrong size.
 */
export function verifyPrefix(
  source: PrefixSource,
  tiles: Pick<TileStorage, 'fullTiles' | 'loadTile'>,
  from: LedgerHead,
  to: number,
): LedgerHead | null {
  const end = Math.min(to, tiles.fullTiles(0) * TILE_WIDTH);
  let at = from;
  while (at.seq < end) {
    const chunkEnd = Math.min(end, at.seq + CHUNK);
    const run = new LeafRun(chunkEnd - at.seq, false);
    const walked = verifyRows(source, { from: at, to: chunkEnd, stopAtFirstIssue: true, leaves: run });
    if (!walked.ok || walked.verified_through !== chunkEnd || run.length !== chunkEnd - at.seq) return null;
    if (!leavesMatchTiles(tiles, at.seq + 1, run.leaves())) return null;
    const last = source.stored(chunkEnd);
    if (!last || last.seq !== chunkEnd) return null;
    at = last;
  }
  return at;
}

/** `leaves` (32 bytes each) are the stored level-0 tiles' hashes from seq `first` on. */
function leavesMatchTiles(tiles: Pick<TileStorage, 'loadTile'>, first: number, leaves: Uint8Array): boolean {
  const count = leaves.length / HASH_SIZE;
  for (let i = 0; i < count;) {
    const index = Math.floor((first - 1 + i) / TILE_WIDTH);
    const tile = tiles.loadTile(0, index);
    if (!tile || tile.length !== TILE_WIDTH * HASH_SIZE) return false;
    const offset = first - 1 + i - index * TILE_WIDTH;
    const n = Math.min(count - i, TILE_WIDTH - offset);
    const ours = leaves.subarray(i * HASH_SIZE, (i + n) * HASH_SIZE);
    if (Buffer.compare(ours, tile.subarray(offset * HASH_SIZE, (offset + n) * HASH_SIZE)) !== 0) return false;
    i += n;
  }
  return true;
}
