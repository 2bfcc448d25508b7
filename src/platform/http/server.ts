/**
 * The node:http server for an Express app, built so that every request and response is born with
 * the app's own prototypes (`app.request`, `app.response`).
 *
 * Express gives each request its methods by `Object.setPrototypeOf(req, app.request)` and
 * `Object.setPrototypeOf(res, app.response)` in `app.handle`. On V8 that swap, made on every
 * request, costs more than all the rest of a small route: the objects change map after Node's
 * http code has built them, so Node's own property accesses on them (parser, outgoing headers,
 * streams) stop being monomorphic. Measured on the 2-core box: a JSON route on bare node:http ~25 µs
 * of CPU a request, the same after the two swaps ~75 µs, the whole Express app ~160 µs; the same
 * Express app on this server ~62 µs (issue 19 item 3, docs/benchmarks.md).
 *
 * Node lets a server construct its requests and responses from given classes (the
 * `IncomingMessage` and `ServerResponse` options). Classes whose prototypes *are* the app's make
 * Express's swap a no-op (`setPrototypeOf` to the prototype an object already has changes nothing),
 * so the app runs unchanged and every request keeps one shape from birth. A request that reaches a
 * mounted sub-app still gets that app's prototypes from Express, as before.
 */
import {
  createServer,
  IncomingMessage,
  ServerResponse,
  type RequestListener,
  type Server,
  type ServerOptions,
} from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/** Constructors whose instances are Node's request and response with the app's prototypes. */
export function expressServerClasses(
  app: Express,
): Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  // Plain functions, as Node's own are: `new Request(socket)` runs IncomingMessage's constructor on
  // an object whose prototype is app.request (which inherits IncomingMessage.prototype).
  function Request(this: IncomingMessage, socket: Socket): void {
    IncomingMessage.call(this, socket);
  }
  Request.prototype = app.request;
  function Response(this: ServerResponse, req: IncomingMessage, options?: unknown): void {
    (
      ServerResponse as unknown as (this: ServerResponse, req: IncomingMessage, options?: unknown) => void
    ).call(this, req, options);
  }
  Response.prototype = app.response;
  return {
    IncomingMessage: Request as unknown as typeof IncomingMessage,
    ServerResponse: Response as unknown as typeof ServerResponse,
  };
}

/** `http.createServer(options, app)` with requests and responses born with the app's prototypes. */
export function createAppServer(app: Express, options: ServerOptions = {}): Server {
  return createServer({ ...options, ...expressServerClasses(app) }, app as unknown as RequestListener);
}
