/**
 * The route table: every route is declared through it, so unknown paths answer a 404 problem and
 * known paths with the wrong method answer 405 with `Allow` (SPEC §2), from one list.
 */
import type { Express, RequestHandler } from 'express';
import { ctxOf } from './context.js';
import { ProblemError } from './problem.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Entry {
  path: string;
  pattern: RegExp;
  methods: Set<Method>;
}

function toPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

export class RouteTable {
  readonly #entries = new Map<string, Entry>();
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
      ctxOf(req).route = path;
      return first(req, res, next);
    };
    const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    this.app[verb](path, named, ...rest);
  }

  /** Methods allowed on a concrete path, or null when no route matches it. */
  allowed(path: string): Method[] | null {
    const methods = new Set<Method>();
    for (const entry of this.#entries.values())
      if (entry.pattern.test(path)) entry.methods.forEach((m) => methods.add(m));
    if (methods.size === 0) return null;
    if (methods.has('GET')) methods.add('HEAD' as Method);
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
