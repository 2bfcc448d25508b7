/**
 * The request scope (AsyncLocalStorage): which request a piece of code runs for, wherever it runs —
 * a middleware, a body-parser callback, a stream or timer callback. The process guards use it to
 * log an escaped error with its request id and still answer that request.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Request, Response } from 'express';

export interface RequestScope {
  request_id: string;
  req: Request;
  res: Response;
}

const storage = new AsyncLocalStorage<RequestScope>();

export function runInRequestScope<T>(scope: RequestScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The request the current code runs for, if any. */
export function currentRequestScope(): RequestScope | undefined {
  return storage.getStore();
}

/**
 * `fn`, bound to the request scope current now: for a callback that will be called from another
 * async context (a body-parser stream event, a queued admission). Re-enters this one store only —
 * the only AsyncLocalStorage the service has — which is far cheaper per request than an
 * `AsyncResource.bind` (a resource, init hooks and two deprecation wrappers each time).
 */
export function bindRequestScope<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
  const scope = storage.getStore();
  if (scope === undefined) return fn;
  return (...args) => storage.run(scope, fn, ...args);
}
