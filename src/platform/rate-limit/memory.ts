/**
 * In-process counters for a single node without REDIS_URL (SPEC §3). Same semantics as the Redis
 * scripts (reserve below the limit, release a call not served), with expiry read from the injected clock so tests can cross a window boundary exactly.
 */
import type { Clock } from '../clock.js';
import type { RateLimitPeek, RateLimitReservation, RateLimitStore } from './port.js';

/** A counter as a store that persists them saves it: its count, tally and expiry (epoch ms). */
export interface RateLimitCounterSnapshot {
  count: number;
  expires_at_ms: number;
  by_action: Record<string, number>;
}

interface Counter {
  count: number;
  expiresAt: number;
  byAction: Map<string, number>;
}

/** New keys created between sweeps of expired ones; bounds memory without a timer. */
const SWEEP_EVERY = 1024;

export class MemoryRateLimitStore implements RateLimitStore {
  readonly #clock: Clock;
  readonly #counters = new Map<string, Counter>();
  #createdSinceSweep = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  reserve(key: string, ttlSeconds: number, limit: number, action?: string): Promise<RateLimitReservation> {
    const now = this.#clock.now().getTime();
    const existing = this.#live(key, now);
    if (existing && existing.count >= limit) {
      return Promise.resolve({ reserved: false, count: existing.count, ttl_ms: existing.expiresAt - now });
    }
    if (!existing && limit <= 0) return Promise.resolve({ reserved: false, count: 0, ttl_ms: 0 });
    const counter = existing ?? this.#create(key, now + ttlSeconds * 1000);
    counter.count += 1;
    if (action !== undefined) counter.byAction.set(action, (counter.byAction.get(action) ?? 0) + 1);
    return Promise.resolve({ reserved: true, count: counter.count, ttl_ms: counter.expiresAt - now });
  }

  release(key: string, action?: string): Promise<void> {
    const counter = this.#live(key, this.#clock.now().getTime());
    if (counter) {
      counter.count = Math.max(0, counter.count - 1);
      const tally = action === undefined ? undefined : counter.byAction.get(action);
      if (action !== undefined && tally !== undefined) {
        if (tally > 1) counter.byAction.set(action, tally - 1);
        else counter.byAction.delete(action);
      }
    }
    return Promise.resolve();
  }

  peek(key: string): Promise<RateLimitPeek> {
    const now = this.#clock.now().getTime();
    const counter = this.#live(key, now);
    if (!counter) return Promise.resolve({ count: 0, ttl_ms: 0, by_action: {} });
    return Promise.resolve({
      count: counter.count,
      ttl_ms: counter.expiresAt - now,
      by_action: Object.fromEntries(counter.byAction),
    });
  }

  /** The live counter of `key`, or undefined when it never existed or has expired. */
  snapshot(key: string): RateLimitCounterSnapshot | undefined {
    const counter = this.#live(key, this.#clock.now().getTime());
    if (!counter) return undefined;
    return {
      count: counter.count,
      expires_at_ms: counter.expiresAt,
      by_action: Object.fromEntries(counter.byAction),
    };
  }

  /** Puts back a counter saved by an earlier process; one whose window has expired is ignored. */
  restore(key: string, saved: RateLimitCounterSnapshot): void {
    if (saved.expires_at_ms <= this.#clock.now().getTime()) return;
    const counter = this.#create(key, saved.expires_at_ms);
    counter.count = saved.count;
    for (const [action, n] of Object.entries(saved.by_action)) if (n > 0) counter.byAction.set(action, n);
  }

  close(): Promise<void> {
    this.#counters.clear();
    return Promise.resolve();
  }

  #live(key: string, now: number): Counter | undefined {
    const counter = this.#counters.get(key);
    if (counter && counter.expiresAt <= now) {
      this.#counters.delete(key);
      return undefined;
    }
    return counter;
  }

  #create(key: string, expiresAt: number): Counter {
    this.#createdSinceSweep += 1;
    if (this.#createdSinceSweep >= SWEEP_EVERY) this.#sweep(this.#clock.now().getTime());
    const counter: Counter = { count: 0, expiresAt, byAction: new Map() };
    this.#counters.set(key, counter);
    return counter;
  }

  #sweep(now: number): void {
    this.#createdSinceSweep = 0;
    for (const [key, counter] of this.#counters) if (counter.expiresAt <= now) this.#counters.delete(key);
  }
}
