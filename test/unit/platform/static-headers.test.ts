import { expect } from 'chai';
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { HELMET_OPTIONS } from '../../../src/app.js';
import { precomputedHeaders } from '../../../src/platform/http/static-headers.js';

/** The app's helmet, as src/app.ts builds it. */
const appHelmet = () => helmet(HELMET_OPTIONS);

async function headersWith(mw: RequestHandler): Promise<Record<string, unknown>> {
  const app = express();
  app.use(mw);
  app.get('/', (_req, res) => res.json({ ok: true }));
  const res = await request(app).get('/').expect(200);
  const { date: _date, ...rest } = res.headers;
  return rest;
}

describe('precomputed security headers', () => {
  it('sets exactly the headers helmet sets, in the same order, X-Powered-By removed', async () => {
    const live = await headersWith(appHelmet());
    const precomputed = await headersWith(precomputedHeaders(appHelmet()));
    expect(Object.keys(precomputed)).to.deep.equal(Object.keys(live));
    expect(precomputed).to.deep.equal(live);
    expect(live).to.include.keys('content-security-policy', 'strict-transport-security', 'x-frame-options');
    expect(live).not.to.have.property('x-powered-by');
  });

  it('refuses, at startup, a middleware whose headers depend on the request or come later', () => {
    const readsRequest: RequestHandler = (req, res, next) => {
      res.setHeader('Vary', req.get('origin') ?? '*');
      next();
    };
    const later: RequestHandler = (_req, res, next) => {
      setImmediate(() => {
        res.setHeader('X-Later', '1');
        next();
      });
    };
    const nonce = helmet({
      contentSecurityPolicy: {
        directives: { scriptSrc: [(req) => `'nonce-${String((req as { nonce?: string }).nonce)}'`] },
      },
    });
    expect(() => precomputedHeaders(readsRequest)).to.throw(/reads req\.get/);
    expect(() => precomputedHeaders(later)).to.throw(/did not pass the request on synchronously/);
    expect(() => precomputedHeaders(nonce)).to.throw(/cannot be precomputed/);
  });
});
