/**
 * The admission gate (issue 13 item 6): at most `concurrency` requests run at once, up to
 * `maxInFlight` in all wait their turn, and the next one is shed at once with 503 + Retry-After.
 * An overloaded node so says "later" at the door instead of starting work whose Redis commands
 * would time out mid-request while the event loop is busy with everyone else's.
 *
 * A slot stands for work, not for waiting on a client: a body reader steps out of the gate while
 * the body is still on its way (`stepOutWhileReading`) and queues for a slot again once it is in,
 * so clients that send their bodies slowly cannot hold every slot (a slow-POST denial of service);
 * the server's request timeout (HTTP_REQUEST_TIMEOUT_MS) bounds how long they may take at all.
 */
import type { Request, RequestHandler, Response } from 'express';
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
      const ticket = new Ticket(this, res);
      tickets.set(req, ticket);
      ticket.enter(() => next());
    };
  }

  /** Takes a slot for `ticket` now if one is free, else queues it; `then` runs once it holds one. */
  enter(ticket: Ticket, res: Response, then: () => void): void {
    // Admitted at once: still inside the request's scope, so nothing to bind (issue 19 item 3).
    if (this.#running < this.limits.concurrency) {
      this.#admit(ticket, then);
      return;
    }
    // Queued: resumed from another request's finish, so bound to this request's scope.
    const queued = bindRequestScope(() => this.#admit(ticket, then));
    this.#waiting.push(queued);
    // A client that gives up while waiting leaves the queue.
    res.once('close', () => {
      const at = this.#waiting.indexOf(queued);
      if (at >= 0) this.#waiting.splice(at, 1);
    });
  }

  #admit(ticket: Ticket, then: () => void): void {
    this.#running += 1;
    ticket.held = true;
    then();
  }

  /** Gives back the slot `ticket` holds (if any) to the next request waiting. */
  leave(ticket: Ticket): void {
    if (!ticket.held) return;
    ticket.held = false;
    this.#running -= 1;
    this.#waiting.shift()?.();
  }
}

/** One admitted request's hold on the gate. */
class Ticket {
  held = false;
  /** The response finished or the client went away: nothing more to hold a slot for. */
  done = false;

  constructor(
    private readonly gate: AdmissionGate,
    private readonly res: Response,
  ) {
    // One listener: a response emits `close` after `finish` (the tick after it) as well as when the
    // client goes away first, so `close` alone sees every end.
    res.on('close', () => {
      this.done = true;
      gate.leave(this);
    });
  }

  enter(then: () => void): void {
    if (this.done) {
      then();
      return;
    }
    this.gate.enter(this, this.res, then);
  }

  leave(): void {
    this.gate.leave(this);
  }
}

const tickets = new WeakMap<Request, Ticket>();

/**
 * Runs `read` — receiving the request body: waiting on the client, not work — outside the gate when
 * the body is not all in yet, then `then` once the request holds a slot again (it queues like a new
 * one, but is never shed: it was admitted). A request whose body has arrived (the usual case: a
 * small body comes with its headers), or one the gate never saw, keeps its slot throughout.
 */
export function stepOutWhileReading(
  req: Request,
  read: (done: (...args: unknown[]) => void) => void,
  then: (...args: unknown[]) => void,
): void {
  const ticket = tickets.get(req);
  if (ticket === undefined || req.complete) {
    read(then);
    return;
  }
  ticket.leave();
  read((...args) => ticket.enter(() => then(...args)));
}
