/**
 * The background verifier's long passes, off the service's thread (embedded mode). The first pass
 * after a start walks the whole ledger: 12.6 s at a million events, on the thread that answers
 * requests, paced page by page — `score` fell to 0.39× of its rate until it ended. Here a worker
 * thread with its own connection to the ledger file walks a stretch (`verifyPrefix`: the chain,
 * and each leaf against its stored tile) and hands back the head it verified through; the
 * service's thread only walks what is left after it (the leaves of the tree's partial tile and
 * what arrived meanwhile) and, when the worker declines, the stretch itself, which names the issue.
 *
 * A worker is started for one pass and ends with it (a thread at rest would hold ~20–40 MiB for a
 * pass every restart); `cancel` ends a running one (a shutdown).
 */
import type { Worker } from 'node:worker_threads';
import type { LedgerHead } from '../ledger/envelope.js';
import { siblingEntry, startModuleWorker } from '../worker-thread.js';
import type { VerifyThreadAnswer, VerifyThreadTask } from './verify-thread-worker.js';

/** The young generation of `ledger:verify`'s workers (scripts/lib/verify-workers.ts): 2 MiB semi-spaces. */
const YOUNG_GENERATION_MB = 3 * 2;

export interface ThreadedVerifierOptions {
  /** A stretch shorter than this is walked on the service's thread (a worker costs ~0.1–0.3 s to boot). */
  minEvents?: number;
  /** Hears why a pass could not run on its thread (it then runs on the service's). */
  onError?: (error: Error) => void;
}

export class ThreadedVerifier {
  readonly minEvents: number;
  readonly #path: string;
  readonly #onError: (error: Error) => void;
  readonly #running = new Set<Worker>();

  /** `path`: the ledger file (SQLite). */
  constructor(path: string, opts: ThreadedVerifierOptions = {}) {
    this.#path = path;
    this.minEvents = opts.minEvents ?? 20_000;
    this.#onError = opts.onError ?? (() => undefined);
  }

  /**
   * Verifies (from, to] on a thread of its own: resolves the stored head it verified through (at
   * most `to`; less where the stored tiles end), or null when anything did not verify, the thread
   * failed, or the pass was cancelled.
   */
  verify(from: LedgerHead, to: number): Promise<LedgerHead | null> {
    let worker: Worker;
    try {
      worker = startModuleWorker(
        siblingEntry(import.meta.url, 'verify-thread-worker'),
        { path: this.#path, from, to } satisfies VerifyThreadTask,
        { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } },
      );
    } catch (error) {
      this.#onError(error as Error);
      return Promise.resolve(null);
    }
    // Never keeps the process alive: a shutdown cancels it, an exit ends it.
    worker.unref();
    this.#running.add(worker);
    return new Promise<LedgerHead | null>((resolve) => {
      worker.once('message', (answer: VerifyThreadAnswer) => resolve(answer.through));
      worker.once('error', (error) => {
        this.#onError(error);
        resolve(null);
      });
      worker.once('exit', () => resolve(null));
    }).finally(() => {
      this.#running.delete(worker);
    });
  }

  /** Ends any running pass (its `verify` resolves null). */
  async cancel(): Promise<void> {
    await Promise.all([...this.#running].map((worker) => worker.terminate()));
  }
}
