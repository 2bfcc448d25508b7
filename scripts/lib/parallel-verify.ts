/**
 * `ledger:verify` across threads: the SQLite ledger is cut into contiguous chunks that the main
 * thread and the workers claim one at a time (scripts/lib/verify-chunks.ts). Reading rows and
 * hashing them is all the work and every chunk is independent once it starts from the stored hash
 * before it. A worker takes about 0.2 s to boot (it loads TypeScript), so workers are booted
 * apart from the pass — the CLI boots them before it loads its own modules, which takes about as
 * long — and the main thread never waits for one that has not started when the ledger is done.
 * The merged result is the one a sequential pass gives: the first bad seq, its issues and the
 * watermark.
 */
import type { SqliteEventStore } from '../../src/platform/event-store/sqlite.js';
import { TILE_WIDTH } from '../../src/platform/tlog/tiles.js';
import type { VerifyResult } from '../../src/platform/ledger/verify.js';
import {
  cancelIfBooting,
  chunkCount,
  controlBlock,
  verifyClaimedChunks,
  type ChunkPlan,
  type ChunkResult,
} from './verify-chunks.js';
import type { VerifyWorkers } from './verify-workers.js';

/**
 * Small enough that the last chunks spread across threads, large enough that a chunk's setup is
 * noise: 40 Merkle tiles.
 */
const MAX_CHUNK = 40 * TILE_WIDTH;

/**
 * Where the guided chunks stop shrinking: 4 tiles (1,024 events, ~5 ms of a thread), so the
 * threads end within about that of each other, and a chunk's own cost (a query for the hash
 * before it, a leaf buffer, a message) stays noise.
 */
const MIN_CHUNK = 4 * TILE_WIDTH;

/**
 * The first seq of each chunk. A small ledger (under a tile per chunk at about four chunks per
 * thread) is cut into equal chunks. Otherwise chunks are whole tiles (a multiple of 256 events), so
 * every chunk starts at a tile boundary and hands over its tiles' roots with its leaves
 * (`tileRootsOf`): the main thread, which grows the tree, then hashes only the levels above the
 * tiles instead of all of a tile's 255 interior nodes — a tenth of a pass that no other thread
 * could share. Their size is guided: half a thread's share of what is left, at most MAX_CHUNK and
 * at least MIN_CHUNK, so they shrink toward the end and the threads finish together. With
 * equal 40-tile chunks the last thread to finish ran up to a whole chunk alone: on the 100k bench
 * ledger ~15–40 ms of a ~400 ms pass.
 */
export function chunkStartsFor(head: number, threads: number): number[] {
  const starts: number[] = [];
  const even = Math.ceil(head / (4 * threads));
  if (even < TILE_WIDTH) {
    const size = Math.max(1, even);
    for (let seq = 1; seq <= head; seq += size) starts.push(seq);
    return starts;
  }
  const least = Math.min(MIN_CHUNK, tilesOf(even));
  for (let done = 0; done < head;) {
    starts.push(done + 1);
    const rest = head - done;
    done += Math.min(rest, MAX_CHUNK, Math.max(least, tilesOf(rest / (2 * threads))));
  }
  return starts;
}

/** `events` rounded up to whole tiles. */
function tilesOf(events: number): number {
  return Math.ceil(events / TILE_WIDTH) * TILE_WIDTH;
}

export interface ParallelVerifyOptions {
  stopAtFirstIssue: boolean;
  onProgress?: (checked: number) => void;
  /**
   * Whether the main thread claims chunks too (the default). Off, only the workers verify — how
   * the specs make sure the workers' own path is exercised on a ledger the main thread would
   * finish before they boot.
   */
  mainThreadVerifies?: boolean;
  /**
   * Hears each chunk's leaf hashes (chunk index, leaves) as it is done — in any order — so the
   * caller can grow the Merkle tree on this thread while the workers walk on.
   */
  onLeaves?: (index: number, leaves: Uint8Array, tileRoots?: Uint8Array) => void;
}

export interface ParallelVerifyResult extends VerifyResult {
  head: number;
  /** How many chunks the ledger was cut into (each reported its leaves to `onLeaves` if clean). */
  chunks: number;
}

/** Verifies [1, head] on the main thread and `workers`, then releases the workers. */
export async function verifyInParallel(
  store: SqliteEventStore,
  head: number,
  workers: VerifyWorkers,
  opts: ParallelVerifyOptions,
): Promise<ParallelVerifyResult> {
  const mainVerifies = opts.mainThreadVerifies ?? true;
  if (!mainVerifies && workers.size === 0) throw new Error('a pass without the main thread needs workers');
  const threads = workers.size + (mainVerifies ? 1 : 0);
  const plan: ChunkPlan = {
    head,
    starts: chunkStartsFor(head, threads),
    stopAtFirstIssue: opts.stopAtFirstIssue,
  };
  const control = controlBlock(plan, workers.size);
  const results: ChunkResult[] = [];
  let checked = 0;
  const heard = (chunk: ChunkResult): void => {
    results.push(chunk);
    if (chunk.leaves) opts.onLeaves?.(chunk.index, chunk.leaves, chunk.tileRoots ?? undefined);
    checked += chunk.result.checked;
    opts.onProgress?.(checked);
  };
  workers.all.forEach((worker, slot) => {
    worker.assign({ type: 'plan', path: store.path, plan, control, slot }, heard);
  });
  try {
    if (mainVerifies) {
      await verifyClaimedChunks(store, plan, control, async (chunk) => {
        heard(chunk);
        // Let the workers' reports in between chunks: the SQLite reads never yield on their own.
        await new Promise<void>((resolve) => setImmediate(resolve));
      });
    }
    await Promise.all(
      workers.all.map(async (worker, slot) => {
        // A worker still booting is told not to start, and its end is not waited for.
        if (mainVerifies && cancelIfBooting(control, slot)) worker.stop();
        else await worker.done;
      }),
    );
  } finally {
    workers.release();
  }
  return merge(results, plan, head);
}

/** The sequential pass's answer from the chunks' answers. */
function merge(chunks: ChunkResult[], plan: ChunkPlan, head: number): ParallelVerifyResult {
  chunks.sort((a, b) => a.index - b.index);
  const checked = chunks.reduce((sum, c) => sum + c.result.checked, 0);
  // The first chunk with an issue holds the first bad seq; the ones before it verified clean.
  const bad = chunks.find((c) => !c.result.ok);
  if (bad) {
    return {
      ok: false,
      checked,
      verified_through: bad.result.verified_through,
      issues: bad.result.issues,
      head,
      chunks: chunkCount(plan),
    };
  }
  if (chunks.length !== chunkCount(plan) || chunks.some((c, i) => c.index !== i)) {
    throw new Error(`parallel verify lost chunks: ${chunks.length} of ${chunkCount(plan)} reported`);
  }
  return {
    ok: true,
    checked,
    verified_through: chunks.at(-1)?.result.verified_through ?? 0,
    issues: [],
    head,
    chunks: chunkCount(plan),
  };
}
