/**
 * `/api/lender-credit?action=…` (SPEC §4). No action → discovery (public, free). Otherwise the key
 * is checked, the action looked up, the request counted (except `usage`), the body parsed, and the
 * action's handler answers with `ok: true`.
 */
import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { authenticate } from '../platform/http/auth.js';
import { authOf, ctxOf } from '../platform/http/context.js';
import { idempotent } from '../platform/http/idempotent.js';
import { jsonBody } from '../platform/http/middleware.js';
import { ProblemError } from '../platform/http/problem.js';
import { countRequest } from '../platform/http/rate-limit.js';
import type { Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { defineAction, type LenderAction } from './actions.js';
import { discoveryDocument } from './discovery.js';

export const LENDER_PATH = '/api/lender-credit';

/**
 * Runs one middleware inside a handler (the action decides whether auth, body parsing and
 * idempotency apply). `false` when it passed the request on, `true` when it answered the request
 * itself (a replay); throws whatever it failed with. A middleware that settles synchronously (auth,
 * a bodiless request) is answered at once, with no promise or listener; otherwise a promise of the
 * same. `finish` never fires inside the call (it follows the socket write), so a listener added
 * after a call that has not passed on still sees the answer.
 */
function runMiddleware(mw: RequestHandler, req: Request, res: Response): boolean | Promise<boolean> {
  const run = new MiddlewareRun();
  try {
    const returned: unknown = mw(req, res, (err?: unknown) => run.settle(err ? err : null));
    if (typeof (returned as PromiseLike<unknown> | undefined)?.then === 'function')
      Promise.resolve(returned).catch((error: unknown) =>
        run.settle(error ?? new Error('middleware failed')),
      );
  } catch (error) {
    run.settle(error ?? new Error('middleware failed'));
  }
  const now = run.settled;
  if (now !== null) {
    if (now.error !== null) throw asError(now.error);
    return false;
  }
  return run.outcome(res);
}

/**
 * One `runMiddleware` call's state. Its callbacks are methods and member assignments rather than
 * `const f = () => …` closures: under tsx (`npm start`, the benches) each named closure made per
 * request also costs a `defineProperty` of its name (~0.35 µs; issue 19 item 3).
 */
class MiddlewareRun {
  /** Set at the first settlement; later calls are ignored. */
  settled: { error: unknown } | null = null;
  #onSettled: ((error: unknown) => void) | null = null;
  #answered: () => void = nothing;

  settle(error: unknown): void {
    if (this.settled !== null) return;
    this.settled = { error };
    this.#onSettled?.(error);
  }

  /** A middleware still running: `true` once the response finishes first (it answered itself). */
  outcome(res: Response): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.#answered = () => {
        if (this.settled !== null) return;
        this.settled = { error: null };
        resolve(true);
      };
      this.#onSettled = (error) => {
        res.off('finish', this.#answered);
        if (error !== null) reject(asError(error));
        else resolve(false);
      };
      if (res.writableFinished) this.#answered();
      else res.once('finish', this.#answered);
    });
  }
}

function nothing(): void {}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error('middleware failed', { cause: error });
}

const ActionQuery = z.object({ action: z.string().min(1).max(64).optional() }).loose();

export function usageAction(s: Service): LenderAction {
  return defineAction({
    name: 'usage',
    description: 'Usage and rate-limit status of the calling key for the current UTC day (does not count).',
    body_doc: null,
    schema: z.union([z.undefined(), z.strictObject({})]),
    counted: false,
    async handle(req) {
      const auth = authOf(req);
      const usage = await s.limiter.usage(auth.key_id, 'lender');
      return {
        key_id: auth.key_id,
        org_id: auth.org_id,
        limit: usage.limit,
        used: usage.used,
        remaining: usage.remaining,
        window: 'UTC day',
        resets_at: usage.resets_at,
        by_action: usage.by_action,
      };
    },
  });
}

export function mountLenderApi(s: Service, actions: readonly LenderAction[]): void {
  const table = new Map(actions.map((a) => [a.name, a]));
  const auth = authenticate(s.resolveKey, { scope: 'credit:read' });
  const body = jsonBody();
  const idempotency = idempotent(s.idempotency);

  const handle = async (req: Request, res: Response): Promise<void> => {
    // The usual query (one short `action`) needs no schema run; anything else gets its answer from it.
    const query = req.query as Record<string, unknown>;
    const name =
      typeof query.action === 'string' && query.action.length >= 1 && query.action.length <= 64
        ? query.action
        : parseWith(ActionQuery, query, 'query').action;
    if (name === undefined) {
      res.json({
        ...discoveryDocument(actions),
        // Pin this key to check receipts and checkpoints without trusting the server.
        transparency_log: {
          origin: s.tlog.origin,
          verifier_key: s.tlog.verifierKey,
          checkpoint: '/tlog/checkpoint',
          receipt: '/api/ledger/receipt?hash=<event hash>',
          documentation: 'docs/transparency-log.md',
        },
      });
      return;
    }
    if (req.method !== 'POST') {
      throw new ProblemError('METHOD_NOT_ALLOWED', 'lender actions are POST requests', {}, { Allow: 'POST' });
    }
    const authenticated = runMiddleware(auth, req, res);
    if (authenticated !== false) await authenticated;
    const action = table.get(name);
    if (!action) {
      throw new ProblemError(
        'INVALID_REQUEST',
        `unknown action "${name}"; one of: ${[...table.keys()].join(', ')}`,
        {
          errors: [
            {
              path: 'action',
              code: 'invalid_value',
              message: `expected one of ${[...table.keys()].join(', ')}`,
            },
          ],
        },
      );
    }
    const count = (): Promise<void> =>
      countRequest(
        s.limiter,
        res,
        authOf(req).key_id,
        'lender',
        action.name,
        s.logger,
        s.metrics,
        ctxOf(req).request_id,
      );
    // A call that may be a replay (an appending action with an Idempotency-Key) is counted only
    // once the idempotency layer has not answered it: a replay is the first call's answer again,
    // already counted, so a client retrying a lost answer spends one place, not two (and gets its
    // answer even once the day's quota is spent). A refused count is not remembered for replay
    // (429 and 503 carry Retry-After). Any other call is counted before its body is read.
    const replayable = action.appends === true && req.get('idempotency-key') !== undefined;
    if (action.counted && !replayable) await count();
    const read = runMiddleware(body, req, res);
    if (read !== false) await read;
    // An appending action honours Idempotency-Key: a replay is answered by the middleware itself.
    if (action.appends && (await runMiddleware(idempotency, req, res))) return;
    if (action.counted && replayable) await count();
    const parsed: unknown = parseWith(action.schema, req.body);
    const result = await action.handle(req, parsed);
    res.json({ ok: true, ...result });
  };

  s.routes.add('GET', LENDER_PATH, handle);
  s.routes.add('POST', LENDER_PATH, handle);
}
