import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { StoreUnavailable } from '../../src/platform/ledger/errors.js';
import { verifyStore } from '../../src/platform/ledger/verify-store.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { ledgerWith, openService, serviceOf, storedRows, type OpenService } from './support.js';

/**
 * Outages under load (SPEC §2 503 UNAVAILABLE, §3 RATE_LIMIT_ON_STORE_ERROR): Redis dies and comes
 * back while clients keep posting; the ledger file stops taking writes and then takes them again.
 * Nothing but 201 or 503 is ever answered, a 503 carries Retry-After and appends nothing, and
 * afterwards every acknowledged event is in the chain, which verifies.
 */
interface Outcome {
  key: string;
  status: number;
  code: string | null;
  retryAfter: string | null;
  ledger: { seq: number; hash: string } | null;
}

/** Keeps `workers` clients posting observations until `stop()`; each request its own Idempotency-Key. */
function loadOf(base: string, bearer: string, clock: ManualClock, opts: { idempotent: boolean }) {
  const outcomes: Outcome[] = [];
  let running = true;
  let n = 0;
  const post = async (key: string, idempotent = opts.idempotent): Promise<Outcome> => {
    const res = await fetch(`${base}/api/observations`, {
      method: 'POST',
      headers: {
        authorization: bearer,
        'content-type': 'application/json',
        ...(idempotent ? { 'idempotency-key': key } : {}),
      },
      body: JSON.stringify({ kind: 'hours_worked', observed_on: '2026-06-01', hours: 8 }),
    });
    const body = (await res.json()) as { code?: string; ledger?: { seq: number; hash: string } };
    return {
      key,
      status: res.status,
      code: body.code ?? null,
      retryAfter: res.headers.get('retry-after'),
      ledger: body.ledger ?? null,
    };
  };
  const worker = async (): Promise<void> => {
    while (running) {
      n += 1;
      // A fresh rate-limit window now and then: the quota is not what these specs are about.
      if (n % 400 === 0) clock.advance(61_000);
      outcomes.push(await post(`outage-${n}`));
    }
  };
  const done = Promise.all(Array.from({ length: 6 }, worker));
  return {
    outcomes,
    post,
    async stop(): Promise<void> {
      running = false;
      await done;
    },
  };
}

async function listen(app: OpenService['app']): Promise<{ server: Server; base: string }> {
  const server = createServer(app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await sleep(20);
  }
}

/** Every acknowledged append is in the store at its seq with its hash, and the chain verifies. */
async function expectDurable(svc: OpenService, dataDir: string, acked: Outcome[]): Promise<void> {
  const bySeq = new Map((await storedRows(dataDir)).map((r) => [r.seq, r.hash]));
  for (const o of acked)
    expect(bySeq.get(o.ledger!.seq), `${o.key} at ${o.ledger!.seq}`).to.equal(o.ledger!.hash);
  const verified = await verifyStore(serviceOf(svc.app).ledger.store);
  expect(verified.ok, JSON.stringify(verified.issues)).to.equal(true);
}

