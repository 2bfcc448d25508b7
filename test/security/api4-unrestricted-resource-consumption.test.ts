/**
 * OWASP API4:2023 — Unrestricted Resource Consumption.
 *
 * Proves that no request body can exhaust the process: every JSON route (walked from the app's
 * OpenAPI document, which test/api/openapi.test.ts holds equal to the route table), sent arrays and
 * objects nested 100, 1,000, 10,000 and 100,000 levels deep, answers 400 INVALID_REQUEST naming
 * MAX_JSON_DEPTH (or 413 when the body is also over the route's size limit, which is checked
 * first), records nothing, and a body nested exactly MAX_JSON_DEPTH deep passes the depth gate; and,
 * against the real `src/main.ts` in its own process, that the 10 KB body of 5,000 nested arrays
 * which used to end the process is answered 400 while the process goes on serving. And that a
 * burst cannot spend more than the quota or starve another tenant: on a real redis-server, 150
 * fully concurrent `score` calls with one key are answered exactly 100 × 200 and 50 × 429 (no 503),
 * usage then says 100 used, and another org's calls during the burst are all served; a full
 * in-flight queue sheds at once with 503 + Retry-After; and the public methodology page, which
 * scores every entity, is rescored at most once per METHODOLOGY_REFRESH_MS however fast the ledger
 * moves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { freePort } from '../../bench/lib/child.js';
import express from 'express';
import { AdmissionGate } from '../../src/platform/http/admission.js';
import { MAX_JSON_DEPTH } from '../../src/platform/http/json-depth.js';
import { METHODOLOGY_REFRESH_MS } from '../../src/pages/methodology.js';
import { errorHandler } from '../../src/platform/http/errors.js';
import { ctxOf } from '../../src/platform/http/context.js';
import { requestContext } from '../../src/platform/http/middleware.js';
import { currentRequestScope } from '../../src/platform/http/scope.js';
import { containEscapedError } from '../../src/platform/http/process-guards.js';
import type { Logger } from '../../src/platform/log.js';
import { entryArgs, REPO_ROOT } from '../support/cli.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { startService, type TestService } from '../support/service.js';

type Schema = Record<string, unknown>;

/** `[[[…]]]` or `{"a":{"a":…1}}`, `depth` levels deep. */
function nested(kind: 'array' | 'object', depth: number): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

interface JsonRoute {
  method: 'post';
  url: string;
  label: string;
  operator: boolean;
  /** The route's body size limit (registry imports take bulk bodies). */
  limitBytes: number;
}

