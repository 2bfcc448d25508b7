/**
 * The counter store behind the rate limiter. Implementations: Redis (shared by every node) and
 * in-process memory (single node, no REDIS_URL). Both keep the same semantics, tested by one suite.
 */

export interface RateLimitReservation {
  /** True when the call took one of the window's places; false when the window was already full. */
  reserved: boolean;
  /** Places taken in this window, this one included when reserved (never above the limit). */
  count: number;
  /** Milliseconds until the key expires (0 when a refused call found no key). */
  ttl_ms: number;
}

export interface RateLimitPeek {
  /** Hits so far; 0 for a key never hit or expired. */
  count: number;
  /** Milliseconds until the key expires; 0 when it does not exist. */
  ttl_ms: number;
  /** Hits per action name, for the usage report. */
  by_action: Record<string, number>;
}

export interface RateLimitStore {
  /**
   * Atomically takes one place in `key`'s window when fewer than `limit` are taken: increments the
   * counter (giving it `ttlSeconds` to live when this creates it or finds it without an expiry) and
   * bumps `action`'s count in the key's per-action tally. A full window is left untouched, so a
   * refused call never counts (issue 13 item 6).
   */
  reserve(key: string, ttlSeconds: number, limit: number, action?: string): Promise<RateLimitReservation>;
  /**
   * Gives back a place {@link RateLimitStore.reserve} took, for a call that was not served (any
   * non-2xx outcome): decrements the counter and `action`'s tally, never below zero.
   */
  release(key: string, action?: string): Promise<void>;
  /** Reads the counter and tally without counting. */
  peek(key: string): Promise<RateLimitPeek>;
  close(): Promise<void>;
}

/**
 * The counter store could not be reached or did not answer in time. The HTTP edge answers
 * 503 UNAVAILABLE (fail closed) or serves and logs (fail open), per RATE_LIMIT_ON_STORE_ERROR.
 */
export class RateLimitStoreUnavailable extends Error {
  readonly type = 'rate_limit_store_unavailable' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RateLimitStoreUnavailable';
  }
}
