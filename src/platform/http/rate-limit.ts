/**
 * Rate limiting at the edge (SPEC §3): reserves the request's place, sets the RateLimit headers,
 * and answers 429 when the window is spent or 503 when the counter store is down and the policy
 * fails closed. A call that is not served (any non-2xx outcome, or a connection closed before the
 * answer) gives its place back, so only served calls count (issue 13 item 6).
 */
import type { RequestHandler, Response } from 'express';
import type { Logger } from '../log.js';
import {
  RateLimitStoreUnavailable,
  type QuotaReservation,
  type RateLimiter,
  type RateLimitPolicyName,
} from '../rate-limit/index.js';
import { authOf, ctxOf } from './context.js';
import { ProblemError } from './problem.js';

export interface RateLimitMetrics {
  rejected(policy: RateLimitPolicyName): void;
}

/** Reserves one request's place; returns normally when admitted, throws a ProblemError when not. */
export async function countRequest(
  limiter: RateLimiter,
  res: Response,
  keyId: string,
  policy: RateLimitPolicyName,
  action: string | undefined,
  logger: Logger,
  metrics: RateLimitMetrics,
  requestId: string,
): Promise<void> {
  let decision;
  try {
    decision = await limiter.consume(keyId, policy, action);
  } catch (error) {
    if (error instanceof RateLimitStoreUnavailable) {
      logger.error('rate-limit store unavailable; failing closed', { request_id: requestId });
      throw new ProblemError(
        'UNAVAILABLE',
        'the rate-limit store is unreachable; try again shortly',
        {},
        { 'Retry-After': '5' },
      );
    }
    throw error;
  }
  res.set(decision.headers);
  if (decision.degraded) {
    logger.error('rate-limit store unavailable; serving uncounted (fail open)', { request_id: requestId });
    return;
  }
  if (decision.reservation) releaseUnlessServed(limiter, res, decision.reservation, logger, requestId);
  if (!decision.allowed) {
    metrics.rejected(policy);
    throw new ProblemError(
      'RATE_LIMITED',
      `the ${decision.policy === 'lender' ? 'daily' : 'per-minute'} quota of ${decision.limit} requests is spent`,
      { limit: decision.limit, reset_at: decision.reset_at },
      { 'Retry-After': String(decision.retry_after_s) },
    );
  }
}

/** Gives the place back when the response ends other than 2xx, or the connection closes first. */
function releaseUnlessServed(
  limiter: RateLimiter,
  res: Response,
  reservation: QuotaReservation,
  logger: Logger,
  requestId: string,
): void {
  let settled = false;
  const settle = (served: boolean): void => {
    if (settled) return;
    settled = true;
    if (served) return;
    limiter.release(reservation).catch((error: unknown) => {
      logger.warn('could not release the quota place of a call not served', {
        request_id: requestId,
        error: error instanceof Error ? error.message : String(error),
      });
    });
  };
  res.once('finish', () => settle(res.statusCode >= 200 && res.statusCode < 300));
  res.once('close', () => settle(false));
}

/** Middleware form for routes whose policy does not depend on the body. */
export function rateLimit(
  limiter: RateLimiter,
  policy: RateLimitPolicyName,
  logger: Logger,
  metrics: RateLimitMetrics,
): RequestHandler {
  return async (req, res, next) => {
    await countRequest(
      limiter,
      res,
      authOf(req).key_id,
      policy,
      undefined,
      logger,
      metrics,
      ctxOf(req).request_id,
    );
    next();
  };
}
