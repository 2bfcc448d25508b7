/**
 * The one error handler: every failure becomes an RFC 9457 problem (SPEC §2). Expected failures
 * are ProblemErrors; store and conflict failures map to 503 / 409; anything else is a 500 whose
 * body says nothing about the code (the log has the stack, under the request id).
 */
import type { ErrorRequestHandler, Request, Response } from 'express';
import { ConflictRetriesExhausted, LedgerIntegrityFailure, StoreUnavailable } from '../ledger/errors.js';
import type { Logger } from '../log.js';
import { ctxOf } from './context.js';
import { bodyParserProblem } from './middleware.js';
import { ProblemError, problemBody } from './problem.js';
import { IdempotencyStoreUnavailable } from './idempotency.js';
import { RateLimitStoreUnavailable } from '../rate-limit/index.js';

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
    return new ProblemError('CONFLICT', 'the ledger head kept moving under this command; retry it');
  }
  if (error instanceof LedgerIntegrityFailure) {
    return new ProblemError('LEDGER_INTEGRITY', `${error.message}; reads go on (see /readyz)`, {
      reason: error.reason,
      first_bad_seq: error.firstBadSeq,
    });
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
