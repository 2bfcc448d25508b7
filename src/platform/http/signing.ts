/**
 * Signs every authenticated response (SPEC §2): `Content-Digest` over the exact body bytes and
 * `Plumbline-Signature` with the key's signing secret: v1 over the body, v2 also over the method,
 * request target, status and Request-Id. It wraps `res.send`, which every response
 * path (json, problem, buffers, replays) goes through, so no route can forget it.
 */
import type { RequestHandler } from 'express';
import type { Clock } from '../clock.js';
import { signatureHeaders } from '../crypto/signing.js';
import { ctxOf } from './context.js';

export type SigningSecretFor = (keyId: string) => string;

export function signResponses(clock: Clock, secretFor: SigningSecretFor): RequestHandler {
  return (req, res, next) => {
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      const auth = ctxOf(req).auth;
      if (auth && (typeof body === 'string' || Buffer.isBuffer(body))) {
        const t = Math.floor(clock.now().getTime() / 1000);
        const binding = {
          method: req.method,
          target: req.originalUrl,
          status: res.statusCode,
          requestId: String(res.get('Request-Id') ?? ''),
        };
        res.set(signatureHeaders({ secret: secretFor(auth.key_id), kid: auth.key_id, body, t, binding }));
      }
      return send(body);
    };
    next();
  };
}
