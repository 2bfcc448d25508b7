/**
 * The work of a parallel `ledger:verify`, shared by the main thread and its workers: the ledger
 * [1, head] is cut into contiguous chunks, and each thread claims the next unclaimed chunk from a
 * counter in shared memory until none is left. A chunk is verified from the stored hash of the row
 * just before it, so the chunks together check every content hash, link hash, prev_hash link and
 * seq step exactly once, as one sequential pass does. Claiming (rather than a fixed share per
 * thread) lets the main thread start at once and a worker join whenever it has booted.
 */
import type { SqliteEventStore } from '../../src/platform/event-store/sqlite.js';
import { GENESIS_HASH, type LedgerHead } from '../../src/platform/ledger/envelope.js';
import type { VerifyResult } from '../../src/platform/ledger/verify.js';
import { verifyRows } from '../../src/platform/ledger/verify-store.js';
import { TILE_WIDTH } from '../../src/platform/tlog/tiles.js';
import { LeafRun } from '../../src/platform/tlog/tree.js';

/** SQLite caps this at its compile-time limit (2 GiB by default); pages past it are read as usual. */
const MAP_BYTES = 4 * 2 ** 30;

/**
 * Maps the ledger file into memory for this connection's reads. A pass reads every page once, and
 * a mapped page skips a pread and a copy: about 150 ns less per event on the bench ledgers
 * (~1.1 → ~1.0 µs to read a row), some 7% of a pass. Only reads use the map; a verifying
 * connection writes nothing.
 */
export function mapForReading(store: SqliteEventStore): void {
  store.database.pragma(`mmap_size = ${MAP_BYTES}`);
}

/** How the ledger is cut; the same for every thread. */
export interface ChunkPlan {
  head: number;
  /** The first seq of each chunk, ascending from 1 (`chunkStartsFor`); the last ends at `head`. */
  starts: readonly number[];
  stopAtFirstIssue: boolean;
}

export interface ChunkResult {
  index: number;
  result: VerifyResult;
  /** The Merkle leaf hashes of the chunk's events (32 bytes each), when it verified clean. */
  leaves: Uint8Array | null;
  /**
   * With the leaves, the roots of the chunk's whole tiles (`tileRootsOf`): a chunk starts at a tile
   * boundary (its size is a multiple of 256), so the thread growing the tree need not hash them.
   */
  tileRoots: Uint8Array | null;
}

/** Slots of the shared Int32Array that coordinates the threads. */
const NEXT = 0;
const STOP_AFTER = 1;
/** Worker w's state lives at WORKER_STATE + w: booting, claiming, or told not to start. */
const WORKER_STATE = 2;
export const BOOTING = 0;
export const CLAIMING = 1;
export const CANCELLED = 2;

export function chunkCount(plan: ChunkPlan): number {
  return plan.starts.length;
}

/** The shared control block for a plan verified by the main thread and `workers` workers. */
export function controlBlock(plan: ChunkPlan, workers: number): Int32Array {
  const control = new Int32Array(new SharedArrayBuffer(4 * (WORKER_STATE + workers)));
  control[STOP_AFTER] = chunkCount(plan);
  return control;
}

/**
 * Called by worker `w` once it has booted: true if it may claim chunks, false if the main thread
 * finished the ledger first and will not wait for it.
 */
export function startClaiming(control: Int32Array, w: number): boolean {
  return Atomics.compareExchange(control, WORKER_STATE + w, BOOTING, CLAIMING) === BOOTING;
}

/** Called by the main thread when it runs out of chunks: true if worker `w` never started claiming. */
export function cancelIfBooting(control: Int32Array, w: number): boolean {
  return Atomics.compareExchange(control, WORKER_STATE + w, BOOTING, CANCELLED) === BOOTING;
}

function claim(control: Int32Array, plan: ChunkPlan): number {
  const index = Atomics.add(control, NEXT, 1);
  return index < chunkCount(plan) && index <= Atomics.load(control, STOP_AFTER) ? index : -1;
}

/** Chunks after a bad one need not be verified when only the first bad seq is wanted. */
function stopAfter(control: Int32Array, index: number): void {
  for (;;) {
    const current = Atomics.load(control, STOP_AFTER);
    if (index >= current || Atomics.compareExchange(control, STOP_AFTER, current, index) === current) return;
  }
}

/**
 * Claims and verifies chunks until none is left; `onChunk` hears each one as it is done. Each
 * row is read once: its leaf hash for the Merkle tree comes back with the chunk.
 */
export async function verifyClaimedChunks(
  store: SqliteEventStore,
  plan: ChunkPlan,
  control: Int32Array,
  onChunk: (done: ChunkResult) => void | Promise<void>,
): Promise<ChunkResult[]> {
  const before = store.database.prepare<[number], LedgerHead>(
    'SELECT seq, hash FROM events WHERE seq < ? ORDER BY seq DESC LIMIT 1',
  );
  const results: ChunkResult[] = [];
  for (let index = claim(control, plan); index >= 0; index = claim(control, plan)) {
    const from = plan.starts[index]!;
    const to = (plan.starts[index + 1] ?? plan.head + 1) - 1;
    // Tile roots only where they are the tree's: a chunk that starts at a tile boundary.
    const run = new LeafRun(to - from + 1, (from - 1) % TILE_WIDTH === 0);
    const result = verifyRows(store, {
      from: before.get(from) ?? { seq: 0, hash: GENESIS_HASH },
      to,
      stopAtFirstIssue: plan.stopAtFirstIssue,
      leaves: run,
    });
    if (!result.ok && plan.stopAtFirstIssue) stopAfter(control, index);
    const leaves = result.ok ? run.leaves() : null;
    const tileRoots = result.ok ? run.tileRoots() : null;
    const chunk: ChunkResult = { index, result, leaves, tileRoots };
    results.push(chunk);
    await onChunk(chunk);
  }
  return results;
}
