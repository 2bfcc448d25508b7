/**
 * The Ledger: the one writer of this process (ARCHITECTURE §3.2). It serializes appends, seals
 * events at the head it holds, and appends with optimistic concurrency on that head. When another
 * writer got there first it refreshes the head, lets the caller re-decide, and retries (bounded,
 * with jitter) before giving up with ConflictRetriesExhausted.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Clock } from '../clock.js';
import type { EventStore } from '../event-store/port.js';
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
  /** Called after every successful, non-duplicate append, in order. */
  onAppended?: (events: SealedEvent[]) => Promise<void> | void;
  /** Random source for retry jitter (tests pin it). */
  random?: () => number;
}

export class Ledger {
  readonly store: EventStore;
  readonly #clock: Clock;
  readonly #maxAttempts: number;
  readonly #onConflict: LedgerOptions['onConflict'];
  #onAppended: LedgerOptions['onAppended'];
  readonly #random: () => number;
  #head: LedgerHead = EMPTY_HEAD;
  #queue: Promise<unknown> = Promise.resolve();
  #conflicts = 0;

  private constructor(store: EventStore, clock: Clock, opts: LedgerOptions) {
    this.store = store;
    this.#clock = clock;
    this.#maxAttempts = opts.maxAttempts ?? 10;
    this.#onConflict = opts.onConflict;
    this.#onAppended = opts.onAppended;
    this.#random = opts.random ?? Math.random;
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

  /** How many append conflicts this writer has met (for /metrics). */
  get conflicts(): number {
    return this.#conflicts;
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
    const run = this.#queue.then(() => this.#commitNow(decide, meta));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #commitNow<R>(
    decide: (head: LedgerHead) => Decision<R> | Promise<Decision<R>>,
    meta: EventMeta,
  ): Promise<CommitResult<R>> {
    const cleanedMeta = cleanMeta(meta);
    for (let attempt = 1; ; attempt += 1) {
      const head = this.#head;
      const decision = await decide(head);
      if (decision.events.length === 0) {
        return { result: decision.result, events: [], head, duplicate: false };
      }
      const recordedAt = this.#clock.now().toISOString();
      let prev = head;
      const sealed = decision.events.map((input) => {
        const { event } = seal(
          {
            id: input.id ?? uuidv7(),
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
        const stored = await this.store.append(sealed, head.seq);
        if (!stored.duplicate) {
          this.#head = stored.head;
          await this.#onAppended?.(stored.events);
        }
        return {
          result: decision.result,
          events: stored.events,
          head: this.#head,
          duplicate: stored.duplicate,
        };
      } catch (error) {
        if (!(error instanceof AppendConflict)) throw error;
        this.#conflicts += 1;
        this.#head = await this.store.head();
        if (attempt >= this.#maxAttempts) throw new ConflictRetriesExhausted(attempt);
        await this.#onConflict?.(this.#head);
        await sleep(Math.floor(this.#random() * 5 * attempt));
      }
    }
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

function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}
