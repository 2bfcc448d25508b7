/**
 * Rate-limit counters for the embedded mode (single node, no REDIS_URL) that survive a restart
 * (SPEC §3: 100 lender calls per key per UTC day, not per process lifetime). The heap is
 * authoritative, exactly as {@link MemoryRateLimitStore}: reserve, release and peek never touch the
 * disk. Counters changed since the last write are copied to a key-value file (the ledger's SQLite
 * file in embedded mode, else DATA_DIR/kv.db) in one transaction at most {@link
 * DEFAULT_FLUSH_EVERY_MS} after the change, and on close; they are read back at start, expired
 * windows left out. A crash (the process killed, no close) loses at most the counts of that
 * last interval.
 */
import type { Clock } from '../clock.js';
import { MemoryRateLimitStore, type RateLimitCounterSnapshot } from './memory.js';
import type { RateLimitPeek, RateLimitReservation, RateLimitStore } from './port.js';

/** How long a changed counter may stay only in memory; what a crash can lose. */
export const DEFAULT_FLUSH_EVERY_MS = 250;

/** Where the counters live in the key-value file. */
export const RATE_LIMIT_NAMESPACE = 'rate-limit';

/** Expired rows are reclaimed at most this often (the idempotency store sweeps the same table too). */
const SWEEP_EVERY_MS = 60_000;

/** One saved row: `value` is the counter as JSON, `expires_at` epoch ms. */
export interface CounterRow {
  key: string;
  value: string;
  expires_at: number;
}

/** The key-value file; structurally the embedded `SqliteKeyValueStore` (platform/event-store/sqlite.ts). */
export interface CounterFile {
  /** Unexpired rows of `namespace`. */
  entries(namespace: string): CounterRow[];
  /** Overwrites `puts` and removes `deletes` in `namespace`, atomically. */
  write(namespace: string, puts: readonly CounterRow[], deletes: readonly string[]): void;
  /** Drops every expired row of the file; returns how many. */
  deleteExpired(): number;
}

export interface PersistedRateLimitStoreOptions {
  /** Longest time a change stays unwritten. Default {@link DEFAULT_FLUSH_EVERY_MS}. */
  flushEveryMs?: number;
  /** A write that failed (it is retried at the next interval); for the caller's log. */
  onError?: (error: Error) => void;
}

export class PersistedRateLimitStore implements RateLimitStore {
  readonly #clock: Clock;
  readonly #file: CounterFile;
  readonly #memory: MemoryRateLimitStore;
  readonly #flushEveryMs: number;
  readonly #onError: (error: Error) => void;
  /** Keys changed since the last write. */
  #dirty = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #lastSweep: number;
  #closed = false;

  /** Reads the saved counters back (throws if the file cannot be used: start-up should fail loudly). */
  constructor(clock: Clock, file: CounterFile, options: PersistedRateLimitStoreOptions = {}) {
    this.#clock = clock;
    this.#file = file;
    this.#memory = new MemoryRateLimitStore(clock);
    this.#flushEveryMs = options.flushEveryMs ?? DEFAULT_FLUSH_EVERY_MS;
    this.#onError = options.onError ?? (() => undefined);
    // Windows that ended while the service was down are dropped from the file, not loaded.
    file.deleteExpired();
    this.#lastSweep = clock.now().getTime();
    for (const row of file.entries(RATE_LIMIT_NAMESPACE)) {
      const saved = parseCounter(row);
      if (saved) this.#memory.restore(row.key, saved);
    }
  }

  async reserve(
    key: string,
    ttlSeconds: number,
    limit: number,
    action?: string,
  ): Promise<RateLimitReservation> {
    const taken = await this.#memory.reserve(key, ttlSeconds, limit, action);
    // A refused call changed nothing, so there is nothing to write.
    if (taken.reserved) this.#changed(key);
    return taken;
  }

  async release(key: string, action?: string): Promise<void> {
    await this.#memory.release(key, action);
    this.#changed(key);
  }

  peek(key: string): Promise<RateLimitPeek> {
    return this.#memory.peek(key);
  }

  /** Writes every changed counter now, in one transaction; throws when the file cannot be written. */
  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#dirty.size === 0) return;
    const keys = this.#dirty;
    this.#dirty = new Set();
    const puts: CounterRow[] = [];
    const deletes: string[] = [];
    for (const key of keys) {
      const counter = this.#memory.snapshot(key);
      if (counter) puts.push(rowOf(key, counter));
      else deletes.push(key);
    }
    try {
      this.#file.write(RATE_LIMIT_NAMESPACE, puts, deletes);
      const now = this.#clock.now().getTime();
      if (now - this.#lastSweep >= SWEEP_EVERY_MS) {
        this.#lastSweep = now;
        this.#file.deleteExpired();
      }
    } catch (error) {
      // Keep them for the next attempt; counting goes on in memory meanwhile.
      for (const key of keys) this.#dirty.add(key);
      if (!this.#closed) this.#schedule();
      throw error;
    }
  }

  /** Writes what is pending; the file belongs to the caller, who closes it afterwards. */
  close(): Promise<void> {
    this.#closed = true;
    try {
      this.flush();
    } catch (error) {
      this.#onError(error as Error);
    }
    return this.#memory.close();
  }

  #changed(key: string): void {
    this.#dirty.add(key);
    if (!this.#timer && !this.#closed) this.#schedule();
  }

  #schedule(): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      try {
        this.flush();
      } catch (error) {
        this.#onError(error as Error);
      }
    }, this.#flushEveryMs);
    // A pending write never keeps the process alive; close() writes it.
    this.#timer.unref();
  }
}

function rowOf(key: string, counter: RateLimitCounterSnapshot): CounterRow {
  return {
    key,
    value: JSON.stringify({ count: counter.count, by_action: counter.by_action }),
    expires_at: counter.expires_at_ms,
  };
}

/** A saved row, or undefined when it is not one this code wrote (skipped rather than trusted). */
function parseCounter(row: CounterRow): RateLimitCounterSnapshot | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.value);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object') return undefined;
  const { count, by_action } = parsed as { count?: unknown; by_action?: unknown };
  if (!isCount(count) || by_action === null || typeof by_action !== 'object') return undefined;
  const tally: Record<string, number> = {};
  for (const [action, n] of Object.entries(by_action as Record<string, unknown>)) {
    if (!isCount(n)) return undefined;
    tally[action] = n;
  }
  return { count, expires_at_ms: row.expires_at, by_action: tally };
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}
