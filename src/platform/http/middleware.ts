/**
 * Middleware every request passes: request id, version and cache headers, structured access log
 * with redacted URLs, JSON bodies with SPEC §2 limits (413), a nesting limit (MAX_JSON_DEPTH, 400)
 * and content-type check (415).
 */
import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { redactUrl, type Logger } from '../log.js';
import { ctxOf, setContext, type Surface } from './context.js';
import { depthBeyond, MAX_JSON_DEPTH } from './json-depth.js';
import { stepOutWhileReading } from './admission.js';
import { ProblemError } from './problem.js';
import { bindRequestScope, runInRequestScope } from './scope.js';

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
    // Express parses `req.path` from the URL on each read: read once. Plain setHeader: these values
    // are strings that need none of `res.set`'s content-type handling.
    const path = req.path;
    setContext(req, {
      request_id,
      surface: surfaceOf(path),
      started_at: performance.now(),
      auth: null,
      idempotency_key: null,
      idempotency_request_hash: null,
      route: null,
    });
    res.setHeader('Request-Id', request_id);
    res.setHeader('Plumbline-Version', API_VERSION);
    // /tlog too: a tile or bundle not there yet answers 404, which a shared cache may keep (RFC 9111
    // §4.2.2) past the moment it fills. A tile that exists sets its own (immutable when full).
    if (
      path.startsWith('/api/') ||
      path.startsWith('/tlog/') ||
      path === '/readyz' ||
      path === '/healthz' ||
      path === '/metrics'
    ) {
      res.setHeader('Cache-Control', 'no-store');
    }
    // Everything after this runs in the request's scope, so an error that escapes to the process
    // (a throw in a stream or timer callback) is still logged with the request id and answered.
    runInRequestScope({ request_id, req, res }, next);
  };
}

/**
 * Several app-wide middleware run as one Express layer, in order (issue 19 item 3): each layer of
 * Express's router costs a match, a prefix trim and a params pass per request, which for the edge's
 * six (request id, headers, metrics, log, admission, signing) was ~5 % of a cheap request. Same
 * contract as separate `app.use` calls: `next(error)` (or a throw, or a rejected promise) skips the
 * rest and goes to the error handlers; a middleware that answers without calling `next` ends it.
 */
export function chain(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let at = 0;
    const step = (error?: unknown): void => {
      if (error) {
        next(error);
        return;
      }
      const handler = handlers[at];
      at += 1;
      if (handler === undefined) {
        next();
        return;
      }
      try {
        const returned: unknown = handler(req, res, step);
        if (typeof (returned as PromiseLike<unknown> | undefined)?.then === 'function')
          (returned as Promise<unknown>).then(undefined, (e: unknown) =>
            next(e ?? new Error('middleware rejected')),
          );
      } catch (e) {
        next(e);
      }
    };
    step();
  };
}

export function accessLog(logger: Logger): RequestHandler {
  // Below the logger's level the record would be dropped: no listener, no URL redaction per request.
  if (logger.enabled?.('info') === false) return (_req, _res, next) => next();
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
  const parse = express.json({ limit, strict: false, type: () => true, verify: refuseDeepNesting });
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD' || !hasBody(req)) {
      req.body = undefined;
      next();
      return;
    }
    // The usual small body of plain JSON: read here, without body-parser's stream machinery.
    const length = plainJsonLength(req, limit);
    if (length !== null) {
      stepOutWhileReading(
        req,
        (done) => readPlainBody(req, length, bindRequestScope(done)),
        (error?: unknown, bytes?: unknown) => {
          let failure = error;
          if (!failure) {
            try {
              req.body = parsePlain(bytes as Buffer);
            } catch (e) {
              failure = e;
            }
          }
          parsed(req, next, failure);
        },
      );
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
    // body-parser calls back from the socket's stream events; bind keeps the request scope. A body
    // still on its way is awaited outside the admission gate (a slow client holds no slot).
    stepOutWhileReading(
      req,
      (done) => parse(req, res, bindRequestScope(done)),
      (error?: unknown) => parsed(req, next, error),
    );
  };
}

/** The end of either reading: the error as the SPEC §2 problem, or a body without lone surrogates. */
function parsed(req: Request, next: NextFunction, error: unknown): void {
  if (error) {
    next(bodyParserProblem(error) ?? undecodableBody(error));
    return;
  }
  const at = loneSurrogateAt(req.body as unknown);
  if (at === null) {
    next();
    return;
  }
  // RFC 8785 has no canonical form for such a string, so the ledger could not hash the event.
  const message = 'contains a lone UTF-16 surrogate (\\ud800–\\udfff unpaired), which is not valid Unicode';
  next(
    new ProblemError('INVALID_REQUEST', `the body ${message}`, {
      errors: [{ path: at.join('.'), code: 'invalid_string', message }],
    }),
  );
}

/** Content types whose body is JSON in UTF-8 as they stand (lower-cased): no charset to look up. */
const PLAIN_JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);

/**
 * The Content-Length of a body body-parser would read as it stands, or null: plain JSON in UTF-8
 * (no other charset), no Content-Encoding, a length within `limit`, on a readable socket (else
 * body-parser reads nothing). Any other body (gzip, another charset, chunked, too large: 413) is
 * body-parser's.
 */
function plainJsonLength(req: Request, limit: number): number | null {
  if ((req as { upgrade?: boolean }).upgrade === true || req.socket?.readable !== true) return null;
  const headers = req.headers;
  const type = headers['content-type'];
  if (type === undefined || !PLAIN_JSON_TYPES.has(type.toLowerCase())) return null;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return null;
  const length = Number(headers['content-length']);
  return length > 0 && length <= limit ? length : null;
}

