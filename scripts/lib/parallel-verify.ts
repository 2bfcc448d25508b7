/**
 * `ledger:verify` across threads: the SQLite ledger is cut into contiguous chunks that the main
 * thread and `threads − 1` workers claim one at a time (scripts/lib/verify-chunks.ts). Reading
 * rows and hashing them is all the work and every chunk is independent once it starts from the
 * stored hash before it. The main thread verifies from the first moment while the workers boot
 * (about 0.2 s each to load TypeScript), and is never kept waiting for a worker that has not
 * started when the ledger is done. The merged result is the one a sequential pass gives: the
 * first bad seq, its issues and the watermark.
 */
import { Worker } from 'node:worker_threads';
import type { SqliteEventStore } from '../../src/platform/event-store/sqlite.js';
import type { VerifyResult } from '../../src/platform/ledger/verify.js';
import {
  cancelIfBooting,
  chunkCount,
  controlBlock,
  verifyClaimedChunks,
  type ChunkPlan,
  type ChunkResult,
} from './verify-chunks.js';
import type { VerifyWorkerData, VerifyWorkerMessage } from './verify-worker.js';

const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import('tsx/esm/api').then((tsx) => { tsx.register(); return import(workerData.entry); });
`;

/** Small enough that the last chunks spread across threads, large enough that a chunk's setup is noise. */
const MAX_CHUNK = 10_000;

export interface ParallelVerifyOptions {
  stopAtFirstIssue: boolean;
  onProgress?: (checked: number) => void;
  /**
   * Whether the main thread claims chunks too (the default). Off, only the workers verify — how
   * the specs make sure the workers' own path is exercised on a ledger the main thread would
   * finish before they boot.
   */
  mainThreadVerifies?: boolean;
}

interface RunningWorker {
  /** Resolves once the worker has reported every chunk it claimed. */
  done: Promise<void>;
  /** Ends the thread; a worker stopped on purpose is not an error. */
  stop: () => Promise<void>;
}

function startWorker(
  data: Omit<VerifyWorkerData, 'slot'>,
  slot: number,
  onChunk: (chunk: ChunkResult) => void,
): RunningWorker {
  const entry = new URL('./verify-worker.ts', import.meta.url).href;
  // Workers load TypeScript through tsx's loader, registered in the worker before the entry.
  const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { ...data, slot, entry } });
  let stopping = false;
  const done = new Promise<void>((resolve, reject) => {
    worker.on('message', (msg: VerifyWorkerMessage) => {
      if (msg.type === 'chunk') onChunk(msg.chunk);
      else resolve();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code === 0 || stopping) resolve();
      else reject(new Error(`verify worker ${slot} exited ${code}`));
    });
  });
  // Awaited where it matters; never an unhandled rejection when the main thread failed first.
  done.catch(() => undefined);
  return {
    done,
    stop: async () => {
      stopping = true;
      await worker.terminate();
    },
  };
}

export async function verifyInParallel(
  store: SqliteEventStore,
  head: number,
  threads: number,
  opts: ParallelVerifyOptions,
): Promise<VerifyResult & { head: number }> {
  const mainVerifies = opts.mainThreadVerifies ?? true;
  const workerCount = mainVerifies ? threads - 1 : Math.max(1, threads);
  const chunkSize = Math.max(1, Math.min(MAX_CHUNK, Math.ceil(head / (4 * Math.max(1, threads)))));
  const plan: ChunkPlan = { head, chunkSize, stopAtFirstIssue: opts.stopAtFirstIssue };
  const control = controlBlock(plan, workerCount);
  const results: ChunkResult[] = [];
  let checked = 0;
  const heard = (chunk: ChunkResult): void => {
    results.push(chunk);
    checked += chunk.result.checked;
    opts.onProgress?.(checked);
  };
  const workers = Array.from({ length: workerCount }, (_, slot) =>
    startWorker({ path: store.path, plan, control }, slot, heard),
  );
  try {
    if (mainVerifies) {
      await verifyClaimedChunks(store, plan, control, async (chunk) => {
        heard(chunk);
        // Let the workers' reports in between chunks: the SQLite reads never yield on their own.
        await new Promise<void>((resolve) => setImmediate(resolve));
      });
    }
    await Promise.all(
      workers.map(async ({ done, stop }, slot) => {
        // A worker still booting is told not to start, and its end is not waited for.
        if (mainVerifies && cancelIfBooting(control, slot)) void stop();
        else await done;
      }),
    );
  } finally {
    for (const { stop } of workers) void stop();
  }
  return merge(results, plan, head);
}

/** The sequential pass's answer from the chunks' answers. */
function merge(chunks: ChunkResult[], plan: ChunkPlan, head: number): VerifyResult & { head: number } {
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
  };
}
