import { expect } from 'chai';
import express, { type Express, type RequestHandler } from 'express';
import request from 'supertest';
// Express's own charset rule, which `res.send` applies to every text body.
// @ts-expect-error -- an internal module of Express without types
import { setCharset } from 'express/lib/utils.js';
import { ManualClock } from '../../../src/platform/clock.js';
import { contentDigest, verifySignature } from '../../../src/platform/crypto/signing.js';
import { setContext } from '../../../src/platform/http/context.js';
import { signResponses, UTF8_TYPES } from '../../../src/platform/http/signing.js';

const clock = new ManualClock('2026-06-15T12:00:00Z');
const SECRET = 'plsig_test_secret';

/** The routes every case answers on, the same in the app with the writer and in plain Express. */
function appWith(writer: boolean, authenticated = false): Express {
  const app = express();
  app.set('etag', false);
  if (writer) signResponses(app, clock, () => SECRET);
  const context: RequestHandler = (req, res, next) => {
    setContext(req, {
      request_id: 'req_1',
      surface: 'lender',
      started_at: 0,
      auth: authenticated
        ? { key_id: 'key_test', org_id: 'org_test', scopes: ['credit:read'], mode: 'live' }
        : null,
      idempotency_key: null,
      idempotency_request_hash: null,
      route: null,
    });
    res.setHeader('Request-Id', 'req_1');
    next();
  };
  app.use(context);
  app.all('/json', (_req, res) => res.json({ ok: true, name: 'Élan Béton — 北' }));
  app.post('/created', (_req, res) => res.status(201).json({ id: 1 }));
  app.get('/problem', (_req, res) => {
    res
      .status(404)
      .type('application/problem+json')
      .send(JSON.stringify({ title: 'Not Found' }));
  });
  app.get('/tagged', (_req, res) => res.set('ETag', '"v1"').json({ tagged: true }));
  app.get('/empty', (_req, res) => res.status(204).json({ gone: true }));
  app.get('/html', (_req, res) => res.send('<p>hello</p>'));
  app.get('/bytes', (_req, res) => res.type('application/octet-stream').send(Buffer.from([1, 2, 3])));
  app.get('/text', (_req, res) => res.type('text/plain').send('plain'));
  app.get('/page', (_req, res) => res.type('text/html; charset=utf-8').send('<p>é</p>'));
  return app;
}

async function answer(app: Express, method: 'get' | 'post' | 'head', path: string, headers = {}) {
  const res = await request(app)[method](path).set(headers).buffer(true);
  const { date: _date, ...rest } = res.headers as Record<string, string>;
  return { status: res.status, headers: rest, body: (res.text as string | undefined) ?? '' };
}

const CASES: [string, 'get' | 'post' | 'head', string, Record<string, string>?][] = [
  ['a JSON answer', 'post', '/json'],
  ['a JSON answer to a GET', 'get', '/json'],
  ['a 201', 'post', '/created'],
  ['a problem', 'get', '/problem'],
  ['a HEAD', 'head', '/json'],
  ['a conditional GET that is fresh (304)', 'get', '/tagged', { 'If-None-Match': '"v1"' }],
  ['a conditional GET that is not', 'get', '/tagged', { 'If-None-Match': '"v0"' }],
  ['a 204', 'get', '/empty'],
  ['HTML', 'get', '/html'],
  ['bytes', 'get', '/bytes'],
  ['plain text', 'get', '/text'],
  ['a page', 'get', '/page'],
];

describe('the response writer', () => {
  it("gives each content type it writes the charset Express's send gives it", () => {
    for (const [type, sent] of UTF8_TYPES) expect(setCharset(type, 'utf-8')).to.equal(sent);
  });

  for (const [what, method, path, headers] of CASES) {
    it(`answers ${what} with the status, headers and bytes Express's send gives`, async () => {
      const plain = await answer(appWith(false), method, path, headers);
      const written = await answer(appWith(true), method, path, headers);
      expect(Object.keys(written.headers)).to.deep.equal(Object.keys(plain.headers));
      expect(written).to.deep.equal(plain);
    });
  }

  it('signs a written answer over the bytes sent, with one digest for both headers', async () => {
    const res = await request(appWith(true, true)).post('/json?x=1').expect(200);
    const body = Buffer.from(res.text, 'utf8');
    expect(res.headers['content-digest']).to.equal(contentDigest(body));
    expect(Number(res.headers['content-length'])).to.equal(body.length);
    const verified = verifySignature({
      header: res.headers['plumbline-signature'] as string,
      body,
      secret: SECRET,
      now: clock.now(),
    });
    expect(verified.status).to.equal('ok');
  });

  it('signs what goes through Express (bytes) too, and leaves unauthenticated answers unsigned', async () => {
    const signed = await request(appWith(true, true)).get('/bytes').expect(200);
    expect(signed.headers['content-digest']).to.equal(contentDigest(Buffer.from([1, 2, 3])));
    expect(signed.headers['plumbline-signature']).to.match(/^t=\d+,kid=key_test,v1=[0-9a-f]{64},v2=/);
    const unsigned = await request(appWith(true)).post('/json').expect(200);
    expect(unsigned.headers).not.to.have.property('plumbline-signature');
    expect(unsigned.headers).not.to.have.property('content-digest');
  });
});
