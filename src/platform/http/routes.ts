/**
 * The route table: every route is declared through it, so unknown paths answer a 404 problem and
 * known paths with the wrong method answer 405 with `Allow` (SPEC §2), from one list.
 *
 * A route on a fixed path (`/api/lender-credit`, `/api/observations`) that Express would dispatch to
 * first is also run directly from the edge (`direct()`, issue 19 item 3), by one Map lookup of the
 * exact method and path, instead of Express's walk over every route registered before it. Anything
 * else — a path with parameters, another spelling (case, a trailing slash), HEAD, OPTIONS — takes
 * Express's router as before, and so does a request whose direct route passes it on (`next()`).
 */
import type { Express, Request, RequestHandler } from 'express';
import { ctxOf } from './context.js';
import { ProblemError } from './problem.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Entry {
  path: string;
  pattern: RegExp;
  methods: Set<Method>;
  /** A GET that records what it answers ({@link RouteTable.addRecordedRead}): no HEAD. */
  recordedRead?: boolean;
}

/**
 * The route's path as Express 5 matches it: `:name` one segment, `*name` one or more (a wildcard
 * read literally never matched, so a wrong method on `/tlog/tile/0/000` answered 404, not 405).
 */
function toPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) =>
      part.startsWith(':')
        ? '[^/]+'
        : part.startsWith('*')
          ? '.+'
          : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** A path Express matches literally (no parameter, wildcard or pattern syntax). */
function isFixed(path: string): boolean {
  return !/[:*?+()[\]{}]/.test(path);
}

/** Requests a direct route passed on: its Express twin lets them go by (`next('route')`). */
const passedOn = new WeakSet<Request>();

export class RouteTable {
  readonly #entries = new Map<string, Entry>();
  /** Every registration, in order: whether a later fixed route is reached first by Express. */
  readonly #registered: { method: Method; path: string }[] = [];
  /** Fixed routes Express dispatches to first, by `METHOD path`. */
  readonly #direct = new Map<string, RequestHandler[]>();
  constructor(private readonly app: Express) {}

  add(method: Method, path: string, ...handlers: RequestHandler[]): void {
    let entry = this.#entries.get(path);
    if (!entry) {
      entry = { path, pattern: toPattern(path), methods: new Set() };
      this.#entries.set(path, entry);
    }
    entry.methods.add(method);
    // The route template is recorded (for metrics) by the route's first handler itself rather than by
    // a handler of its own: one step less through Express's route dispatch per request.
    const [first, ...rest] = handlers;
    if (first === undefined) throw new Error(`route ${method} ${path} has no handler`);
    const named: RequestHandler = (req, res, next) => {
      // Run directly already, and passed on: Express goes on past this route as it would have.
      if (passedOn.delete(req)) {
        next('route');
        return;
      }
      ctxOf(req).route = path;
      return first(req, res, next);
    };
    const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    this.app[verb](path, named, ...rest);
    const key = `${method} ${path}`;
    if (isFixed(path) && !this.#direct.has(key) && !this.#reachedBefore(method, path))
      this.#direct.set(key, [named, ...rest]);
    this.#registered.push({ method, path });
  }

  /**
   * A GET that records what it answers (a rail scan, a credit report inquiry). Express would run a
   * HEAD as that GET and drop the body: an event appended and a quota place spent for an answer
   * nobody receives. HEAD answers 405 `Allow: GET` instead, before any handler runs.
   */
  addRecordedRead(path: string, ...handlers: RequestHandler[]): void {
    this.app.head(path, (req, _res, next) => {
      next(
        new ProblemError(
          'METHOD_NOT_ALLOWED',
          `HEAD is not allowed on ${req.path}: a GET here records what it answers`,
          {},
          { Allow: 'GET' },
        ),
      );
    });
    this.add('GET', path, ...handlers);
    this.#entries.get(path)!.recordedRead = true;
  }

  /**
   * Whether a route registered earlier could take `method path` in Express (which matches paths
   * case-insensitively): then Express, not the direct table, must decide. A wildcard counts as
   * matching everything under its prefix.
   */
  #reachedBefore(method: Method, path: string): boolean {
    const lower = path.toLowerCase();
    return this.#registered.some((r) => {
      if (r.method !== method) return false;
      const star = r.path.indexOf('*');
      if (star >= 0) return lower.startsWith(r.path.slice(0, star).toLowerCase());
      return new RegExp(toPattern(r.path).source, 'i').test(path);
    });
  }

  /**
   * The edge's last step: runs the direct route of the request's exact method and path, if any, as
   * Express runs a route's handlers (in order; an error, a throw or a rejected promise goes to the
   * error handlers). A request without one, or passed on by it, goes on to Express's router.
   */
  direct(): RequestHandler {
    return (req, res, next) => {
      const handlers = this.#direct.get(`${req.method} ${req.path}`);
      if (handlers === undefined) {
        next();
        return;
      }
      let at = 0;
      const step = (error?: unknown): void => {
        if (error === 'route' || (!error && at === handlers.length)) {
          passedOn.add(req);
          next();
          return;
        }
        if (error) {
          next(error);
          return;
        }
        const handler = handlers[at]!;
        at += 1;
        try {
          const returned: unknown = handler(req, res, step);
          if (returned instanceof Promise)
            returned.then(undefined, (e: unknown) => next(e ?? new Error('Rejected promise')));
        } catch (e) {
          next(e);
        }
      };
      step();
    };
  }

  /** Methods allowed on a concrete path, or null when no route matches it. */
  allowed(path: string): Method[] | null {
    const methods = new Set<Method>();
    let head = false;
    for (const entry of this.#entries.values())
      if (entry.pattern.test(path)) {
        entry.methods.forEach((m) => methods.add(m));
        head ||= entry.methods.has('GET') && entry.recordedRead !== true;
      }
    if (methods.size === 0) return null;
    if (head) methods.add('HEAD' as Method);
    return [...methods].sort();
  }

  paths(): { path: string; methods: Method[] }[] {
    return [...this.#entries.values()].map((e) => ({ path: e.path, methods: [...e.methods] }));
  }

  /** The last handler: 405 for a known path, 404 otherwise. */
  fallback(): RequestHandler {
    return (req, _res, next) => {
      const allowed = this.allowed(req.path);
      if (allowed) {
        next(
          new ProblemError(
            'METHOD_NOT_ALLOWED',
            `${req.method} is not allowed on ${req.path}`,
            {},
            { Allow: allowed.join(', ') },
          ),
        );
        return;
      }
      next(new ProblemError('NOT_FOUND', `no resource at ${req.path}`));
    };
  }
}
