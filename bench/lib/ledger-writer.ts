/**
 * Writes generated events the way the Ledger does — `seal()` at the head, the same envelope and
 * hashes — but many commands per store transaction (one `SqliteEventStore.append` per batch), so a
 * million-event dataset takes seconds of SQLite time instead of a million fsyncs. Each event keeps
 * its own command's meta and time. The read models the generator's deciders need are folded as
 * events are sealed, so the next command decides against everything before it.
 */
import type { SqliteEventStore } from '../../src/platform/event-store/sqlite.js';
import {
  cleanMeta,
  seal,
  type EventInput,
  type EventMeta,
  type LedgerHead,
  type SealedEvent,
} from '../../src/platform/ledger/envelope.js';
import type { Projection } from '../../src/platform/projections/runtime.js';

/** A projection folded while generating, with the state it owns. */
export class Fold<S> {
  state: S;
  constructor(readonly projection: Projection<S>) {
    this.state = projection.init();
  }
  apply(event: SealedEvent): void {
    this.state = this.projection.evolve(this.state, event);
  }
}

/**
 * The generator's folds read as a projection runtime reads (`state`, `position`, `onApplied`), so
 * the service's own governance head and credit view can be built over them (`headFrom`).
 */
export class FoldReadModels {
  readonly #folds = new Map<string, Fold<unknown>>();
  readonly #listeners: ((event: SealedEvent) => void)[] = [];
  #position = 0;

  constructor(folds: readonly Fold<unknown>[]) {
    for (const fold of folds) this.#folds.set(fold.projection.name, fold);
  }

  get position(): number {
    return this.#position;
  }

  state<S>(projection: Projection<S> | string): S {
    const name = typeof projection === 'string' ? projection : projection.name;
    const fold = this.#folds.get(name);
    if (!fold) throw new Error(`generator: no fold of projection ${name}`);
    return fold.state as S;
  }

  onApplied(fn: (event: SealedEvent) => void): void {
    this.#listeners.push(fn);
  }

  /** Called once an emitted event was folded. */
  applied(event: SealedEvent): void {
    this.#position = event.seq;
    for (const fn of this.#listeners) fn(event);
  }
}

export class BatchWriter {
  readonly #store: SqliteEventStore;
  readonly #batchSize: number;
  readonly #folds: readonly Fold<unknown>[];
  #head: LedgerHead;
  #pending: SealedEvent[] = [];
  #flushing: Promise<unknown> = Promise.resolve();
  readonly counts: Record<string, number> = {};

  constructor(store: SqliteEventStore, head: LedgerHead, folds: readonly Fold<unknown>[], batchSize = 2000) {
    this.#store = store;
    this.#head = head;
    this.#folds = folds;
    this.#batchSize = batchSize;
  }

  /** Seq of the last event sealed (stored or pending). */
  get seq(): number {
    return this.#head.seq;
  }

  get head(): LedgerHead {
    return this.#head;
  }

  /** Seals one event at the head, folds it, and queues it for the next batch. */
  emit(input: EventInput & { id: string }, meta: EventMeta, recordedAt: string): SealedEvent {
    const { event } = seal(
      {
        id: input.id,
        stream: input.stream,
        type: input.type,
        schema: input.schema ?? 1,
        data: input.data,
        meta: cleanMeta(meta),
        recorded_at: recordedAt,
      },
      this.#head,
    );
    this.#head = { seq: event.seq, hash: event.hash };
    for (const fold of this.#folds) fold.apply(event);
    this.counts[event.type] = (this.counts[event.type] ?? 0) + 1;
    this.#pending.push(event);
    return event;
  }

  /** True when a batch is full: the caller flushes between commands. */
  get full(): boolean {
    return this.#pending.length >= this.#batchSize;
  }

  /**
   * Appends the pending events as one atomic batch, expecting the store at the seq just before
   * the batch (optimistic concurrency, as the Ledger appends). Batches are chained in order.
   */
  flush(): Promise<void> {
    if (this.#pending.length > 0) {
      const batch = this.#pending;
      this.#pending = [];
      this.#flushing = this.#flushing.then(() => this.#store.append(batch, batch[0]!.seq - 1));
    }
    return this.#flushing.then(() => undefined);
  }
}
