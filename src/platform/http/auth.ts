/**
 * Authentication and authorization at the edge (SPEC §1). Every failure to authenticate answers
 * the same 401 body, whatever the cause (missing, malformed, bad checksum, unknown, revoked).
 */
import type { Request, RequestHandler } from 'express';
import { grantsScope, type ApiKeyScope } from '../crypto/api-key.js';
import { ctxOf, type AuthContext } from './context.js';
import { ProblemError } from './problem.js';

/** Resolves a presented key to its record, or null; injected by the composition root. */
export type KeyResolver = (presented: string) => AuthContext | null;

export interface AuthOptions {
  /** The scope required; with several, any one of them. */
  scope: ApiKeyScope | readonly ApiKeyScope[];
  /** Accept the `key` query parameter (the PDF report link, SPEC §1). */
  allowQueryKey?: boolean;
  /** Add `WWW-Authenticate: Bearer realm="plumbline"` to 401s (Bearer surfaces). */
  bearerChallenge?: boolean;
}

/**
 * The headers that carry an API key, checked in this order and treated alike: the seed's name
 * (`x-service-api-key`, seed interface §5), then Plumbline's own (the SDK sends that one).
 */
export const API_KEY_HEADERS = ['x-service-api-key', 'x-plumbline-api-key'] as const;

export const UNAUTHENTICATED_DETAIL =
  'a valid API key is required (x-service-api-key, x-plumbline-api-key or Authorization: Bearer)';

function presentedKey(req: Request, allowQuery: boolean): string | null {
  for (const name of API_KEY_HEADERS) {
    const header = req.get(name);
    if (header) return header.trim();
  }
  const authorization = req.get('authorization');
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match ? match[1]! : '';
  }
  if (allowQuery) {
    const q = req.query.key;
    if (typeof q === 'string') return q;
  }
  return null;
}

export function authenticate(resolve: KeyResolver, opts: AuthOptions): RequestHandler {
  const accepted: readonly ApiKeyScope[] = typeof opts.scope === 'string' ? [opts.scope] : opts.scope;
  return (req, _res, next) => {
    const presented = presentedKey(req, opts.allowQueryKey === true);
    const auth = presented ? resolve(presented) : null;
    if (!auth) {
      const headers = opts.bearerChallenge ? { 'WWW-Authenticate': 'Bearer realm="plumbline"' } : {};
      next(new ProblemError('UNAUTHENTICATED', UNAUTHENTICATED_DETAIL, {}, headers));
      return;
    }
    ctxOf(req).auth = auth;
    if (!accepted.some((scope) => grantsScope(auth.scopes, scope))) {
      next(
        new ProblemError('FORBIDDEN', `this key lacks the ${accepted.join(' or ')} scope`, {
          required_scope: accepted[0]!,
        }),
      );
      return;
    }
    next();
  };
}
