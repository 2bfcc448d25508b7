import { expect } from 'chai';
import express, { type RequestHandler } from 'express';
import request from 'supertest';
import { ctxOf, setContext } from '../../../src/platform/http/context.js';
import { chain } from '../../../src/platform/http/middleware.js';
import { RouteTable } from '../../../src/platform/http/routes.js';

/** An app with the route table's direct routes at the end of its edge, as src/app.ts has it. */
function appWithRoutes(direct: boolean, mount: (routes: RouteTable) => void): express.Express {
  const app = express();
  const routes = new RouteTable(app);
  const context: RequestHandler = (req, _res, next) => {
    setContext(req, {
      request_id: 'req_1',
      surface: 'public',
      started_at: 0,
      auth: null,
      idempotency_key: null,
      idempotency_request_hash: null,
      route: null,
    });
    next();
  };
  app.use(direct ? chain(context, routes.direct()) : context);
  mount(routes);
  app.use(routes.fallback());
  app.use(((error: unknown, req, res, _next) => {
    res
      .status(500)
      .json({ error: String(error instanceof Error ? error.message : error), route: ctxOf(req).route });
  }) as express.ErrorRequestHandler);
  return app;
}

const said =
  (what: string): RequestHandler =>
  (req, res) => {
    res.json({ said: what, route: ctxOf(req).route });
  };

/** Routes whose order decides some answers: a parameter route before a fixed one, a pass, errors. */
function mount(routes: RouteTable): void {
  routes.add('GET', '/items/:id', (req, res, next) => {
    if (req.params.id === 'special') {
      next();
      return;
    }
    res.json({ said: `item ${req.params.id as string}`, route: ctxOf(req).route });
  });
  routes.add('GET', '/items/special', said('special'));
  routes.add('GET', '/fixed', said('fixed'));
  routes.add('POST', '/fixed', (_req, _res, next) => next(), said('second handler'));
  // Each handler counts its runs: a route passed on is run once, not again by Express.
  const counted =
    (name: string): RequestHandler =>
    (_req, res, next) => {
      const runs = (res.locals.runs ?? []) as string[];
      res.locals.runs = [...runs, name];
      next();
    };
  routes.add('GET', '/pass', counted('first'), (_req, _res, next) => next());
  routes.add('GET', '/pass', counted('second'), (_req, res) => {
    res.json({ runs: res.locals.runs as string[] });
  });
  routes.add('GET', '/throws', () => {
    throw new Error('thrown');
  });
  routes.add('GET', '/rejects', async () => {
    await Promise.resolve();
    throw new Error('rejected');
  });
  routes.add('GET', '/next-error', (_req, _res, next) => next(new Error('passed an error')));
  routes.add('GET', '/skip', counted('skipped'), (_req, _res, next) => next('route'));
  routes.add('GET', '/skip', counted('after'), (_req, res) => {
    res.json({ runs: res.locals.runs as string[] });
  });
  routes.add('GET', '/:anything', said('a later parameter route'));
}

const REQUESTS: ['get' | 'post' | 'head' | 'put', string][] = [
  ['get', '/fixed'],
  ['post', '/fixed'],
  ['head', '/fixed'],
  ['put', '/fixed'],
  ['get', '/FIXED'],
  ['get', '/fixed/'],
  ['get', '/items/7'],
  ['get', '/items/special'],
  ['get', '/pass'],
  ['get', '/throws'],
  ['get', '/rejects'],
  ['get', '/next-error'],
  ['get', '/skip'],
  ['get', '/nowhere/at/all'],
];

describe('the route table', () => {
  for (const [method, path] of REQUESTS) {
    it(`answers ${method.toUpperCase()} ${path} with direct routes as Express's router alone does`, async () => {
      const viaExpress = await request(appWithRoutes(false, mount))[method](path);
      const direct = await request(appWithRoutes(true, mount))[method](path);
      expect([direct.status, direct.text]).to.deep.equal([viaExpress.status, viaExpress.text]);
      expect(direct.headers.allow).to.equal(viaExpress.headers.allow);
    });
  }

  it('runs a fixed route directly and leaves one Express reaches through an earlier route to Express', async () => {
    let ran = 0;
    const counting: RequestHandler = (_req, _res, next) => {
      ran += 1;
      next();
    };
    const app = appWithRoutes(true, (routes) => {
      routes.add('GET', '/items/:id', counting, said('item'));
      routes.add('GET', '/items/fixed', said('never: the parameter route comes first'));
      routes.add('GET', '/direct', counting, said('direct'));
    });
    expect((await request(app).get('/direct').expect(200)).body).to.deep.equal({
      said: 'direct',
      route: '/direct',
    });
    expect(ran).to.equal(1);
    expect((await request(app).get('/items/fixed').expect(200)).body).to.deep.equal({
      said: 'item',
      route: '/items/:id',
    });
  });

  // '/tlog/tile/*path' was read as the literal path '/tlog/tile/*path': a POST or OPTIONS on a tile
  // answered 404 'no resource' where /tlog/checkpoint answered 405 with Allow (SPEC §2).
  it('answers a wrong method on a wildcard route 405 with Allow, and only under its prefix', async () => {
    const app = appWithRoutes(true, (routes) => {
      routes.add('GET', '/files/*path', said('a file'));
    });
    expect((await request(app).get('/files/a/b').expect(200)).body).to.deep.equal({
      said: 'a file',
      route: '/files/*path',
    });
    const routes = new RouteTable(express());
    routes.add('GET', '/files/*path', said('a file'));
    expect(routes.allowed('/files/a/b')).to.deep.equal(['GET', 'HEAD']);
    expect(routes.allowed('/files/x')).to.deep.equal(['GET', 'HEAD']);
    expect(routes.allowed('/files/')).to.equal(null);
    expect(routes.allowed('/other/x')).to.equal(null);
  });
});
