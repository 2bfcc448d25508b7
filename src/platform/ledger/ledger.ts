/**
 * The Ledger: the one writer of this process (ARCHITECTURE §3.2). It serializes appends, seals
 * events at the head it holds, and appends with optimistic concurrency on that head. When another
 * writer got there first it refreshes the head, lets the caller re-decide, and retries (bounded,
 * exponential backoff with full jitter) before giving up with ConflictRetriesExhausted.
 *
 * With a store that offers group commit (SQLite), a command is committed, applied to the read
 * models and its successor decided while its sync is still on the way; its caller hears back only
 * once it is durable. So under load one sync covers many commands, and no acknowledged event can
 * be lost. Reads may see a committed event a moment before its writer is answered.
 */
import type { Clock } from '../clock.js';
import { newEventId } from '../ids.js';
import type { EventStore, GroupedAppend } from '../event-store/port.js';
import {
  cleanMeta,
  EMPTY_HEAD,
  seal,
  type EventInput,
  type EventMeta,
  type LedgerHead,
  type SealedEvent,
} from './envelope.js';
import { AppendConflict, ConflictRetriesExhausted } from './errors.js';

/** What a command's decision produces: events to append (possibly none) and a result to return. */
export interface Decision<R> {
  events: EventInput[];
  result: R;
}

export interface CommitResult<R> {
  result: R;
  /** The stored events (for an idempotent re-append, the originals). */
  events: SealedEvent[];
  head: LedgerHead;
  duplicate: boolean;
}

export interface LedgerOptions {
  /** Attempts in all before a conflict becomes ConflictRetriesExhausted (default 10: under two-node contention on EventStoreDB, 5 starved the slower writer). */
  maxAttempts?: number;
  /** Called after a conflict, with the new head, before the command decides again. */
  onConflict?: (head: LedgerHead) => Promise<void> | void;
  /**
   * Awaited before every decision with the head this writer knows; answers the head to decide at.
   * The composition brings the read models to exactly that head, a whole number of appends, so a
   * decider never sees another writer's batch half applied nor state older than the head its append
   * will expect (see compose.ts).
   */
  settle?: (head: LedgerHead) => Promise<LedgerHead>;
  /** Called after every successful, non-duplicate append, in order. */
  onAppended?: (events: SealedEvent[]) => Promise<void> | void;
  /** Random source for retry jitter (tests pin it). */
  random?: () => number;
  /**
   * Asked before every command and again after its decision: an error refuses it (an integrity
   * failure, or damaged read models, suspends appends).
   */
  guard?: () => Error | null;
}

export class Ledger {
  readonly store: EventStore;
  readonly #clock: Clock;
  readonly #maxAttempts: number;
  readonly #onConflict: LedgerOptions['onConflict'];
  readonly #settle: LedgerOptions['settle'];
  #onAppended: LedgerOptions['onAppended'];
  readonly #random: () => number;
  #guard: LedgerOptions['guard'];
  #head: LedgerHead = EMPTY_HEAD;
  #queue: Promise<unknown> = Promise.resolve();
  /** When the queue began holding the thread in this turn of the event loop (null: not yet). */
  #turnStarted: number | null = null;
  /** Durability of the last append: syncs go in order, so it implies every earlier one's. */
  #lastDurable: Promise<void> = Promise.resolve();
  #conflicts = 0;

  private constructor(store: EventStore, clock: Clock, opts: LedgerOptions) {
    this.store = store;
    this.#clock = clock;
    this.#maxAttempts = opts.maxAttempts ?? 10;
    this.#onConflict = opts.onConflict;
    this.#settle = opts.settle;
    this.#onAppended = opts.onAppended;
    this.#random = opts.random ?? Math.random;
    this.#guard = opts.guard;
  }

  static async open(store: EventStore, clock: Clock, opts: LedgerOptions = {}): Promise<Ledger> {
    const ledger = new Ledger(store, clock, opts);
    ledger.#head = await store.head();
    return ledger;
  }

  /** The head this writer last saw (not a store round trip). */
  get head(): LedgerHead {
    return this.#head;
  }

  /**
   * The recorded events at the given positions, in the order asked (positions past the head are
   * left out). Read models keep positions, not payloads; this is how a query renders the events it
   * found without reading the store itself.
   */
  async eventsAt(seqs: readonly number[]): Promise<SealedEvent[]> {
    const out: SealedEvent[] = [];
    for (const seq of seqs) {
      const [event] = await this.store.read(seq, 1);
      if (event?.seq === seq) out.push(event);
    }
    return out;
  }

  /** Every event of one stream, in seq order. */
  streamEvents(stream: string): Promise<SealedEvent[]> {
    return this.store.readStream(stream);
  }

  /** How many append conflicts this writer has met (for /metrics). */
  get conflicts(): number {
    return this.#conflicts;
  }

  /** Wires the append guard in after construction (the verifier is built after the ledger). */
  setGuard(fn: LedgerOptions['guard']): void {
    this.#guard = fn;
  }

  /** Wires the projection runtime in after construction (composition roots need both). */
  setOnAppended(fn: LedgerOptions['onAppended']): void {
    this.#onAppended = fn;
  }

  /** Appends events as they are (no re-decision on conflict beyond refreshing the head). */
  async append(inputs: EventInput[], meta: EventMeta): Promise<CommitResult<null>> {
    return this.commit(() => ({ events: inputs, result: null }), meta);
  }

