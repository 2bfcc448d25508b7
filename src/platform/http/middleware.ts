/**
 * Middleware every request passes: request id, version and cache headers, structured access log
 * with redacted URLs, JSON bodies with SPEC §2 limits (413) and content-type check (415).
 */
import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { redactUrl, type Logger } from '../log.js';
import { ctxOf, setContext, type Surface } from './context.js';
import { ProblemError } from './problem.js';

export const API_VERSION = '1.0.0';
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

export const BODY_LIMIT = 256 * 1024;
export const BULK_BODY_LIMIT = 1024 * 1024;

function surfaceOf(path: string): Surface {
  if (path.startsWith('/api/lender-credit') || path.startsWith('/api/credit-report-pdf')) return 'lender';
  if (path.startsWith('/api/ledger')) return 'ledger';
  if (path.startsWith('/api/')) return 'project';
  return 'public';
}

export function requestContext(): RequestHandler {
  return (req, res, next) => {
    const offered = req.get('request-id');
    const request_id = offered && CLIENT_REQUEST_ID.test(offered) ? offered : `req_${randomUUID()}`;
    setContext(req, {
      request_id,
      surface: surfaceOf(req.path),
      started_at: performance.now(),
      auth: null,
      idempotency_key: null,
      route: null,
    });
    res.set('Request-Id', request_id);
    res.set('Plumbline-Version', API_VERSION);
    if (
      req.path.startsWith('/api/') ||
      req.path === '/readyz' ||
      req.path === '/healthz' ||
      req.path === '/metrics'
    ) {
      res.set('Cache-Control', 'no-store');
    }
    next();
  };
}

export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    res.on('finish', () => {
      const ctx = ctxOf(req);
      logger.info('request', {
        request_id: ctx.request_id,
        method: req.method,
        url: redactUrl(req.originalUrl),
        status: res.statusCode,
        ms: Math.round((performance.now() - ctx.started_at) * 10) / 10,
        key_id: ctx.auth?.key_id,
      });
    });
    next();
  };
}

function hasBody(req: Request): boolean {
  const length = req.get('content-length');
  if (length !== undefined) return Number(length) > 0;
  return req.get('transfer-encoding') !== undefined;
}

/**
 * Parses a JSON body. No body → `req.body` undefined (actions with optional bodies); a body that is
 * not `application/json` → 415; over `limit` → 413; malformed JSON → 400.
 */
export function jsonBody(limit = BODY_LIMIT): RequestHandler {
  const parse = express.json({ limit, strict: false, type: () => true });
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD' || !hasBody(req)) {
      req.body = undefined;
      next();
      return;
    }
    if (!req.is(['application/json', 'application/*+json'])) {
      next(
        new ProblemError(
          'UNSUPPORTED_MEDIA_TYPE',
          `send the body as application/json (got ${req.get('content-type') ?? 'no content type'})`,
        ),
      );
      return;
    }
    parse(req, res, (error?: unknown) => {
      if (error) {
        next(error);
        return;
      }
      const at = loneSurrogateAt(req.body as unknown, []);
      if (at === null) {
        next();
        return;
      }
      // RFC 8785 has no canonical form for such a string, so the ledger could not hash the event.
      const message =
        'contains a lone UTF-16 surrogate (\\ud800–\\udfff unpaired), which is not valid Unicode';
      next(
        new ProblemError('INVALID_REQUEST', `the body ${message}`, {
          errors: [{ path: at.join('.'), code: 'invalid_string', message }],
        }),
      );
    });
  };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The path of the first string (value or key) of a parsed JSON body that is not valid Unicode. */
function loneSurrogateAt(value: unknown, path: (string | number)[]): (string | number)[] | null {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = loneSurrogateAt(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (LONE_SURROGATE.test(key)) return [...path, key];
    const found = loneSurrogateAt(inner, [...path, key]);
    if (found) return found;
  }
  return null;
}

/** Maps body-parser failures to the SPEC §2 vocabulary. */
export function bodyParserProblem(error: unknown): ProblemError | null {
  const type = (error as { type?: unknown }).type;
  switch (type) {
    case 'entity.too.large': {
      const limit = (error as { limit?: number }).limit ?? BODY_LIMIT;
      return new ProblemError(
        'PAYLOAD_TOO_LARGE',
        `the body is larger than ${Math.round(limit / 1024)} KiB`,
        { limit_bytes: limit },
      );
    }
    case 'entity.parse.failed':
      return new ProblemError('INVALID_REQUEST', 'the body is not valid JSON', {
        errors: [{ path: '', code: 'invalid_json', message: 'could not parse the body as JSON' }],
      });
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new ProblemError('UNSUPPORTED_MEDIA_TYPE', 'unsupported body encoding or charset');
    case 'request.aborted':
      return new ProblemError('INVALID_REQUEST', 'the request was aborted before its body arrived');
    default:
      return null;
  }
}
