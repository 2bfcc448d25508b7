import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import request from 'supertest';
import { verifySignature } from '../../src/platform/crypto/signing.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { startService, type TestService } from '../support/service.js';

function withoutRequestId(body: Record<string, unknown>): Record<string, unknown> {
  const { request_id: _ignored, ...rest } = body;
  return rest;
}

describe('HTTP platform (SPEC §1–§3, §9–§10)', function () {
  this.timeout(30_000);
  let redis: RedisServer;
  let svc: TestService;
  before(async () => {
    redis = await startRedisServer();
  });
  after(async () => {
    await redis.stop();
  });
  beforeEach(async () => {
    svc = await startService({ redisUrl: redis.url });
  });
  afterEach(async () => {
    await svc.close();
  });

  describe('authentication', () => {
    it('answers missing, malformed, bad-checksum, unknown and revoked keys with one identical 401', async () => {
      const good = await svc.key('First Builders Bank');
      const revoked = await svc.key('First Builders Bank');
      const { revokeKey } = await import('../../src/orgs/issue.js');
      expect(
        await revokeKey(svc.composed.deps.ledger, svc.composed.deps.runtime, revoked.key_id, 'test'),
      ).to.equal('revoked');
      const typo = good.key.slice(0, 12) + (good.key[12] === 'a' ? 'b' : 'a') + good.key.slice(13);
      const unknown = (await import('../../src/platform/crypto/api-key.js')).generateApiKey('live').key;
      const presented: (string | null)[] = [null, 'pl_live_short', typo, unknown, revoked.key];
      const bodies: Record<string, unknown>[] = [];
      for (const key of presented) {
        const req = request(svc.app).get('/api/projects');
        const res = key === null ? await req : await req.set('Authorization', `Bearer ${key}`);
        expect(res.status).to.equal(401);
        expect(res.headers['www-authenticate']).to.equal('Bearer realm="plumbline"');
        expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
        bodies.push(withoutRequestId(res.body as Record<string, unknown>));
      }
      for (const body of bodies) expect(body).to.deep.equal(bodies[0]);
      expect(bodies[0]).to.include({ status: 401, code: 'UNAUTHENTICATED' });
      const ok = await request(svc.app).get('/api/projects').set('Authorization', `Bearer ${good.key}`);
      expect(ok.status).to.equal(200);
    });

    it('refuses a key on the very next request after its revocation, though the edge remembers its digest', async () => {
      const key = await svc.key('First Builders Bank');
      const call = () => request(svc.app).get('/api/projects').set('Authorization', `Bearer ${key.key}`);
      // Two served calls: the second is answered from the remembered digest.
      expect((await call()).status).to.equal(200);
      expect((await call()).status).to.equal(200);
      const { revokeKey } = await import('../../src/orgs/issue.js');
      await revokeKey(svc.composed.deps.ledger, svc.composed.deps.runtime, key.key_id, 'test');
      expect((await call()).status).to.equal(401);
    });

    it('answers a valid key that lacks the scope with 403', async () => {
      const readOnly = await svc.key('Ledger Auditor LLP', ['ledger:read']);
      const res = await request(svc.app)
        .post('/api/lender-credit?action=usage')
        .set('x-plumbline-api-key', readOnly.key);
      expect(res.status).to.equal(403);
      expect(res.body).to.include({ code: 'FORBIDDEN', ok: false });
    });
  });

  describe('signatures', () => {
    it('signs every authenticated response so it verifies with the signing secret and fails with a changed byte', async () => {
      const key = await svc.key('First Builders Bank');
      const res = await request(svc.app)
        .post('/api/lender-credit?action=usage')
        .set('x-plumbline-api-key', key.key);
      expect(res.status).to.equal(200);
      const header = String(res.headers['plumbline-signature']);
      expect(header).to.match(new RegExp(`^t=\\d+,kid=${key.key_id},v1=[0-9a-f]{64},v2=[0-9a-f]{64}$`));
      expect(res.headers['content-digest']).to.match(/^sha-256=:[A-Za-z0-9+/]+=*:$/);
      const now = svc.clock.now();
      expect(verifySignature({ header, body: res.text, secret: key.signing_secret, now }).status).to.equal(
        'ok',
      );
      const tampered = res.text.replace('"used":0', '"used":1');
      expect(tampered).to.not.equal(res.text);
      expect(verifySignature({ header, body: tampered, secret: key.signing_secret, now }).status).to.equal(
        'mismatch',
      );
    });

    it('signs authenticated error responses too, and never signs anonymous ones', async () => {
      const key = await svc.key('First Builders Bank');
      const err = await request(svc.app)
        .get('/api/projects/prj_nope')
        .set('Authorization', `Bearer ${key.key}`);
      expect(err.status).to.equal(404);
      expect(
        verifySignature({
          header: String(err.headers['plumbline-signature']),
          body: err.text,
          secret: key.signing_secret,
          now: svc.clock.now(),
        }).status,
      ).to.equal('ok');
      const anon = await request(svc.app).get('/healthz');
      expect(anon.headers['plumbline-signature']).to.equal(undefined);
    });
  });

  describe('conventions', () => {
    it('sets Request-Id (echoing a well-formed client id), Plumbline-Version, no-store and no X-Powered-By', async () => {
      const res = await request(svc.app).get('/healthz').set('Request-Id', 'client-req-12345');
      expect(res.headers['request-id']).to.equal('client-req-12345');
      expect(res.headers['plumbline-version']).to.equal('1.0.0');
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.headers['x-powered-by']).to.equal(undefined);
      expect(res.headers['content-security-policy']).to.match(/default-src 'self'/);
      const bad = await request(svc.app).get('/healthz').set('Request-Id', 'bad id with spaces');
      expect(bad.headers['request-id']).to.match(/^req_/);
    });

    it('answers an unknown route with a 404 problem and a wrong method with 405 and Allow', async () => {
      const missing = await request(svc.app).get('/api/nothing-here');
      expect(missing.status).to.equal(404);
      expect(missing.body).to.include({ code: 'NOT_FOUND', status: 404 });
      const wrong = await request(svc.app).delete('/api/projects');
      expect(wrong.status).to.equal(405);
      expect(wrong.headers.allow).to.equal('GET, HEAD, POST');
    });

    it('serves the discovery document without a key and without counting', async () => {
      const res = await request(svc.app).get('/api/lender-credit');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({
        ok: true,
        api: 'Plumbline Lender Credit API',
        version: '1.0.0',
        rate_limit: '100 requests/day per API key',
      });
      for (const field of [
        'description',
        'authentication',
        'endpoints',
        'response_schema',
        'credit_report_pdf',
        'mesh_ledger',
        'methodology',
        'sdk',
      ]) {
        expect(res.body).to.have.property(field);
      }
      expect(res.headers.ratelimit).to.equal(undefined);
    });
  });

  describe('bad input changes nothing', () => {
    it('refuses an oversized body with 413, a non-JSON body with 415, bad JSON and unknown fields with 400 naming the field', async () => {
      const key = await svc.key('First Builders Bank');
      const before = await svc.head();
      const auth = { Authorization: `Bearer ${key.key}` };
      const big = await request(svc.app)
        .post('/api/observations')
        .set(auth)
        .set('Content-Type', 'application/json')
        .send(`{"pad":"${'x'.repeat(300 * 1024)}"}`);
      expect(big.status).to.equal(413);
      expect(big.body.code).to.equal('PAYLOAD_TOO_LARGE');
      const text = await request(svc.app)
        .post('/api/observations')
        .set(auth)
        .set('Content-Type', 'text/plain')
        .send('hello');
      expect(text.status).to.equal(415);
      const broken = await request(svc.app)
        .post('/api/observations')
        .set(auth)
        .set('Content-Type', 'application/json')
        .send('{"kind":');
      expect(broken.status).to.equal(400);
      const unknown = await request(svc.app)
        .post('/api/lender-credit?action=usage')
        .set('x-plumbline-api-key', key.key)
        .send({ surprise: 1 });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.errors).to.deep.include({
        path: 'surprise',
        code: 'unrecognized_keys',
        message: 'unknown field "surprise"',
      });
      expect(unknown.body.ok).to.equal(false);
      const badAction = await request(svc.app)
        .post('/api/lender-credit?action=teleport')
        .set('x-plumbline-api-key', key.key);
      expect(badAction.status).to.equal(400);
      expect(await svc.head()).to.equal(before);
      for (const res of [big, text, broken, unknown, badAction])
        expect(JSON.stringify(res.body)).to.not.match(/\bat .*\.ts:\d+/);
    });
  });

  describe('compressed bodies', () => {
    it('answers a gzip, deflate or brotli body that does not decode with 400, recording nothing', async () => {
      const key = await svc.key('First Builders Bank');
      const before = await svc.head();
      const whole = gzipSync(JSON.stringify({ kind: 'incident' }));
      // the bytes as they are (superagent would JSON-encode a Buffer sent as application/json)
      const raw = (bytes: Buffer): string => bytes as unknown as string;
      for (const [encoding, bytes] of [
        ['gzip', Buffer.from('not gzip at all')],
        ['gzip', whole.subarray(0, 12)],
        ['deflate', Buffer.from('xx')],
        ['br', Buffer.from('xx')],
      ] as const) {
        const res = await request(svc.app)
          .post('/api/observations')
          .set({ Authorization: `Bearer ${key.key}` })
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', encoding)
          .serialize(raw)
          .send(bytes);
        expect(res.status, `${encoding}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
        expect(res.body.code).to.equal('INVALID_REQUEST');
        expect(res.body.errors).to.deep.equal([
          {
            path: '',
            code: 'invalid_encoding',
            message: 'the body does not decode as its Content-Encoding says',
          },
        ]);
      }
      // a body that decodes is read as JSON (and refused here only by its schema)
      const decoded = await request(svc.app)
        .post('/api/observations')
        .set({ Authorization: `Bearer ${key.key}` })
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'gzip')
        .serialize(raw)
        .send(whole);
      expect(decoded.status).to.equal(400);
      expect(decoded.body.detail).to.not.contain('Content-Encoding');
      expect(await svc.head()).to.equal(before);
    });
  });

  describe('rate limits in Redis (SPEC §3)', () => {
    it('counts project API calls per minute and answers the 601st with 429, Retry-After and reset_at', async () => {
      const key = await svc.key('First Builders Bank');
      svc.clock.set('2026-06-15T12:00:30Z');
      let last = await request(svc.app).get('/api/projects').set('Authorization', `Bearer ${key.key}`);
      expect(last.headers['ratelimit-policy']).to.equal('"minute";q=600;w=60');
      expect(last.headers.ratelimit).to.equal('"minute";r=599;t=30');
      for (let i = 2; i <= 600; i += 1)
        last = await request(svc.app).get('/api/projects').set('Authorization', `Bearer ${key.key}`);
      expect(last.status).to.equal(200);
      const refused = await request(svc.app).get('/api/projects').set('Authorization', `Bearer ${key.key}`);
      expect(refused.status).to.equal(429);
      expect(refused.headers['retry-after']).to.equal('30');
      expect(refused.body).to.include({
        code: 'RATE_LIMITED',
        limit: 600,
        reset_at: '2026-06-15T12:01:00.000Z',
      });
      svc.clock.set('2026-06-15T12:01:00Z');
      const next = await request(svc.app).get('/api/projects').set('Authorization', `Bearer ${key.key}`);
      expect(next.status).to.equal(200);
    });

    it('answers 503 with Retry-After while Redis is down (fail closed) and recovers when it returns', async () => {
      const key = await svc.key('First Builders Bank');
      await redis.kill();
      const down = await request(svc.app).get('/api/projects').set('Authorization', `Bearer ${key.key}`);
      expect(down.status).to.equal(503);
      expect(down.body.code).to.equal('UNAVAILABLE');
      expect(down.headers['retry-after']).to.equal('5');
      const ready = await request(svc.app).get('/readyz');
      expect(ready.status).to.equal(503);
      await redis.restart();
      let back = down;
      for (let i = 0; i < 40 && back.status !== 200; i += 1) {
        await new Promise((r) => setTimeout(r, 100));
        back = await request(svc.app).get('/api/projects').set('Authorization', `Bearer ${key.key}`);
      }
      expect(back.status).to.equal(200);
    });

    it('serves while Redis is down when configured to fail open', async () => {
      const open = await startService({ redisUrl: redis.url, onStoreError: 'open' });
      try {
        const key = await open.key('First Builders Bank');
        await redis.kill();
        const res = await request(open.app).get('/api/projects').set('Authorization', `Bearer ${key.key}`);
        expect(res.status).to.equal(200);
        expect(res.headers['ratelimit-policy']).to.equal('"minute";q=600;w=60');
        expect(res.headers.ratelimit).to.equal(undefined);
      } finally {
        await redis.restart();
        await open.close();
      }
    });
  });

  describe('health and metrics', () => {
    it('reports liveness, readiness with store, projections, read models, Redis and ledger integrity, and Prometheus metrics', async () => {
      expect((await request(svc.app).get('/healthz')).body).to.deep.equal({ status: 'ok' });
      const ready = await request(svc.app).get('/readyz');
      expect(ready.status).to.equal(200);
      expect(ready.body.checks).to.have.keys([
        'store',
        'projections',
        'read_models',
        'redis',
        'ledger_integrity',
      ]);
      expect(ready.body.checks.ledger_integrity.ok).to.equal(true);
      expect(ready.body.checks.read_models.ok).to.equal(true);
      const metrics = await request(svc.app).get('/metrics');
      expect(metrics.text).to.match(/plumbline_http_request_duration_seconds_bucket\{[^}]*route="\/readyz"/);
      expect(metrics.text).to.match(/plumbline_projection_lag_events 0/);
      expect(metrics.text).to.match(/^plumbline_ledger_integrity 1$/m);
      expect(metrics.text).to.match(/^plumbline_read_models_damaged 0$/m);
      expect(metrics.text).to.match(/^plumbline_ledger_verified_through \d+$/m);
    });
  });
});
