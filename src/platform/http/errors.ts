/**
 * The one error handler: every failure becomes an RFC 9457 problem (SPEC §2). Expected failures
 * are ProblemErrors; store and conflict failures map to 503 / 409; anything else is a 500 whose
 * body says nothing about the code (the log has the stack, under the request id).
 */
import type { ErrorRequestHandler, Request, Response } from 'express';
import {
  AppendTooLarge,
  ConflictRetriesExhausted,
  LedgerIntegrityFailure,
  StoreAccessDenied,
  StoreNotLeader,
  StoreUnavailable,
} from '../ledger/errors.js';
import type { Logger } from '../log.js';
import { ReadModelsDamaged } from '../projections/read-model-damage.js';
import { ctxOf } from './context.js';
import { bodyParserProblem } from './middleware.js';
import { ProblemError, problemBody } from './problem.js';
import { IdempotencyStoreUnavailable } from './idempotency.js';
import { RateLimitStoreUnavailable } from '../rate-limit/index.js';

/** res.locals flag: this answer may change on retry, so it is never remembered for replay. */
export const TRANSIENT_ANSWER = 'plumbline_transient_answer';

export function toProblem(error: unknown): ProblemError | null {
  if (error instanceof ProblemError) return error;
  const fromParser = bodyParserProblem(error);
  if (fromParser) return fromParser;
  // The router could not percent-decode a path parameter (`/api/projects/%E0%A4%A`).
  if (error instanceof URIError) {
    return new ProblemError('INVALID_REQUEST', 'the path is not valid percent-encoded UTF-8', {
      errors: [{ path: 'path', code: 'invalid_encoding', message: 'malformed percent-encoding' }],
    });
  }
  if (error instanceof ConflictRetriesExhausted) {
    // Transient: Retry-After says when, and so the idempotency layer never replays it.
    return new ProblemError(
      'CONFLICT',
      'the ledger head kept moving under this command; retry it',
      {},
      { 'Retry-After': '1' },
    );
  }
  if (error instanceof AppendTooLarge) {
    return new ProblemError('PAYLOAD_TOO_LARGE', `${error.message}; split the request`, {
      reason: error.type,
      max_append_bytes: error.maxBytes,
    });
  }
  if (error instanceof StoreNotLeader) {
    return new ProblemError(
      'UNAVAILABLE',
      'the ledger store is changing leader; try again shortly',
      { reason: error.type },
      { 'Retry-After': '1' },
    );
  }
  if (error instanceof StoreAccessDenied) {
    return new ProblemError(
      'INTERNAL',
      'the ledger store refused this service; an operator must fix its access',
      {
        reason: error.type,
      },
    );
  }
  if (error instanceof LedgerIntegrityFailure) {
    return new ProblemError('LEDGER_INTEGRITY', `${error.message}; reads go on (see /readyz)`, {
      reason: error.reason,
      first_bad_seq: error.firstBadSeq,
    });
  }
  if (error instanceof ReadModelsDamaged) {
    return new ProblemError(
      'READ_MODELS_DAMAGED',
      'this node found its read models damaged: this answer cannot be given from them, and appends are suspended until an operator restarts it, which rebuilds them from the ledger (the ledger is intact; see /readyz)',
      { reason: error.damage.code },
    );
  }
  if (
    error instanceof StoreUnavailable ||
    error instanceof IdempotencyStoreUnavailable ||
    error instanceof RateLimitStoreUnavailable
  ) {
    return new ProblemError(
      'UNAVAILABLE',
      'a backing store is unavailable; try again shortly',
      {},
      { 'Retry-After': '5' },
    );
  }
  return null;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    answerError(logger, error, req, res);
  };
}

/** Logs a failure under the request id and answers it as problem+json (500 when unexpected). */
export function answerError(logger: Logger, error: unknown, req: Request, res: Response): void {
  const ctx = ctxOf(req);
  let problem = toProblem(error);
  if (!problem) {
    logger.error('unhandled error', {
      request_id: ctx.request_id,
      error:
        error instanceof Error
          ? { name: error.name, message: error.message, stack: error.stack }
          : String(error),
    });
    problem = new ProblemError(
      'INTERNAL',
      `an internal error occurred; quote request id ${ctx.request_id} to support`,
    );
  } else if (error instanceof StoreAccessDenied) {
    logger.error('ledger store access denied: check EVENTSTORE_URL credentials and stream ACLs', {
      request_id: ctx.request_id,
      cause: error.message,
    });
  } else if (error instanceof StoreNotLeader) {
    logger.warn('ledger store node is not the leader; the client reconnects to the leader', {
      request_id: ctx.request_id,
      leader: error.leader,
    });
  } else if (error instanceof AppendTooLarge) {
    logger.warn('append over the ledger store maximum append size', {
      request_id: ctx.request_id,
      bytes: error.bytes,
      max_bytes: error.maxBytes,
    });
  } else if (problem.status >= 500) {
    logger.warn('service degraded', {
      request_id: ctx.request_id,
      code: problem.code,
      cause: error instanceof Error ? error.message : String(error),
    });
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  res.status(problem.status);
  // A problem with Retry-After is transient: the idempotency layer must not replay it.
  if (problem.headers['Retry-After'] !== undefined) res.locals[TRANSIENT_ANSWER] = true;
  for (const [name, value] of Object.entries(problem.headers) as [string, string | undefined][]) {
    if (value !== undefined) res.set(name, value);
  }
  res.type('application/problem+json');
  res.send(
    JSON.stringify(
      problemBody(
        problem,
        req.originalUrl.split('?')[0] ?? req.path,
        ctx.request_id,
        ctx.surface === 'lender',
      ),
    ),
  );
}
