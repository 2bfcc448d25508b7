/**
 * Per-request context: the request id, the authenticated key (when any), the surface, and the
 * Idempotency-Key. Kept in a WeakMap keyed by the request, so no global type augmentation is needed.
 */
import type { Request } from 'express';
import type { ApiKeyMode, ApiKeyScope } from '../crypto/api-key.js';

export type Surface = 'lender' | 'project' | 'ledger' | 'public';

export interface AuthContext {
  key_id: string;
  org_id: string;
  scopes: readonly ApiKeyScope[];
  mode: ApiKeyMode;
}

export interface RequestContext {
  request_id: string;
  surface: Surface;
  started_at: number;
  auth: AuthContext | null;
  idempotency_key: string | null;
  /** The request's hash under its Idempotency-Key (method, path, canonical body); null without a key. */
  idempotency_request_hash: string | null;
  /** The route template, for metrics (`/api/projects/:id`). */
  route: string | null;
}

const contexts = new WeakMap<Request, RequestContext>();

export function setContext(req: Request, ctx: RequestContext): void {
  contexts.set(req, ctx);
}

export function ctxOf(req: Request): RequestContext {
  const ctx = contexts.get(req);
  if (!ctx) throw new Error('request context missing: requestContext() middleware must run first');
  return ctx;
}

/** The authenticated key of a request, if it has a context and a key (the response writer). */
export function authIfAny(req: Request): AuthContext | null {
  return contexts.get(req)?.auth ?? null;
}

/** The authenticated key; throws when a route forgot its auth middleware (a bug, not a 401). */
export function authOf(req: Request): AuthContext {
  const auth = ctxOf(req).auth;
  if (!auth) throw new Error('route reached without authentication');
  return auth;
}