describe('outages under load', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  before(async () => {
    redis = await startRedisServer();
  });
  after(async () => {
    await redis.stop();
  });

  it('Redis down, fail closed: 503 UNAVAILABLE with Retry-After and no append, then served again once Redis is back', async () => {
    const { dataDir, bearer } = await ledgerWith(300, 'outages');
    const clock = new ManualClock('2026-06-15T12:00:00Z');
    const svc = await openService(dataDir, { clock, redisUrl: redis.url, onStoreError: 'closed' });
    const { server, base } = await listen(svc.app);
    try {
      const head = serviceOf(svc.app).ledger.head.seq;
      const load = loadOf(base, bearer, clock, { idempotent: true });
      await until(() => load.outcomes.some((o) => o.status === 201), 5000);
      await redis.kill();
      const killedAt = load.outcomes.length;
      await until(() => load.outcomes.slice(killedAt).filter((o) => o.status === 503).length >= 10, 10_000);
      await redis.restart();
      const restartedAt = load.outcomes.length;
      await until(
        () => load.outcomes.slice(restartedAt).filter((o) => o.status === 201).length >= 20,
        15_000,
      );
      await load.stop();

      const statuses = new Set(load.outcomes.map((o) => o.status));
      expect([...statuses].sort()).to.deep.equal([201, 503]);
      const refused = load.outcomes.filter((o) => o.status === 503);
      for (const o of refused) expect(o).to.include({ code: 'UNAVAILABLE', retryAfter: '5' });
      const acked = load.outcomes.filter((o) => o.status === 201);
      expect(serviceOf(svc.app).ledger.head.seq - head).to.equal(acked.length);
      await expectDurable(svc, dataDir, acked);
    } finally {
      server.close();
      await svc.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('Redis down, fail open: commands keep being served and appended (uncounted) while it is away', async () => {
    const { dataDir, bearer } = await ledgerWith(300, 'outages');
    const clock = new ManualClock('2026-06-15T12:00:00Z');
    const svc = await openService(dataDir, { clock, redisUrl: redis.url, onStoreError: 'open' });
    const { server, base } = await listen(svc.app);
    try {
      const head = serviceOf(svc.app).ledger.head.seq;
      // Without Idempotency-Key: idempotency records live in Redis too, and there is no honest
      // replay without them, so a keyed request is refused (503) in either mode.
      const load = loadOf(base, bearer, clock, { idempotent: false });
      await until(() => load.outcomes.length >= 20, 5000);
      await redis.kill();
      const killedAt = load.outcomes.length;
      await until(() => load.outcomes.length - killedAt >= 60, 10_000);
      const keyed = await load.post('keyed-while-down', true);
      await redis.restart();
      await load.stop();

      expect(load.outcomes.slice(killedAt).every((o) => o.status === 201)).to.equal(true);
      expect(keyed).to.include({ status: 503, code: 'UNAVAILABLE', retryAfter: '5' });
      expect(load.outcomes.every((o) => o.status === 201)).to.equal(true);
      expect(serviceOf(svc.app).ledger.head.seq - head).to.equal(load.outcomes.length);
      await expectDurable(svc, dataDir, load.outcomes);
    } finally {
      server.close();
      await svc.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('ledger file unwritable (chattr +i on ledger.db and its WAL, which stops root too): 503 with Retry-After, reads still served, and after it is writable again nothing acknowledged is lost and retries append once', async () => {
    const { dataDir, bearer } = await ledgerWith(300, 'outages');
    const clock = new ManualClock('2026-06-15T12:00:00Z');
    const svc = await openService(dataDir, { clock });
    const { server, base } = await listen(svc.app);
    const db = join(dataDir, 'ledger.db');
    const files = [db, `${db}-wal`];
    const unwritable = makeUnwritable(files, svc);
    try {
      const head = serviceOf(svc.app).ledger.head.seq;
      const load = loadOf(base, bearer, clock, { idempotent: true });
      await until(() => load.outcomes.some((o) => o.status === 201), 5000);
      unwritable.on();
      const cutAt = load.outcomes.length;
      await until(() => load.outcomes.slice(cutAt).filter((o) => o.status === 503).length >= 20, 10_000);
      const read = await fetch(`${base}/api/projects`, { headers: { authorization: bearer } });
      expect(read.status).to.equal(200);
      unwritable.off();
      const backAt = load.outcomes.length;
      await until(() => load.outcomes.slice(backAt).filter((o) => o.status === 201).length >= 20, 10_000);
      await load.stop();

      expect([...new Set(load.outcomes.map((o) => o.status))].sort()).to.deep.equal([201, 503]);
      const refused = load.outcomes.filter((o) => o.status === 503);
      for (const o of refused) expect(o).to.include({ code: 'UNAVAILABLE', retryAfter: '5' });
      const acked = load.outcomes.filter((o) => o.status === 201);
      expect(serviceOf(svc.app).ledger.head.seq - head).to.equal(acked.length);
      await expectDurable(svc, dataDir, acked);

      // Clients retry what was refused (and one acknowledged request) with the same key.
      const retried = await Promise.all(refused.map((o) => load.post(o.key)));
      expect(retried.every((o) => o.status === 201)).to.equal(true);
      const again = await load.post(acked[0]!.key);
      expect(again.status).to.equal(201);
      expect(again.ledger).to.deep.equal(acked[0]!.ledger);
      expect(serviceOf(svc.app).ledger.head.seq - head).to.equal(acked.length + refused.length);
      await expectDurable(svc, dataDir, [...acked, ...retried]);
    } finally {
      unwritable.off();
      server.close();
      await svc.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/**
 * Makes the ledger refuse writes for real: `chattr +i` (the immutable attribute stops root, unlike
 * chmod). Where the capability is missing (CAP_LINUX_IMMUTABLE), the store's append is made to
 * fail with StoreUnavailable instead — what the SQLite adapter reports for SQLITE_IOERR/READONLY —
 * and the spec says so on stderr, so a weaker run is never silent.
 */
function makeUnwritable(files: string[], svc: OpenService): { on(): void; off(): void } {
  let mode: 'chattr' | 'patched' | null = null;
  const store = serviceOf(svc.app).ledger.store;
  const append = store.append.bind(store);
  return {
    on() {
      try {
        execFileSync('chattr', ['+i', ...files], { stdio: 'pipe' });
        mode = 'chattr';
      } catch (error) {
        process.stderr.write(
          `chattr +i unavailable (${(error as Error).message.split('\n')[0]}); failing appends in-process\n`,
        );
        store.append = () =>
          Promise.reject(new StoreUnavailable('ledger store unavailable (SQLITE_READONLY)'));
        mode = 'patched';
      }
    },
    off() {
      if (mode === 'chattr') execFileSync('chattr', ['-i', ...files], { stdio: 'pipe' });
      if (mode === 'patched') store.append = append;
      mode = null;
    },
  };
}
