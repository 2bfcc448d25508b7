/**
 * Signs every authenticated response (SPEC §2): `Content-Digest` over the exact body bytes and
 * `Plumbline-Signature` with the key's signing secret: v1 over the body, v2 also over the method,
 * request target, status and Request-Id. It replaces `res.send` on the app's response prototype,
 * which every response path (json, problem, buffers, replays) goes through, so no route can forget
 * it.
 *
 * A text body (`res.json`, a problem, a page) is written here directly when Express's `send` would
 * do nothing more than set its length and charset (issue 19 item 3): its content type is one of a
 * known few, no ETag is generated, and the answer is no HEAD, 204, 205 or 304 and not a
 * conditional GET. It is then encoded to UTF-8 once, that one buffer is digested for both headers
 * and sent. Anything else (buffers, other types, conditional requests) goes through Express's `send`.
 */
import type { Express, Response } from 'express';
import type { Clock } from '../clock.js';
import { signatureHeaders } from '../crypto/signing.js';
import { authIfAny } from './context.js';

export type SigningSecretFor = (keyId: string) => string;

/**
 * The content types of text bodies this writer sends (`res.json`'s, the problem handler's, pages'),
 * each with what `res.send` makes of it: Express's `setCharset(type, 'utf-8')`, to which a spec holds
 * this table.
 */
export const UTF8_TYPES: ReadonlyMap<string, string> = new Map([
  ['application/json; charset=utf-8', 'application/json; charset=utf-8'],
  ['application/problem+json', 'application/problem+json; charset=utf-8'],
  ['application/problem+json; charset=utf-8', 'application/problem+json; charset=utf-8'],
  ['text/html; charset=utf-8', 'text/html; charset=utf-8'],
]);

/** Whether Express's `send` of a string would only set Content-Length and end (see the header). */
function plainText(res: Response): boolean {
  const status = res.statusCode;
  if (status === 204 || status === 205 || status === 304) return false;
  const req = res.req;
  if (req.method === 'HEAD') return false;
  // `req.fresh` can only turn a GET into a 304 when it asks conditionally.
  const headers = req.headers;
  if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) return false;
  if (res.getHeader('transfer-encoding') !== undefined) return false;
  return typeof res.app.get('etag fn') !== 'function' || res.getHeader('etag') !== undefined;
}

/** The content type `res.send` would give a text body, when this writer knows it; else undefined. */
function utf8Type(res: Response): string | undefined {
  const type = res.getHeader('content-type');
  return typeof type === 'string' ? UTF8_TYPES.get(type) : undefined;
}

export function signResponses(app: Express, clock: Clock, secretFor: SigningSecretFor): void {
  const send = app.response.send;
  const sign = (res: Response, body: Buffer | string): void => {
    const auth = authIfAny(res.req);
    if (!auth) return;
    const req = res.req;
    const t = Math.floor(clock.now().getTime() / 1000);
    const binding = {
      method: req.method,
      target: req.originalUrl,
      status: res.statusCode,
      requestId: String(res.getHeader('request-id') ?? ''),
    };
    const headers = signatureHeaders({ secret: secretFor(auth.key_id), kid: auth.key_id, body, t, binding });
    res.setHeader('Plumbline-Signature', headers['Plumbline-Signature']);
    res.setHeader('Content-Digest', headers['Content-Digest']);
  };
  app.response.send = function signedSend(this: Response, body?: unknown): Response {
    const type = typeof body === 'string' ? utf8Type(this) : undefined;
    if (type !== undefined && plainText(this)) {
      if (type !== this.getHeader('content-type')) this.setHeader('Content-Type', type);
      const bytes = Buffer.from(body as string, 'utf8');
      sign(this, bytes);
      this.setHeader('Content-Length', String(bytes.length));
      this.end(bytes);
      return this;
    }
    if (typeof body === 'string' || Buffer.isBuffer(body)) sign(this, body);
    return send.call(this, body);
  };
}
