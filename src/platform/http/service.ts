/**
 * What every capability's routes are given: the platform pieces (ledger, read models, clock,
 * limiter, idempotency, logger, metrics) and the route table, plus guards that put a route behind
 * authentication, its rate-limit policy, JSON body parsing and Idempotency-Key handling.
 */
import type { RequestHandler } from 'express';
import type { Clock } from '../clock.js';
import type { ApiKeyScope } from '../crypto/api-key.js';
import type { BackgroundVerifier } from '../ledger/background-verifier.js';
import type { Ledger } from '../ledger/ledger.js';
import type { Logger } from '../log.js';
import type { ProjectionRuntime } from '../projections/runtime.js';
import type { RateLimiter } from '../rate-limit/index.js';
import { authenticate, type KeyResolver } from './auth.js';
import type { IdempotencyStore } from './idempotency.js';
import { idempotent } from './idempotent.js';
import type { HttpMetrics } from './metrics.js';
import { BULK_BODY_LIMIT, jsonBody } from './middleware.js';
import { rateLimit } from './rate-limit.js';
import type { RouteTable } from './routes.js';
import type { TransparencyLog } from '../tlog/log.js';

export interface Service {
  clock: Clock;
  ledger: Ledger;
  runtime: ProjectionRuntime;
  limiter: RateLimiter;
  idempotency: IdempotencyStore;
  logger: Logger;
  metrics: HttpMetrics;
  verifier: BackgroundVerifier;
  /** The transparency log over the ledger. */
  tlog: TransparencyLog;
  /** TLOG_PUBLIC=1: the log's read routes answer without a key. */
  tlogPublic: boolean;
  resolveKey: KeyResolver;
  routes: RouteTable;
  /** Base of absolute URLs the API hands out (badge links). */
  publicBaseUrl: string;
  /** Where the service keeps files beside the ledger (imports, payment instructions). */
  dataDir: string;
  /** HMAC key of short-lived signed links (derived from the server signing key, never it). */
  linkKey: Buffer;
}

export interface GuardOptions {
  /** A POST that appends: parses JSON and honours Idempotency-Key. */
  appends?: boolean;
  /** A POST that only reads (JSON body, no idempotency). */
  body?: boolean;
  bulk?: boolean;
}

/** Project-governance and ingestion routes: Bearer auth, 600/min, optional body handling. */
export function projectGuard(s: Service, scope: ApiKeyScope, opts: GuardOptions = {}): RequestHandler[] {
  const chain: RequestHandler[] = [
    authenticate(s.resolveKey, { scope, bearerChallenge: true }),
    rateLimit(s.limiter, 'project', s.logger, s.metrics),
  ];
  if (opts.appends || opts.body) chain.push(jsonBody(opts.bulk ? BULK_BODY_LIMIT : undefined));
  if (opts.appends) chain.push(idempotent(s.idempotency));
  return chain;
}

/**
 * Transparency log reads: `ledger:read` or `tlog:read` (witnesses, monitors), or nobody's key at
 * all with TLOG_PUBLIC=1; counted on the per-minute policy like the project API.
 */
export function tlogGuard(s: Service): RequestHandler[] {
  if (s.tlogPublic) return [];
  return [
    authenticate(s.resolveKey, { scope: ['ledger:read', 'tlog:read'], bearerChallenge: true }),
    rateLimit(s.limiter, 'project', s.logger, s.metrics),
  ];
}

/** Ledger read routes (`ledger:read`), counted on the per-minute policy like the project API. */
export function ledgerGuard(s: Service): RequestHandler[] {
  return [
    authenticate(s.resolveKey, { scope: 'ledger:read', bearerChallenge: true }),
    rateLimit(s.limiter, 'project', s.logger, s.metrics),
  ];
}