  /**
   * Runs `decide` against the current head and appends what it returns, atomically. On a conflict
   * `decide` runs again after `onConflict` has caught the read side up.
   */
  commit<R>(
    decide: (head: LedgerHead) => Decision<R> | Promise<Decision<R>>,
    meta: EventMeta,
  ): Promise<CommitResult<R>> {
    const run = this.#queue.then(() => this.#turn()).then(() => this.#commitNow(decide, meta));
    this.#queue = run.catch(() => undefined);
    // The queue moves on as soon as a command is committed; its caller hears back once durable.
    return run.then(async ({ durable, ...committed }) => {
      await durable;
      return committed;
    });
  }

  /**
   * Before each queued command: once the queue has held the thread for QUEUE_TURN_MS in one turn of
   * the event loop, it lets the loop turn (timers, sockets, health checks) before going on. Queued
   * commands run back to back in microtasks, which never yield: after a start, 40 entities' first
   * scores (each deriving its facts from the read models inside its decide, ~70 ms) held the thread
   * for one 2.7 s turn at 1M events (5–6 s on a slower host), with /readyz unanswered all along. A
   * command's own decide is never cut; at ordinary loads (a command well under a millisecond, the
   * queue rarely 50 deep) the queue never yields. Order is unchanged: the next command waits here.
   */
  async #turn(): Promise<void> {
    if (this.#turnStarted !== null && performance.now() - this.#turnStarted >= QUEUE_TURN_MS)
      await new Promise<void>((resolve) => setImmediate(resolve));
    // A new turn (the first command in it, or the first after the yield above: the reset scheduled
    // when the last turn began runs before that yield's own immediate).
    if (this.#turnStarted === null) {
      this.#turnStarted = performance.now();
      // Runs at this turn's check phase: whatever the queue does after it is a new turn.
      setImmediate(() => (this.#turnStarted = null));
    }
  }

  async #commitNow<R>(
    decide: (head: LedgerHead) => Decision<R> | Promise<Decision<R>>,
    meta: EventMeta,
  ): Promise<CommitResult<R> & { durable: Promise<void> }> {
    const cleanedMeta = cleanMeta(meta);
    const refused = this.#guard?.();
    if (refused) throw refused;
    for (let attempt = 1; ; attempt += 1) {
      if (this.#settle) this.#head = await this.#settle(this.#head);
      const head = this.#head;
      const decision = await decide(head);
      // Asked again once decided: a decision taken while appends were being suspended (a decider
      // that met damaged read models and went on, e.g. an engine's throw taken as its FAILED
      // outcome) is not recorded.
      const suspended = this.#guard?.();
      if (suspended) throw suspended;
      if (decision.events.length === 0) {
        // Nothing to append, but the answer was decided on state that may hold events still on their
        // way to disk: it is given once they are durable too.
        return { result: decision.result, events: [], head, duplicate: false, durable: this.#lastDurable };
      }
      const recordedAt = this.#clock.now().toISOString();
      let prev = head;
      const sealed = decision.events.map((input) => {
        const { event } = seal(
          {
            id: input.id ?? newEventId(),
            stream: input.stream,
            type: input.type,
            schema: input.schema ?? 1,
            data: input.data,
            meta: cleanedMeta,
            recorded_at: recordedAt,
          },
          prev,
        );
        prev = { seq: event.seq, hash: event.hash };
        return event;
      });
      try {
        const stored = await this.#append(sealed, head.seq);
        // Durability is not awaited here, so the queue may commit the next command under the same
        // sync; a failed sync rejects every caller waiting on it (and the store takes no more).
        stored.durable.catch(() => undefined);
        this.#lastDurable = stored.durable;
        if (!stored.duplicate) {
          this.#head = stored.head;
          await this.#onAppended?.(stored.events);
        }
        return {
          result: decision.result,
          events: stored.events,
          head: this.#head,
          duplicate: stored.duplicate,
          durable: stored.durable,
        };
      } catch (error) {
        if (!(error instanceof AppendConflict)) throw error;
        this.#conflicts += 1;
        this.#head = await this.store.head();
        if (attempt >= this.#maxAttempts) throw new ConflictRetriesExhausted(attempt);
        await this.#onConflict?.(this.#head);
        await sleep(backoffMs(attempt, this.#random));
      }
    }
  }

  /** Group commit when the store offers it; otherwise a plain append, durable when it resolves. */
  async #append(events: SealedEvent[], expectedHead: number): Promise<GroupedAppend> {
    if (this.store.appendGrouped) return this.store.appendGrouped(events, expectedHead);
    return { ...(await this.store.append(events, expectedHead)), durable: Promise.resolve() };
  }

  /** Re-reads the store's head (after another process may have written). */
  async refresh(): Promise<LedgerHead> {
    const run = this.#queue.then(async () => {
      this.#head = await this.store.head();
      return this.#head;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

const BACKOFF_BASE_MS = 5;

/** How long the commit queue may hold the thread in one turn of the event loop (`#turn`). */
export const QUEUE_TURN_MS = 50;
const BACKOFF_CAP_MS = 250;

/**
 * Exponential backoff with full jitter after the n-th conflict: a random wait below
 * min(cap, base · 2^(n−1)), so writers on several nodes racing for one head spread out quickly.
 */
export function backoffMs(attempt: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}
