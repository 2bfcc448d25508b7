import { expect } from 'chai';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { chain } from '../../../src/platform/http/middleware.js';

/** An app with `mw` as its one app-wide layer, a route that lists what ran, and an error handler. */
function appWith(mw: RequestHandler, ran: string[]) {
  const app = express();
  app.use(mw);
  app.get('/', (_req, res) => {
    ran.push('route');
    res.json({ ran });
  });
  const onError: ErrorRequestHandler = (error: Error, _req, res, _next) => {
    ran.push('error');
    res.status(418).json({ error: error.message, ran });
  };
  app.use(onError);
  return app;
}

const mark =
  (ran: string[], name: string): RequestHandler =>
  (_req, _res, next) => {
    ran.push(name);
    next();
  };

describe('chain (app-wide middleware as one layer)', () => {
  it('runs its middleware in order, then the routes', async () => {
    const ran: string[] = [];
    const res = await request(appWith(chain(mark(ran, 'a'), mark(ran, 'b'), mark(ran, 'c')), ran))
      .get('/')
      .expect(200);
    expect(res.body.ran).to.deep.equal(['a', 'b', 'c', 'route']);
  });

  it('goes on when a middleware calls next later (a queued request)', async () => {
    const ran: string[] = [];
    const later: RequestHandler = (_req, _res, next) => {
      setTimeout(() => {
        ran.push('later');
        next();
      }, 5);
    };
    const res = await request(appWith(chain(mark(ran, 'a'), later, mark(ran, 'b')), ran))
      .get('/')
      .expect(200);
    expect(res.body.ran).to.deep.equal(['a', 'later', 'b', 'route']);
  });

  it('skips the rest and the routes on next(error), a throw or a rejected promise', async () => {
    const failures: [string, RequestHandler][] = [
      ['next', (_req, _res, next) => next(new Error('refused'))],
      [
        'throw',
        () => {
          throw new Error('refused');
        },
      ],
      ['reject', () => Promise.reject(new Error('refused'))],
    ];
    for (const [how, failing] of failures) {
      const ran: string[] = [];
      const res = await request(appWith(chain(mark(ran, 'a'), failing, mark(ran, 'b')), ran))
        .get('/')
        .expect(418);
      expect(res.body, how).to.deep.equal({ error: 'refused', ran: ['a', 'error'] });
    }
  });

  it('ends with a middleware that answers without calling next', async () => {
    const ran: string[] = [];
    const answers: RequestHandler = (_req, res) => {
      res.status(503).json({ shed: true });
    };
    const res = await request(appWith(chain(mark(ran, 'a'), answers, mark(ran, 'b')), ran))
      .get('/')
      .expect(503);
    expect(res.body).to.deep.equal({ shed: true });
    expect(ran).to.deep.equal(['a']);
  });
});
