/**
 * Idempotency-Key handling for appending POSTs (SPEC §2): a retry within 24 h gets the first
 * response back (`Idempotent-Replayed: true`); the same key with another body is 422. The key also
 * seeds the event ids (see command.ts), so even a lost record cannot append twice.
 */
import type { RequestHandler } from 'express';
import {
  checkIdempotency,
  idempotencyRequestHash,
  IdempotencyStoreUnavailable,
  pickReplayedHeaders,
  releaseIdempotencyKey,
  rememberResponse,
  type IdempotencyStore,
} from './idempotency.js';
import { authOf, ctxOf } from './context.js';
import { ProblemError } from './problem.js';
import { TRANSIENT_ANSWER } from './errors.js';

export function idempotent(store: IdempotencyStore): RequestHandler {
  return async (req, res, next) => {
    const key = req.get('idempotency-key');
    if (key === undefined) {
      next();
      return;
    }
    const scope = authOf(req).key_id;
    const requestHash = idempotencyRequestHash({ method: req.method, path: req.originalUrl, body: req.body });
    let check;
    try {
      check = await checkIdempotency({ store, scope, key, requestHash });
    } catch (error) {
      if (error instanceof IdempotencyStoreUnavailable)
        throw new ProblemError(
          'UNAVAILABLE',
          'the idempotency store is unreachable',
          {},
          { 'Retry-After': '5' },
        );
      throw error;
    }
    switch (check.outcome) {
      case 'invalid_key':
        throw new ProblemError('INVALID_REQUEST', 'Idempotency-Key must be 1–255 visible ASCII characters', {
          errors: [
            {
              path: 'headers.idempotency-key',
              code: 'invalid_string',
              message: 'Idempotency-Key must be 1–255 visible ASCII characters',
            },
          ],
        });
      case 'mismatch':
        throw new ProblemError(
          'IDEMPOTENCY_KEY_REUSED',
          'this Idempotency-Key was used with a different request in the last 24 hours',
        );
      case 'in_progress':
        // Retry-After makes it transient (never remembered); a retry after it gets the first answer.
        throw new ProblemError(
          'CONFLICT',
          'a request with this Idempotency-Key is still running; retry to get its answer',
          {},
          { 'Retry-After': '1' },
        );
      case 'replay':
        res
          .status(check.record.status)
          .set(check.record.headers)
          .set('Idempotent-Replayed', 'true')
          .send(check.record.body);
        return;
      case 'proceed':
        break;
    }
    ctxOf(req).idempotency_key = key;
    ctxOf(req).idempotency_request_hash = requestHash;
    // This attempt holds the key (checkIdempotency claimed it) until its answer is kept.
    let answered = false;
    const answer = (body: unknown): void => {
      if (answered) return;
      answered = true;
      // Only settled outcomes are remembered: a 5xx, or any answer with Retry-After (a 409 when
      // the ledger head kept moving), may succeed on retry.
      const transient = res.locals[TRANSIENT_ANSWER] === true;
      const kept =
        res.statusCode < 500 && !transient && typeof body === 'string'
          ? rememberResponse({
              store,
              scope,
              key,
              record: {
                request_hash: requestHash,
                status: res.statusCode,
                headers: pickReplayedHeaders(res.getHeaders()),
                body,
              },
            })
          : Promise.resolve();
      void kept.catch(() => undefined).finally(() => releaseIdempotencyKey({ store, scope, key }));
    };
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      // An object comes back here as its JSON text (res.json): answer with that.
      if (typeof body !== 'object' || body === null || Buffer.isBuffer(body)) answer(body);
      return send(body);
    };
    // The connection ended without an answer through res.send (one that bypassed it, or a client
    // gone mid-request): let go of the key, which lives in memory only, but keep listening — a
    // handler still running answers into res.send later, and that answer is remembered.
    res.on('close', () => {
      if (!answered) releaseIdempotencyKey({ store, scope, key });
    });
    next();
  };
}
