/**
 * The worker threads of a parallel `ledger:verify` (scripts/lib/parallel-verify.ts), booted apart
 * from the pass: a worker takes about 0.2 s to boot (under tsx it loads TypeScript), so the CLI
 * boots them before it loads its own modules, which takes about as long. Deliberately light — only
 * node:worker_threads (through src/platform/worker-thread.ts, which holds the tsx bootstrap) — so
 * booting them is the first thing the CLI does.
 */
import type { Worker } from 'node:worker_threads';
import { siblingEntry, startModuleWorker } from '../../src/platform/worker-thread.js';
import type { ChunkResult } from './verify-chunks.js';
import type { VerifyAssignment, VerifyWorkerMessage } from './verify-worker.js';

/**
 * Three semi-spaces' worth (V8 sizes the young generation as 3 × the semi-space): 2 MiB
 * semi-spaces, a young generation that stays in the caches and is never grown into fresh pages.
 */
const YOUNG_GENERATION_MB = 3 * 2;

/** One worker: booting, then serving the one pass it is assigned. */
export class VerifyWorker {
  readonly #worker: Worker;
  #stopping = false;
  #onChunk: (chunk: ChunkResult) => void = () => undefined;
  /** Resolves once the worker has reported every chunk it claimed. */
  readonly done: Promise<void>;

  constructor(entry: string) {
    // Under tsx, workers load TypeScript through tsx's loader, registered in the worker before the entry.
    // A small young generation: a row's strings die within its page (verifyRows reads 250 at a
    // time) and a chunk's leaves within their tile (LeafRun), so little survives a scavenge, and
    // V8's default (16 MiB semi-spaces, grown from 1 MiB as survivors add up) only spread the walk
    // over fresh pages — page faults cost ~8–10 µs each on this VM. 64 MiB semi-spaces took ~25 %
    // off a thread's CPU when each row's strings outlived 1,000-row pages and the leaves their
    // chunk; with those gone, 2 MiB measured best (two threads, cold passes: 100k bench ledger 8.47
    // → 7.95 µs of CPU per event against 64 MiB, 1M 5.64 → 5.57; 4 and 16 MiB no better).
    this.#worker = startModuleWorker(entry, null, {
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    this.done = new Promise<void>((resolve, reject) => {
      this.#worker.on('message', (msg: VerifyWorkerMessage) => {
        if (msg.type === 'chunk') this.#onChunk(msg.chunk);
        else resolve();
      });
      this.#worker.once('error', reject);
      this.#worker.once('exit', (code) => {
        if (code === 0 || this.#stopping) resolve();
        else reject(new Error(`verify worker exited ${code}`));
      });
    });
    // Awaited where it matters; never an unhandled rejection when the main thread failed first.
    this.done.catch(() => undefined);
  }

  assign(assignment: VerifyAssignment, onChunk: (chunk: ChunkResult) => void): void {
    this.#onChunk = onChunk;
    this.#worker.postMessage(assignment);
  }

  /** Ends the thread without waiting; a worker stopped on purpose is not an error. */
  stop(): void {
    this.#stopping = true;
    void this.#worker.terminate();
  }
}

/** Worker threads booted ahead of a parallel pass; each serves one pass. */
export class VerifyWorkers {
  readonly #workers: VerifyWorker[];

  private constructor(count: number) {
    // Beside this module: verify-worker.ts under tsx, verify-worker.js in the built dist/.
    const entry = siblingEntry(import.meta.url, 'verify-worker');
    this.#workers = Array.from({ length: count }, () => new VerifyWorker(entry));
  }

  /** Starts booting `count` workers now. */
  static boot(count: number): VerifyWorkers {
    return new VerifyWorkers(Math.max(0, count));
  }

  get size(): number {
    return this.#workers.length;
  }

  /** The workers were not needed after all (a small ledger): ended without waiting for them. */
  release(): void {
    for (const worker of this.#workers) worker.stop();
  }

  /** The workers in slot order; a pass hands each its assignment. */
  get all(): readonly VerifyWorker[] {
    return this.#workers;
  }
}
