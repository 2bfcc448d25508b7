/**
 * The rate limiter the HTTP edge calls once per counted request (SPEC §3). It owns the policy
 * arithmetic (window, remaining, reset, headers); the store only counts. What happens when the
 * store is down is a deployment choice (ARCHITECTURE §8), so it is an option, not a code path
 * the caller re-implements.
 */
import type { Clock } from '../clock.js';
import {
  RATE_LIMIT_POLICIES,
  rateLimitHeader,
  rateLimitPolicyHeader,
  type RateLimitPolicy,
  type RateLimitPolicyName,
} from './policy.js';
import { RateLimitStoreUnavailable, type RateLimitStore } from './port.js';

/**
 * Counter keys outlive their window by this much, so a node whose clock runs a little behind
 * Redis's still finds the window's count instead of a fresh key. Windows are decided by the
 * key name, never by the expiry, so the grace cannot extend a quota.
 */
export const EXPIRY_GRACE_SECONDS = 60;

export type RateLimitOnStoreError = 'closed' | 'open';

export interface RateLimiterOptions {
  store: RateLimitStore;
  /** Decides the window; the same clock the rest of the request uses. */
  clock: Clock;
  /**
   * `closed` (default): a store failure throws {@link RateLimitStoreUnavailable} and the edge
   * answers 503. `open`: the request is allowed and the decision says `degraded: true`.
   */
  onStoreError?: RateLimitOnStoreError;
  /** Policy table; defaults to SPEC §3's. */
  policies?: Readonly<Record<RateLimitPolicyName, RateLimitPolicy>>;
}

export interface RateLimitHeaders {
  'RateLimit-Policy': string;
  RateLimit: string;
}

interface DecisionBase {
  policy: RateLimitPolicyName;
  limit: number;
  /** Start of the next window, ISO-8601 UTC. */
  reset_at: string;
}

/** The store counted the request. */
export interface CountedDecision extends DecisionBase {
  degraded: false;
  allowed: boolean;
  /** Requests counted in this window, this one and refused ones included. */
  used: number;
  remaining: number;
  /** Seconds until the window resets when refused (the `Retry-After` value); 0 when allowed. */
  retry_after_s: number;
  headers: RateLimitHeaders;
}

/** The store failed and the limiter fails open: served uncounted; the caller logs `error`. */
export interface DegradedDecision extends DecisionBase {
  degraded: true;
  allowed: true;
  retry_after_s: 0;
  /** Only the policy header: the remaining count is unknown, so none is claimed. */
  headers: Pick<RateLimitHeaders, 'RateLimit-Policy'>;
  error: RateLimitStoreUnavailable;
}

export type RateLimitDecision = CountedDecision | DegradedDecision;

export interface RateLimitUsage {
  key_id: string;
  limit: number;
  /** Requests counted in this window, refused ones included (the sum of `by_action`). */
  used: number;
  remaining: number;
  window: RateLimitPolicy['window'];
  resets_at: string;
  by_action: Record<string, number>;
}

export class RateLimiter {
  readonly #store: RateLimitStore;
  readonly #clock: Clock;
  readonly #onStoreError: RateLimitOnStoreError;
  readonly #policies: Readonly<Record<RateLimitPolicyName, RateLimitPolicy>>;

  constructor(options: RateLimiterOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#onStoreError = options.onStoreError ?? 'closed';
    this.#policies = options.policies ?? RATE_LIMIT_POLICIES;
  }

  /** Counts one request of `keyId` under `policyName`; `action` feeds the usage report's tally. */
  async consume(keyId: string, policyName: RateLimitPolicyName, action?: string): Promise<RateLimitDecision> {
    const policy = this.#policies[policyName];
    const window = windowAt(policy, this.#clock.now());
    try {
      const hit = await this.#store.hit(
        policy.counterKey(keyId, window.now),
        window.secondsToReset + EXPIRY_GRACE_SECONDS,
        action,
      );
      return counted(policy, window, hit.count);
    } catch (error) {
      if (error instanceof RateLimitStoreUnavailable && this.#onStoreError === 'open') {
        return degraded(policy, window, error);
      }
      throw error;
    }
  }

  /**
   * The current window's usage without counting (the lender `usage` action). A store failure
   * throws in both modes: there is no honest report to give.
   */
  async usage(keyId: string, policyName: RateLimitPolicyName = 'lender'): Promise<RateLimitUsage> {
    const policy = this.#policies[policyName];
    const window = windowAt(policy, this.#clock.now());
    const peek = await this.#store.peek(policy.counterKey(keyId, window.now));
    return {
      key_id: keyId,
      limit: policy.limit,
      used: peek.count,
      remaining: Math.max(0, policy.limit - peek.count),
      window: policy.window,
      resets_at: window.resetAt.toISOString(),
      by_action: peek.by_action,
    };
  }
}

interface Window {
  now: Date;
  resetAt: Date;
  /** Whole seconds to the reset, rounded up, so never 0 inside a window. */
  secondsToReset: number;
}

function windowAt(policy: RateLimitPolicy, now: Date): Window {
  const resetAt = policy.resetAt(now);
  return { now, resetAt, secondsToReset: Math.ceil((resetAt.getTime() - now.getTime()) / 1000) };
}

function counted(policy: RateLimitPolicy, window: Window, count: number): CountedDecision {
  const allowed = count <= policy.limit;
  const remaining = Math.max(0, policy.limit - count);
  return {
    degraded: false,
    policy: policy.name,
    allowed,
    limit: policy.limit,
    used: count,
    remaining,
    reset_at: window.resetAt.toISOString(),
    retry_after_s: allowed ? 0 : window.secondsToReset,
    headers: {
      'RateLimit-Policy': rateLimitPolicyHeader(policy),
      RateLimit: rateLimitHeader(policy, remaining, window.secondsToReset),
    },
  };
}

function degraded(
  policy: RateLimitPolicy,
  window: Window,
  error: RateLimitStoreUnavailable,
): DegradedDecision {
  return {
    degraded: true,
    policy: policy.name,
    allowed: true,
    limit: policy.limit,
    reset_at: window.resetAt.toISOString(),
    retry_after_s: 0,
    headers: { 'RateLimit-Policy': rateLimitPolicyHeader(policy) },
    error,
  };
}
