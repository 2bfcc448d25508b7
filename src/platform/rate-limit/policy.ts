/**
 * Quota policies (SPEC §3): which window a hit falls in, its counter key, and when it resets.
 * Windows are fixed UTC calendar periods computed from the injected clock, so every node and
 * every test agrees on the boundary regardless of what Redis's TTL says.
 */

export type RateLimitPolicyName = 'lender' | 'project';

export interface RateLimitPolicy {
  readonly name: RateLimitPolicyName;
  /** The policy's name in the `RateLimit` and `RateLimit-Policy` headers. */
  readonly label: 'daily' | 'minute';
  /** Counted requests allowed per key per window. */
  readonly limit: number;
  /** Window length, the `w=` of `RateLimit-Policy`. */
  readonly windowSeconds: number;
  /** How the usage report names the window. */
  readonly window: 'UTC day' | 'UTC minute';
  /** Counter key of the window containing `at`. */
  counterKey(keyId: string, at: Date): string;
  /** Start of the window after the one containing `at`. */
  resetAt(at: Date): Date;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function utcDayStamp(at: Date): string {
  return `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}`;
}

/** Lender credit API and PDF: 100 per key per UTC calendar day, key `rl:<key_id>:<YYYYMMDD>`. */
export const LENDER_DAILY_POLICY: RateLimitPolicy = {
  name: 'lender',
  label: 'daily',
  limit: 100,
  windowSeconds: 86_400,
  window: 'UTC day',
  counterKey: (keyId, at) => `rl:${keyId}:${utcDayStamp(at)}`,
  resetAt: (at) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1)),
};

/** Project governance and ledger API: 600 per key per UTC minute, key `rl:<key_id>:m:<YYYYMMDDHHMM>`. */
export const PROJECT_MINUTE_POLICY: RateLimitPolicy = {
  name: 'project',
  label: 'minute',
  limit: 600,
  windowSeconds: 60,
  window: 'UTC minute',
  counterKey: (keyId, at) =>
    `rl:${keyId}:m:${utcDayStamp(at)}${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}`,
  resetAt: (at) => new Date(Math.floor(at.getTime() / 60_000) * 60_000 + 60_000),
};

export const RATE_LIMIT_POLICIES: Readonly<Record<RateLimitPolicyName, RateLimitPolicy>> = {
  lender: LENDER_DAILY_POLICY,
  project: PROJECT_MINUTE_POLICY,
};

/** `"daily";q=100;w=86400` */
export function rateLimitPolicyHeader(policy: RateLimitPolicy): string {
  return `"${policy.label}";q=${policy.limit};w=${policy.windowSeconds}`;
}

/** `"daily";r=<remaining>;t=<seconds to reset>` */
export function rateLimitHeader(policy: RateLimitPolicy, remaining: number, secondsToReset: number): string {
  return `"${policy.label}";r=${remaining};t=${secondsToReset}`;
}
