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

/** A place taken in a window, to give back with {@link RateLimiter.release} if the call is not served. */
export interface QuotaReservation {
  counter_key: string;
  action: string | undefined;
}

/** The store counted the request. */
export interface CountedDecision extends DecisionBase {
  degraded: false;
  allowed: boolean;
  /** Places taken in this window, this one included when allowed; refused calls never count. */
  used: number;
  /** Set when allowed: the place this call holds until it is served or released. */
  reservation: QuotaReservation | null;
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
  /** Calls served in this window (the sum of `by_action`); refused and released calls do not count. */
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

  /**
   * Reserves one place for a request of `keyId` under `policyName` (atomic check-and-increment);
   * `action` feeds the usage report's tally. A refused call takes no place.
   */
  async consume(keyId: string, policyName: RateLimitPolicyName, action?: string): Promise<RateLimitDecision> {
    const policy = this.#policies[policyName];
    const window = windowAt(policy, this.#clock.now());
    const counterKey = policy.counterKey(keyId, window.now);
    try {
      const taken = await this.#store.reserve(
        counterKey,
        window.secondsToReset + EXPIRY_GRACE_SECONDS,
        policy.limit,
        action,
      );
      return counted(
        policy,
        window,
        taken.count,
        taken.reserved ? { counter_key: counterKey, action } : null,
      );
    } catch (error) {
      if (error instanceof RateLimitStoreUnavailable && this.#onStoreError === 'open') {
        return degraded(policy, window, error);
      }
      throw error;
    }
  }

  /** Gives back the place of a call that was not served (SPEC §3: only served calls count). */
  async release(reservation: QuotaReservation): Promise<void> {
    await this.#store.release(reservation.counter_key, reservation.action);
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

function counted(
  policy: RateLimitPolicy,
  window: Window,
  count: number,
  reservation: QuotaReservation | null,
): CountedDecision {
  const allowed = reservation !== null;
  const remaining = Math.max(0, policy.limit - count);
  return {
    degraded: false,
    policy: policy.name,
    allowed,
    limit: policy.limit,
    used: count,
    reservation,
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