/**
 * Reads a body of `length` bytes: at once when it is all buffered (it came with the headers), else
 * as it arrives. The HTTP parser delivers no more than Content-Length; a request that ends short or
 * is aborted fails as body-parser's does (`request.aborted`, 400).
 */
function readPlainBody(req: Request, length: number, done: (error?: unknown, bytes?: Buffer) => void): void {
  if (req.complete && req.readableLength === length) {
    done(undefined, req.read() as Buffer);
    return;
  }
  new PlainBodyRead(req, length, done).listen();
}

/**
 * A body read as it arrives. Its listeners are member assignments rather than `const f = () => …`
 * closures: under tsx (`npm start`, the benches) each named closure made per request also costs a
 * `defineProperty` of its name (~0.35 µs; issue 19 item 3).
 */
class PlainBodyRead {
  readonly #chunks: Buffer[] = [];
  #received = 0;
  readonly #onData: (chunk: Buffer) => void;
  readonly #finish: (error?: unknown) => void;
  readonly #onEnd: () => void;
  readonly #onAborted: () => void;

  constructor(
    private readonly req: Request,
    private readonly length: number,
    done: (error?: unknown, bytes?: Buffer) => void,
  ) {
    this.#onData = (chunk) => {
      this.#chunks.push(chunk);
      this.#received += chunk.length;
    };
    this.#finish = (error) => {
      this.#unlisten();
      const chunks = this.#chunks;
      if (error) done(error);
      else done(undefined, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, this.#received));
    };
    this.#onEnd = () => this.#finish(this.#received === length ? undefined : aborted(length, this.#received));
    this.#onAborted = () => this.#finish(aborted(length, this.#received));
  }

  // Plain `on`: the first of these events removes all five (`finish`), so `once`'s wrappers would
  // only add an allocation each.
  listen(): void {
    const req = this.req;
    req.on('data', this.#onData);
    req.on('end', this.#onEnd);
    req.on('aborted', this.#onAborted);
    req.on('error', this.#finish);
    req.on('close', this.#onAborted);
  }

  #unlisten(): void {
    const req = this.req;
    req.off('data', this.#onData);
    req.off('end', this.#onEnd);
    req.off('aborted', this.#onAborted);
    req.off('error', this.#finish);
    req.off('close', this.#onAborted);
  }
}

function aborted(expected: number, received: number): Error {
  return Object.assign(new Error('request aborted'), {
    type: 'request.aborted',
    status: 400,
    expected,
    received,
  });
}

/**
 * body-parser's JSON parse of a plain body: the nesting checked on the bytes, a byte-order mark
 * dropped as its UTF-8 decoder drops it, the same error types (nesting, syntax).
 */
function parsePlain(bytes: Buffer): unknown {
  refuseDeepNesting(null, null, bytes, 'utf-8');
  const text = bytes.toString('utf8');
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
  } catch (e) {
    throw Object.assign(new SyntaxError((e as Error).message), { type: 'entity.parse.failed', status: 400 });
  }
}

/**
 * body-parser hands on a read failure of the body's own bytes — a gzip, deflate or brotli stream
 * that does not decode (zlib's "incorrect header check", a truncated stream) — as a 4xx with no
 * `type`: the client's fault, answered 400 like malformed JSON instead of an unhandled 500.
 */
function undecodableBody(error: unknown): unknown {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status !== 'number' || status < 400 || status > 499) return error;
  const message = 'the body does not decode as its Content-Encoding says';
  return new ProblemError('INVALID_REQUEST', message, {
    errors: [{ path: '', code: 'invalid_encoding', message }],
  });
}

/** What body-parser's `verify` throws for a body nested deeper than MAX_JSON_DEPTH. */
class BodyTooDeep extends Error {
  readonly type = 'entity.too.deep' as const;
  constructor(readonly depth: number) {
    super(`the body nests deeper than ${MAX_JSON_DEPTH} levels`);
    this.name = 'BodyTooDeep';
  }
}

/** body-parser's `verify` hook: runs on the raw bytes before JSON.parse sees them. */
function refuseDeepNesting(_req: unknown, _res: unknown, buf: Buffer, encoding: string): void {
  const utf8 = /^utf-?8$/i.test(encoding);
  const depth = depthBeyond(utf8 ? buf : new TextDecoder(encoding).decode(buf));
  if (depth !== null) throw new BodyTooDeep(depth);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The path of the first string (value or key) of a parsed JSON body that is not valid Unicode.
 * Iterative (an explicit stack), so no body can make it overflow the call stack.
 */
function loneSurrogateAt(root: unknown): (string | number)[] | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return path;
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    // Pushed in reverse so the first offending member in document order is reported.
    const members: [string | number, unknown][] = Array.isArray(value)
      ? value.map((inner: unknown, i) => [i, inner])
      : Object.entries(value);
    for (let i = members.length - 1; i >= 0; i -= 1) {
      const [key, inner] = members[i]!;
      stack.push({ value: inner, path: [...path, key] });
    }
    for (const [key] of members)
      if (typeof key === 'string' && LONE_SURROGATE.test(key)) return [...path, key];
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
    case 'entity.too.deep': {
      const message = `nested deeper than ${MAX_JSON_DEPTH} levels of arrays/objects (MAX_JSON_DEPTH)`;
      return new ProblemError('INVALID_REQUEST', `the body is ${message}`, {
        max_depth: MAX_JSON_DEPTH,
        errors: [{ path: '', code: 'too_deep', message }],
      });
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
