/**
 * The counter store behind the rate limiter. Implementations: Redis (shared by every node) and
 * in-process memory (single node, no REDIS_URL). Both keep the same semantics, tested by one suite.
 */

export interface RateLimitHit {
  /** Hits on this key in its current life, this one included. */
  count: number;
  /** Milliseconds until the key expires. */
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
   * Atomically increments `key`, giving it `ttlSeconds` to live when the hit creates it (or finds
   * it without an expiry), and bumps `action`'s count in the key's per-action tally.
   */
  hit(key: string, ttlSeconds: number, action?: string): Promise<RateLimitHit>;
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