describe('OWASP API4 — unrestricted resource consumption', function () {
  this.timeout(600_000);

  describe('deeply nested JSON bodies (every JSON route)', () => {
    let svc: TestService;
    let routes: JsonRoute[];
    const headers: Record<'tenant' | 'operator', Record<string, string>> = { tenant: {}, operator: {} };

    before(async () => {
      svc = await startService();
      const tenant = await svc.key('Depth Probe Bank', [
        'credit:read',
        'governance:read',
        'governance:write',
        'ledger:read',
        'draws:approve',
        'admin',
      ]);
      const operator = await svc.operator();
      headers.tenant = { Authorization: `Bearer ${tenant.key}`, 'x-plumbline-api-key': tenant.key };
      headers.operator = { Authorization: `Bearer ${operator.key}` };
      const doc = (await request(svc.app).get('/openapi.json')).body as {
        paths: Record<string, Record<string, Schema>>;
      };
      routes = [];
      for (const [path, ops] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(ops)) {
          const content = (op.requestBody as Schema | undefined)?.content as Schema | undefined;
          if (method !== 'post' || content?.['application/json'] === undefined) continue;
          const url = path.replace(/\{[^}]+\}/g, 'prj_aaaaaaaaaaaaaaaa');
          const operatorOnly = ['registry:admin', 'platform:admin'].includes(String(op['x-plumbline-scope']));
          const limitBytes = path === '/api/registry/import' ? 1024 * 1024 : 256 * 1024;
          const action = (
            op.parameters as { name: string; schema?: { enum?: string[] } }[] | undefined
          )?.find((p) => p.name === 'action');
          for (const name of action?.schema?.enum ?? [null])
            routes.push({
              method: 'post',
              url: name === null ? url : `${url}?action=${name}`,
              label: `POST ${path}${name === null ? '' : `?action=${name}`}`,
              operator: operatorOnly,
              limitBytes,
            });
        }
      }
    });
    after(async () => {
      await svc.close();
    });

    it('finds the JSON routes to probe', () => {
      expect(routes.length).to.be.greaterThan(20);
      expect(routes.map((r) => r.label)).to.include.members([
        'POST /api/lender-credit?action=usage',
        'POST /api/lender-credit?action=score',
        'POST /api/projects',
        'POST /api/registry/import',
      ]);
    });

    for (const kind of ['array', 'object'] as const) {
      it(`refuses ${kind}s nested 100 to 100,000 deep on every JSON route with 400 naming the limit, recording nothing`, async () => {
        const head = await svc.head();
        for (const depth of [100, 1_000, 10_000, 100_000]) {
          const body = nested(kind, depth);
          for (const route of routes) {
            const res = await request(svc.app)
              .post(route.url)
              .set(route.operator ? headers.operator : headers.tenant)
              .set('Content-Type', 'application/json')
              .send(body);
            const label = `${route.label} ${kind} depth ${depth}`;
            if (Buffer.byteLength(body) > route.limitBytes) {
              // The size limit is checked while the body streams in, before anything looks inside it.
              expect(res.status, label).to.equal(413);
              continue;
            }
            expect(res.status, `${label}: ${JSON.stringify(res.body)}`).to.equal(400);
            expect(res.body.code, label).to.equal('INVALID_REQUEST');
            expect(res.body.max_depth, label).to.equal(MAX_JSON_DEPTH);
            expect(res.body.detail, label).to.contain(`${MAX_JSON_DEPTH} levels`);
          }
        }
        expect(await svc.head(), 'nothing recorded').to.equal(head);
        expect((await request(svc.app).get('/healthz')).status).to.equal(200);
      });
    }

    it('lets a body nested exactly MAX_JSON_DEPTH deep through to validation, and refuses one level more', async () => {
      const head = await svc.head();
      for (const kind of ['array', 'object'] as const) {
        const at = await request(svc.app)
          .post('/api/projects')
          .set(headers.tenant)
          .set('Content-Type', 'application/json')
          .send(nested(kind, MAX_JSON_DEPTH));
        expect(at.status, kind).to.equal(400);
        expect(at.body.max_depth, `${kind}: judged by the schema, not the depth gate`).to.equal(undefined);
        expect(at.body.errors[0].code).to.not.equal('too_deep');
        const over = await request(svc.app)
          .post('/api/projects')
          .set(headers.tenant)
          .set('Content-Type', 'application/json')
          .send(nested(kind, MAX_JSON_DEPTH + 1));
        expect(over.status, kind).to.equal(400);
        expect(over.body.max_depth, kind).to.equal(MAX_JSON_DEPTH);
      }
      expect(await svc.head()).to.equal(head);
    });

    it('does not count brackets inside strings, escaped quotes included', async () => {
      const text = `${'['.repeat(200)}\\"${'{'.repeat(200)}`;
      const res = await request(svc.app)
        .post('/api/projects')
        .set(headers.tenant)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: text }));
      expect(res.status).to.equal(400);
      expect(res.body.max_depth).to.equal(undefined);
    });
  });

  describe('a burst of 150 concurrent score calls on one key (real redis-server)', () => {
    let redis: RedisServer;
    let svc: TestService;
    let server: Server;
    let base: string;

    before(async () => {
      redis = await startRedisServer();
      svc = await startService({ redisUrl: redis.url });
      server = createServer(svc.app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('no TCP address');
      base = `http://127.0.0.1:${address.port}`;
    });
    after(async () => {
      await new Promise((resolve) => server.close(resolve));
      await svc.close();
      await redis.stop();
    });

    const lender = (key: string, action: string, body?: object) =>
      fetch(`${base}/api/lender-credit?action=${action}`, {
        method: 'POST',
        headers: { 'x-plumbline-api-key': key, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    it('serves exactly 100, refuses 50 with 429, never 503, counts 100, and serves another org throughout', async () => {
      const a = await svc.key('Burst Bank A');
      const b = await svc.key('Quiet Bank B');
      const created = await request(svc.app)
        .post('/api/entities')
        .set({ Authorization: `Bearer ${a.key}` })
        .send({ legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'] });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const score = { entity: 'Keystone Builders' };

      const burst = Array.from({ length: 150 }, () => lender(a.key, 'score', score));
      const other = Array.from({ length: 10 }, () => lender(b.key, 'score', score));
      const [mine, theirs] = await Promise.all([Promise.all(burst), Promise.all(other)]);

      const tally = (responses: Response[]) =>
        responses.reduce<Record<number, number>>(
          (t, r) => ({ ...t, [r.status]: (t[r.status] ?? 0) + 1 }),
          {},
        );
      expect(tally(mine)).to.deep.equal({ 200: 100, 429: 50 });
      expect(tally(theirs)).to.deep.equal({ 200: 10 });
      for (const refused of mine.filter((r) => r.status === 429))
        expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);

      const usage = (await (await lender(a.key, 'usage')).json()) as { used: number; by_action: object };
      expect(usage.used).to.equal(100);
      expect(usage.by_action).to.deep.equal({ score: 100 });
      const theirUsage = (await (await lender(b.key, 'usage')).json()) as { used: number };
      expect(theirUsage.used).to.equal(10);
    });

    it('does not count a call that is not served (a 404 for an unknown entity)', async () => {
      const c = await svc.key('Careful Bank C');
      const missing = await lender(c.key, 'score', { entity: 'Nobody Constructors That Exist' });
      expect(missing.status).to.equal(404);
      const invalid = await lender(c.key, 'score', { entity: '' });
      expect(invalid.status).to.equal(400);
      const usage = (await (await lender(c.key, 'usage')).json()) as { used: number; by_action: object };
      expect(usage).to.deep.include({ used: 0, by_action: {} });
    });
  });

  describe('the admission gate (HTTP_CONCURRENCY, HTTP_MAX_IN_FLIGHT)', () => {
    it('runs `concurrency` requests at once, queues up to `maxInFlight`, and sheds the next with 503 + Retry-After', async () => {
      const gate = new AdmissionGate({ concurrency: 1, maxInFlight: 2 });
      const release: (() => void)[] = [];
      const app = express();
      app.use(requestContext());
      app.use(gate.middleware());
      app.get('/work', (_req, res) => {
        release.push(() => res.json({ done: true }));
      });
      app.use(errorHandler({ debug() {}, info() {}, warn() {}, error() {} }));
      const server = createServer(app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      try {
        const first = fetch(`http://127.0.0.1:${port}/work`);
        while (gate.status().running < 1) await new Promise((r) => setImmediate(r));
        const second = fetch(`http://127.0.0.1:${port}/work`);
        while (gate.status().waiting < 1) await new Promise((r) => setImmediate(r));
        const shed = await fetch(`http://127.0.0.1:${port}/work`);
        expect(shed.status).to.equal(503);
        expect(shed.headers.get('retry-after')).to.equal('1');
        expect(((await shed.json()) as { code: string }).code).to.equal('UNAVAILABLE');
        expect(gate.status()).to.deep.equal({ running: 1, waiting: 1, shed: 1 });
        expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 'probes pass the gate').to.equal(
          404,
        );
        release.shift()!();
        expect((await first).status).to.equal(200);
        while (release.length < 1) await new Promise((r) => setImmediate(r));
        release.shift()!();
        expect((await second).status).to.equal(200);
        expect(gate.status()).to.deep.include({ running: 0, waiting: 0 });
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
    it('resumes a queued request in its own request scope, not in that of the request that freed its turn', async () => {
      const gate = new AdmissionGate({ concurrency: 1, maxInFlight: 2 });
      const release: (() => void)[] = [];
      const scopes: { request: string; scope: string | undefined }[] = [];
      const app = express();
      app.use(requestContext());
      app.use(gate.middleware());
      app.get('/work', (req, res) => {
        scopes.push({ request: ctxOf(req).request_id, scope: currentRequestScope()?.request_id });
        release.push(() => res.json({ done: true }));
      });
      const server = createServer(app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      const work = (id: string) => fetch(`http://127.0.0.1:${port}/work`, { headers: { 'Request-Id': id } });
      try {
        const first = work('req-admitted-0001');
        while (gate.status().running < 1) await new Promise((r) => setImmediate(r));
        const second = work('req-queued-00002');
        while (gate.status().waiting < 1) await new Promise((r) => setImmediate(r));
        release.shift()!();
        expect((await first).status).to.equal(200);
        while (release.length < 1) await new Promise((r) => setImmediate(r));
        release.shift()!();
        expect((await second).status).to.equal(200);
        expect(scopes).to.deep.equal([
          { request: 'req-admitted-0001', scope: 'req-admitted-0001' },
          { request: 'req-queued-00002', scope: 'req-queued-00002' },
        ]);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  describe('the public methodology page', () => {
    it('is rescored at most once per METHODOLOGY_REFRESH_MS, however fast the ledger moves', async () => {
      const svc = await startService();
      try {
        const k = await svc.key('Page Load Bank');
        const seqOf = async () => {
          const page = await request(svc.app).get('/compliance-methodology.html');
          expect(page.status).to.equal(200);
          return Number(/through seq (\d+)/.exec(page.text)?.[1]);
        };
        const first = await seqOf();
        for (let i = 0; i < 5; i += 1) {
          await request(svc.app)
            .post('/api/entities')
            .set({ Authorization: `Bearer ${k.key}` })
            .send({ legal_name: `Moving Ledger ${i} LLC`, roles: ['subcontractor'] })
            .expect(201);
          svc.clock.advance(METHODOLOGY_REFRESH_MS / 10);
          expect(await seqOf(), `move ${i}: the cached analysis is served`).to.equal(first);
        }
        svc.clock.advance(METHODOLOGY_REFRESH_MS);
        expect(await seqOf(), 'refreshed once the interval has passed').to.equal(await svc.head());
      } finally {
        await svc.close();
      }
    });
  });

  describe('errors that escape a request (the process guards)', () => {
    it('logs an error escaping from a timer with its request id and answers that request 500', async () => {
      const records: { msg: string; fields: Record<string, unknown> | undefined }[] = [];
      const record = (msg: string, fields?: Record<string, unknown>) => records.push({ msg, fields });
      const logger: Logger = { debug: record, info: record, warn: record, error: record };
      const app = express();
      app.use(requestContext());
      // What process.on('uncaughtException') hands the guard: an error thrown outside any handler.
      app.get('/boom', () => {
        setTimeout(() => containEscapedError(logger, 'uncaughtException', new Error('thrown in a timer')), 1);
      });
      app.use(errorHandler(logger));
      const res = await request(app).get('/boom').set('Request-Id', 'req-escaped-0001');
      expect(res.status).to.equal(500);
      expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
      expect(res.body.code).to.equal('INTERNAL');
      expect(res.body.request_id).to.equal('req-escaped-0001');
      const contained = records.find((r) => r.msg.startsWith('uncaughtException contained'));
      expect(contained?.fields?.request_id).to.equal('req-escaped-0001');
    });
  });

  describe('the 5,000-deep body against the real process (src/main.ts)', () => {
    let child: ChildProcess;
    let base: string;
    let key: string;
    let dataDir: string;
    let output = '';

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'plumbline-api4-'));
      const port = await freePort();
      child = spawn(process.execPath, entryArgs('src/main.ts'), {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
          // Small, so a dozen slow clients are more than every slot, and their timeout comes soon.
          HTTP_CONCURRENCY: '4',
          HTTP_REQUEST_TIMEOUT_MS: '3000',
          HTTP_HEADERS_TIMEOUT_MS: '2000',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      await new Promise<void>((resolve, reject) => {
        const onData = () => {
          const match = /Demo key[^\n]*\n\s+(pl_\S+)/.exec(output);
          if (match?.[1]) {
            key = match[1];
            child.stdout!.off('data', onData);
            resolve();
          }
        };
        child.stdout!.on('data', onData);
        child.once('exit', (code) => reject(new Error(`src/main.ts exited ${code}:\n${output}`)));
      });
      base = `http://127.0.0.1:${port}`;
    });
    after(async () => {
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('answers 400 naming the limit and keeps serving', async () => {
      const body = nested('array', 5_000);
      expect(Buffer.byteLength(body)).to.equal(10_000);
      for (const attempt of [1, 2, 3]) {
        const res = await fetch(`${base}/api/lender-credit?action=usage`, {
          method: 'POST',
          headers: { 'x-plumbline-api-key': key, 'content-type': 'application/json' },
          body,
        });
        expect(res.status, `attempt ${attempt}`).to.equal(400);
        const problem = (await res.json()) as { code: string; max_depth: number };
        expect(problem.code).to.equal('INVALID_REQUEST');
        expect(problem.max_depth).to.equal(MAX_JSON_DEPTH);
      }
      const usage = await fetch(`${base}/api/lender-credit?action=usage`, {
        method: 'POST',
        headers: { 'x-plumbline-api-key': key },
      });
      expect(usage.status).to.equal(200);
      expect(child.exitCode, 'the process is still running').to.equal(null);
      expect((await fetch(`${base}/healthz`)).status).to.equal(200);
    });

    /** A raw connection that sends a POST's headers and the first byte of its 100-byte body. */
    function slowClient(): { socket: Socket; answer: Promise<string>; answeredAt: () => number } {
      const { port } = new URL(base);
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      let at = Infinity;
      const answer = new Promise<string>((resolve) => {
        socket.on('data', (chunk: Buffer) => {
          if (text === '') at = performance.now();
          text += chunk.toString('utf8');
        });
        socket.on('close', () => resolve(text));
        socket.on('error', () => undefined);
      });
      socket.write(
        `POST /api/lender-credit?action=usage HTTP/1.1\r\nHost: 127.0.0.1\r\nx-plumbline-api-key: ${key}\r\n` +
          `content-type: application/json\r\ncontent-length: 100\r\nconnection: close\r\n\r\n{`,
      );
      return { socket, answer, answeredAt: () => at };
    }

    it('serves others while more clients than HTTP_CONCURRENCY send their bodies slowly (they hold no slot)', async () => {
      const slow = Array.from({ length: 12 }, slowClient);
      const finisher = slowClient();
      await new Promise((r) => setTimeout(r, 300));
      const res = await fetch(`${base}/api/lender-credit?action=usage`, {
        method: 'POST',
        headers: { 'x-plumbline-api-key': key, 'content-type': 'application/json' },
        body: '{}',
      });
      const servedAt = performance.now();
      expect(res.status).to.equal(200);
      // One slow client finishes its body: it is served in full, through the gate again.
      finisher.socket.write(`${' '.repeat(98)}}`);
      expect(await finisher.answer).to.match(/^HTTP\/1\.1 200 /);
      const answers = await Promise.all(slow.map((c) => c.answer));
      // The others never finish: each is answered 408 at HTTP_REQUEST_TIMEOUT_MS, and closed — after
      // the request above was served, which therefore did not wait for a slot any of them held.
      for (const [i, text] of answers.entries()) {
        expect(text, `slow client ${i}`).to.match(/^HTTP\/1\.1 408 /);
        expect(slow[i]!.answeredAt(), `slow client ${i} answered after the served request`).to.be.greaterThan(
          servedAt,
        );
      }
      expect((await fetch(`${base}/healthz`)).status).to.equal(200);
    });
  });
});
