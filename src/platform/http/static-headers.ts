/**
 * A header-only middleware (helmet with static options) run once at startup against a recording
 * response, then replayed as one loop of `setHeader` calls per request: the same headers, without
 * a dozen chained middleware calls per request (issue 19 item 3). Refuses, at startup, a middleware
 * that does anything else — reads the request, calls back later, fails, or sets a header to
 * anything but a string — so a header that must vary per request can never be frozen by mistake.
 */
import type { RequestHandler } from 'express';

export function precomputedHeaders(mw: RequestHandler): RequestHandler {
  const set: [string, string][] = [];
  const removed: string[] = [];
  const refuse = (what: string): never => {
    throw new Error(`precomputedHeaders: the middleware ${what}; it cannot be precomputed`);
  };
  const req = new Proxy({}, { get: (_t, name) => refuse(`reads req.${String(name)}`) });
  const res = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') refuse(`sets ${name} to a non-string`);
      set.push([name, value as string]);
      return res;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  let passed = false;
  let judged = false;
  mw(req as never, res as never, (error?: unknown) => {
    if (judged) return; // a late call: already refused below
    if (error) refuse(`failed (${error instanceof Error ? error.message : 'a non-Error'})`);
    passed = true;
  });
  judged = true;
  if (!passed) refuse('did not pass the request on synchronously');
  return (_req, response, next) => {
    for (const name of removed) response.removeHeader(name);
    for (const [name, value] of set) response.setHeader(name, value);
    next();
  };
}
