/**
 * The EventStore port (ARCHITECTURE §3.3). Adapters store sealed envelopes; they never compute
 * hashes or positions, they only refuse an append whose expected head is stale.
 */
import type { LedgerHead, SealedEvent } from '../ledger/envelope.js';
import type { StoredRecord } from '../ledger/verify.js';

export interface AppendResult {
  /** The events as stored: for a duplicate append, the originals with their original positions. */
  events: SealedEvent[];
  head: LedgerHead;
  /** True when every event id was already in the store (idempotent re-append). */
  duplicate: boolean;
}

/** A committed append whose durability is still on its way (group commit). */
export interface GroupedAppend extends AppendResult {
  /** Resolves once the events survive power loss; rejects (StoreUnavailable) if that failed. */
  durable: Promise<void>;
}

export interface ReadStreamOptions {
  /** Only events with seq > after. */
  after?: number;
  limit?: number;
}

export type EventHandler = (event: SealedEvent) => void | Promise<void>;

export interface Subscription {
  /** Resolves once the catch-up part is done and live delivery has begun. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

export interface EventStore {
  /** A name for logs and /readyz: "sqlite" or "esdb". */
  readonly kind: string;
  /**
   * Appends atomically (all or none) when the store's head is `expectedHead`; otherwise throws
   * AppendConflict. Re-appending events whose ids are already stored returns the originals.
   */
  append(events: SealedEvent[], expectedHead: number): Promise<AppendResult>;
  /**
   * Optional group commit: like `append`, but resolves as soon as the events are committed and
   * readable, with `durable` resolving once they are durable. A writer may commit its next append
   * meanwhile and acknowledge each one when its `durable` resolves; one sync then covers many.
   */
  appendGrouped?(
    events: SealedEvent[],
    expectedHead: number,
    /**
     * `alone`: the caller waits for this append before making another and nothing else appends
     * through this handle, so there is nothing to group with (a plain `append`).
     */
    opts?: { alone?: boolean },
  ): Promise<GroupedAppend>;
  head(): Promise<LedgerHead>;
  /** Events with seq ≥ from, ascending, at most `limit`. */
  read(from: number, limit: number): Promise<SealedEvent[]>;
  /** Stored canonical rows for verification; adapters that keep no raw bytes rebuild them. */
  readRecords(from: number, limit: number): Promise<StoredRecord[]>;
  readStream(stream: string, opts?: ReadStreamOptions): Promise<SealedEvent[]>;
  /** Delivers every event with seq ≥ from in order, then new ones as they are appended. */
  subscribe(from: number, onEvent: EventHandler): Subscription;
  close(): Promise<void>;
}

/** Reads the whole ledger (or from `from`) in pages, for scripts and rebuilds. */
export async function* readAll(store: EventStore, from = 1, pageSize = 5000): AsyncGenerator<SealedEvent> {
  let next = from;
  for (;;) {
    const page = await store.read(next, pageSize);
    if (page.length === 0) return;
    for (const event of page) yield event;
    next = page[page.length - 1]!.seq + 1;
    if (page.length < pageSize) return;
  }
}
