import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect } from 'chai';
import type { PlumblineError as PlumblineErrorType } from '../../src/sdk/index.js';
import { startService } from '../support/service.js';
import { listen, loadBuiltSdk, type Listening, type Sdk } from './harness.js';

interface Seen {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  at: number;
}

/** A stand-in server answering from a script, one entry per request, recording what arrived. */
async function scripted(
  answers: { status: number; headers?: Record<string, string>; body: unknown }[],
): Promise<Listening & { seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = await listen((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        at: performance.now(),
      });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      const type = answer.status >= 400 ? 'application/problem+json' : 'application/json';
      res.writeHead(answer.status, {
        'content-type': type,
        'request-id': `req_fake_${seen.length}`,
        ...answer.headers,
      });
      res.end(JSON.stringify(answer.body));
    });
  });
  return { ...server, seen };
}

const problem = (code: string, status: number) => ({
  type: `https://plumbline.dev/problems/${code.toLowerCase()}`,
  title: code,
  status,
  detail: `${code} for the test`,
  instance: '/api/entities',
  code,
  request_id: 'req_fake_problem',
});
const created = { id: 'ent_aaaaaaaaaaaaaaaa', ledger: { seq: 1, hash: 'a'.repeat(64) } };

describe('SDK retries (429/503 honoring Retry-After, same Idempotency-Key)', function () {
  this.timeout(30_000);
  let sdk: Sdk;
  before(async () => {
    sdk = await loadBuiltSdk();
  });

  it('waits Retry-After seconds after a 429 and retries with the same Idempotency-Key', async () => {
    const fake = await scripted([
      { status: 429, headers: { 'retry-after': '1' }, body: problem('RATE_LIMITED', 429) },
      { status: 201, body: created },
    ]);
    try {
      const client = new sdk.Plumbline({ baseUrl: fake.baseUrl, apiKey: 'pl_test_fake' });
      const result = await client.createEntity({ legal_name: 'Retry Co', roles: ['supplier'] });
      expect(result).to.deep.equal(created);
      expect(fake.seen).to.have.length(2);
      const [first, second] = fake.seen as [Seen, Seen];
      expect(first.idempotencyKey).to.be.a('string').with.length.greaterThan(8);
      expect(second.idempotencyKey).to.equal(first.idempotencyKey);
      expect(second.at - first.at).to.be.at.least(950);
    } finally {
      await fake.close();
    }
  });

  it('retries a 503 too, and gives a fresh key to the next call', async () => {
    const fake = await scripted([
      { status: 503, headers: { 'retry-after': '0' }, body: problem('UNAVAILABLE', 503) },
      { status: 201, body: created },
    ]);
    try {
      const client = new sdk.Plumbline({ baseUrl: fake.baseUrl, apiKey: 'pl_test_fake' });
      await client.createEntity({ legal_name: 'Retry Co', roles: ['supplier'] });
      await client.createEntity({ legal_name: 'Retry Co', roles: ['supplier'] });
      expect(fake.seen).to.have.length(3);
      expect(fake.seen[1]!.idempotencyKey).to.equal(fake.seen[0]!.idempotencyKey);
      expect(fake.seen[2]!.idempotencyKey).to.not.equal(fake.seen[0]!.idempotencyKey);
    } finally {
      await fake.close();
    }
  });

  it('retries a 409 that carries Retry-After (the same key still running, the head kept moving) with the same key; a 409 without it is final', async () => {
    const report = { ok: true, entity: 'Keystone Builders, Inc.' };
    const fake = await scripted([
      { status: 409, headers: { 'retry-after': '0' }, body: problem('CONFLICT', 409) },
      { status: 200, body: report },
    ]);
    try {
      const client = new sdk.Plumbline({ baseUrl: fake.baseUrl, apiKey: 'pl_test_fake' });
      expect(await client.score('Keystone Builders')).to.deep.equal(report);
      expect(fake.seen).to.have.length(2);
      expect(fake.seen[1]!.idempotencyKey).to.be.a('string').and.equal(fake.seen[0]!.idempotencyKey);
    } finally {
      await fake.close();
    }
    const final = await scripted([{ status: 409, body: problem('CONFLICT', 409) }]);
    try {
      const client = new sdk.Plumbline({ baseUrl: final.baseUrl, apiKey: 'pl_test_fake' });
      const error = (await client
        .createEntity({ legal_name: 'Retry Co', roles: ['supplier'] })
        .catch((e: unknown) => e)) as PlumblineErrorType;
      expect(error).to.include({ code: 'CONFLICT', status: 409 });
      expect(final.seen).to.have.length(1);
    } finally {
      await final.close();
    }
  });

  it('does not wait out a Retry-After beyond maxRetryDelaySeconds, nor retry past `retries`', async () => {
    const fake = await scripted([
      { status: 429, headers: { 'retry-after': '86399' }, body: problem('RATE_LIMITED', 429) },
    ]);
    try {
      const client = new sdk.Plumbline({
        baseUrl: fake.baseUrl,
        apiKey: 'pl_test_fake',
        maxRetryDelaySeconds: 30,
      });
      const started = performance.now();
      const error = (await client.usage().catch((e: unknown) => e)) as PlumblineErrorType;
      expect(error).to.be.instanceOf(sdk.PlumblineError);
      expect(error).to.include({ code: 'RATE_LIMITED', status: 429, retry_after_s: 86399 });
      expect(error.request_id).to.equal('req_fake_problem');
      expect(performance.now() - started).to.be.below(500);
      expect(fake.seen).to.have.length(1);

      const fakeZero = await scripted([
        { status: 503, headers: { 'retry-after': '0' }, body: problem('UNAVAILABLE', 503) },
      ]);
      try {
        const once = new sdk.Plumbline({ baseUrl: fakeZero.baseUrl, apiKey: 'pl_test_fake', retries: 0 });
        expect(((await once.profiles().catch((e: unknown) => e)) as PlumblineErrorType).code).to.equal(
          'UNAVAILABLE',
        );
        expect(fakeZero.seen).to.have.length(1);
      } finally {
        await fakeZero.close();
      }
    } finally {
      await fake.close();
    }
  });

  it('reports 503 LEDGER_INTEGRITY and READ_MODELS_DAMAGED by their own codes, with the server’s detail and request id', async () => {
    for (const code of ['LEDGER_INTEGRITY', 'READ_MODELS_DAMAGED']) {
      const fake = await scripted([{ status: 503, body: problem(code, 503) }]);
      try {
        const client = new sdk.Plumbline({ baseUrl: fake.baseUrl, apiKey: 'pl_test_fake', retries: 0 });
        const error = (await client
          .score('Keystone Builders')
          .catch((e: unknown) => e)) as PlumblineErrorType;
        expect(error).to.be.instanceOf(sdk.PlumblineError);
        expect(error).to.include({ code, status: 503, detail: `${code} for the test` });
        expect(error.request_id).to.equal('req_fake_problem');
        expect(error.problem?.code).to.equal(code);
      } finally {
        await fake.close();
      }
    }
  });

  it('rides out the real daily quota at the UTC day boundary (the clock moves while it waits)', async () => {
    const svc = await startService({ now: '2026-06-15T23:59:59.500Z' });
    const server = await listen(svc.app);
    try {
      const key = await svc.key('First Builders Bank');
      const client = new sdk.Plumbline({ baseUrl: server.baseUrl, apiKey: key.key, retries: 1 });
      for (let i = 0; i < 100; i += 1) await client.portfolio({ limit: 1 });
      expect((await client.usage()).remaining).to.equal(0);
      // The 101st call gets 429 with Retry-After: 1 (seconds to midnight); while the SDK waits,
      // the service's clock crosses midnight, so the retry lands in a fresh day.
      const crossing = setTimeout(() => svc.clock.set('2026-06-16T00:00:00.500Z'), 300);
      const started = performance.now();
      const page = await client.portfolio({ limit: 1 });
      clearTimeout(crossing);
      expect(page.ok).to.equal(true);
      expect(performance.now() - started).to.be.at.least(950);
      const usage = await client.usage();
      expect(usage.used).to.equal(1);
    } finally {
      await server.close();
      await svc.close();
    }
  });
});
