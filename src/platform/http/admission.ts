/**
 * The admission gate (issue 13 item 6): at most `concurrency` requests run at once, up to
 * `maxInFlight` in all wait their turn, and the next one is shed at once with 503 + Retry-After.
 * An overloaded node so says "later" at the door instead of starting work whose Redis commands
 * would time out mid-request while the event loop is busy with everyone else's.
 */
import type { RequestHandler, Response } from 'express';
import { ProblemError } from './problem.js';
import { bindRequestScope } from './scope.js';

export interface AdmissionLimits {
  /** Requests running at once (HTTP_CONCURRENCY, default 32). */
  concurrency: number;
  /** Requests running or waiting; past it a request is shed with 503 (HTTP_MAX_IN_FLIGHT, default 512). */
  maxInFlight: number;
}

export const DEFAULT_ADMISSION: AdmissionLimits = { concurrency: 32, maxInFlight: 512 };

/** Seconds a shed client is told to wait: long enough for a full queue to drain at typical rates. */
export const SHED_RETRY_AFTER_S = 1;

/** Probes and scrapes are never queued behind traffic: an orchestrator must see an overloaded node. */
const UNGATED = new Set(['/healthz', '/readyz', '/metrics']);

export class AdmissionGate {
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  #shed = 0;

  constructor(private readonly limits: AdmissionLimits = DEFAULT_ADMISSION) {}

  /** Requests running, waiting, and shed since start (metrics, tests). */
  status(): { running: number; waiting: number; shed: number } {
    return { running: this.#running, waiting: this.#waiting.length, shed: this.#shed };
  }

  middleware(): RequestHandler {
    return (req, res, next) => {
      if (UNGATED.has(req.path)) {
        next();
        return;
      }
      if (this.#running + this.#waiting.length >= this.limits.maxInFlight) {
        this.#shed += 1;
        next(
          new ProblemError(
            'UNAVAILABLE',
            `the service is at capacity (${this.limits.maxInFlight} requests in flight); retry shortly`,
            {},
            { 'Retry-After': String(SHED_RETRY_AFTER_S) },
          ),
        );
        return;
      }
      const admit = (): void => {
        this.#running += 1;
        this.#onDone(res, () => {
          this.#running -= 1;
          this.#waiting.shift()?.();
        });
        next();
      };
      // Admitted at once: still inside the request's scope, so nothing to bind (issue 19 item 3).
      if (this.#running < this.limits.concurrency) {
        admit();
        return;
      }
      // Queued: resumed from another request's finish, so bound to this request's scope.
      const queued = bindRequestScope(admit);
      this.#waiting.push(queued);
      // A client that gives up while waiting leaves the queue.
      res.once('close', () => {
        const at = this.#waiting.indexOf(queued);
        if (at >= 0) this.#waiting.splice(at, 1);
      });
    };
  }

  #onDone(res: Response, leave: () => void): void {
    let left = false;
    const once = (): void => {
      if (left) return;
      left = true;
      leave();
    };
    res.once('finish', once);
    res.once('close', once);
  }
}
