/**
 * Several nodes, proven (issue 17): the EventStoreDB stand-in as its own process, one
 * redis-server and three `src/main.ts` processes on their own ports and data dirs, sharing the
 * secrets an operator would give every replica. Mixed concurrent traffic goes through all three —
 * entity registrations (appends) and credit scores (appends + the daily quota), the same
 * Idempotency-Key sent to two nodes at once, one key's daily quota spent across nodes — while one
 * node is SIGKILLed midway and restarted. Then: one gapless chain that verifies; every node's read
 * models answer exactly like a replay from seq 1; each idempotent request was appended once;
 * exactly 100 quota successes; the restarted node caught up.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { freePort } from '../../bench/lib/child.js';
import { generateApiKey } from '../../src/platform/crypto/api-key.js';
import { EsdbEventStore } from '../../src/platform/event-store/esdb.js';
import { readAll } from '../../src/platform/event-store/port.js';
import type { SealedEvent } from '../../src/platform/ledger/envelope.js';
import { verifyStore } from '../../src/platform/ledger/verify-store.js';
import { startStandinProcess, type StandinProcess } from '../support/esdb-standin-process.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { startService } from '../support/service.js';
import { startMain, type Child } from './support.js';

const SECRETS = {
  KEY_PEPPER: 'multi-node-pepper-0123456789abcdef0123',
  LEDGER_SIGNING_KEY: 'multi-node-signing-key-0123456789abcdef',
  TLOG_SIGNING_SEED: 'ab'.repeat(32),
  PUBLIC_BASE_URL: 'https://plumbline.multi-node.example',
};
const DAILY_QUOTA = 100;
const IDEMPOTENT_PAIRS = 12;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

describe('several service nodes on one EventStoreDB and one Redis', function () {
  this.timeout(180_000);
  let standin: StandinProcess;
  let redis: RedisServer;
  const nodes: Child[] = [];
  const dirs: string[] = [];
  let operatorKey: string;
  let env: Record<string, string>;

  const base = (i: number) => `http://127.0.0.1:${nodes[i]!.port}`;
  async function call(
    i: number,
    method: 'GET' | 'POST',
    path: string,
    key: string,
    body?: unknown,
    idem?: string,
  ) {
    try {
      const res = await fetch(`${base(i)}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          'x-plumbline-api-key': key,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(idem ? { 'idempotency-key': idem } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
    } catch {
      return { status: 0, body: {} }; // the node is down (killed midway)
    }
  }

  async function startNode(i: number, port?: number): Promise<Child> {
    return startMain(dirs[i]!, port ?? (await freePort()), env);
  }

  before(async () => {
    standin = await startStandinProcess();
    redis = await startRedisServer();
    const shared = mkdtempSync(join(tmpdir(), 'plumbline-multi-node-'));
    dirs.push(shared);
    operatorKey = generateApiKey('live').key;
    const keyFile = join(shared, 'operator.key');
    writeFileSync(keyFile, `${operatorKey}\n`, { mode: 0o600 });
    env = { ...SECRETS, EVENTSTORE_URL: standin.url, REDIS_URL: redis.url, OPERATOR_KEY_FILE: keyFile };
    for (let i = 0; i < 3; i += 1) dirs[i] = mkdtempSync(join(tmpdir(), `plumbline-node${i}-`));
    // Started together: the operator bootstrap is decided at the head, so exactly one node makes it.
    nodes.push(...(await Promise.all([0, 1, 2].map((i) => startNode(i)))));
  });

  after(async () => {
    for (const node of nodes)
      if (node.process.exitCode === null && node.process.signalCode === null) {
        const exited = once(node.process, 'exit');
        node.process.kill('SIGTERM');
        await exited;
      }
    await redis.stop();
    await standin.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps one verifiable chain, equal read models, single appends and one shared quota through a node crash', async () => {
    // Setup through node 0: a lender org, a working key, a quota key, an entity to score.
    const org = await call(0, 'POST', '/api/admin/orgs', operatorKey, { name: 'Multi Node Lending' });
    expect(org.status, JSON.stringify(org.body)).to.equal(201);
    const issue = async (scopes: string[]) => {
      const res = await call(0, 'POST', '/api/admin/keys', operatorKey, { org_id: org.body.org_id, scopes });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return String(res.body.key);
    };
    const worker = await issue(['credit:read', 'governance:read', 'governance:write']);
    // Each append lane writes with keys of its own, a fresh one every 500 appends: flat out, one key
    // would spend its per-minute project quota (SPEC §3, 600/min, shared across nodes) within the
    // window and see only 429s.
    const laneKeys = [
      await issue(['governance:read', 'governance:write']),
      await issue(['governance:read', 'governance:write']),
    ];
    const APPENDS_PER_KEY = 500;
    const quota = await issue(['credit:read']);
    const seeded = await call(0, 'POST', '/api/entities', worker, {
      legal_name: 'Keystone Builders, Inc.',
      roles: ['general_contractor'],
    });
    expect(seeded.status).to.equal(201);
    // Every node knows the keys (the live subscription, bounded by the 1 s freshness sweep).
    for (const i of [0, 1, 2])
      await until(async () => (await call(i, 'GET', '/api/entities?limit=1', worker)).status === 200);

    // Traffic runs 10 s, and on for 3 s after the killed node is back (about 15 s in all here;
    // a hard stop at 60 s only guards against a node that never comes back).
    const started = Date.now();
    const stop = { at: started + 10_000 };
    let restartedAt = Number.MAX_SAFE_INTEGER;
    const appended: Array<Answer & { node: number; at: number }> = [];
    const scores: Answer[] = [];
    const running = () =>
      (Date.now() < stop.at || restartedAt === Number.MAX_SAFE_INTEGER) && Date.now() < started + 60_000;
    const appends = async (lane: number) => {
      for (let n = 0; running(); n += 1) {
        if (n > 0 && n % APPENDS_PER_KEY === 0)
          laneKeys[lane] = await issue(['governance:read', 'governance:write']);
        const node = (lane + n) % 3;
        const at = Date.now();
        const answer = await call(node, 'POST', '/api/entities', laneKeys[lane]!, {
          legal_name: `Firm ${lane}-${n}`,
          roles: ['supplier'],
        });
        appended.push({ node, at, ...answer });
        if (n % 4 === 0 && scores.length < 40)
          scores.push(
            await call(node, 'POST', '/api/lender-credit?action=score', worker, {
              entity: 'Keystone Builders',
            }),
          );
      }
    };
    // The same Idempotency-Key to two nodes at once (nodes 0 and 1 stay up throughout).
    const pairs = async () => {
      const out: Answer[][] = [];
      for (let p = 0; p < IDEMPOTENT_PAIRS; p += 1) {
        const body = { legal_name: `Idempotent Firm ${p}`, roles: ['supplier'] };
        out.push(
          await Promise.all(
            [0, 1].map((node) => call(node, 'POST', '/api/entities', worker, body, `multi-node-idem-${p}`)),
          ),
        );
      }
      return out;
    };
    // One key's daily quota spent across the two nodes that stay up: 130 calls, 100 may pass. A
    // score appends (its inquiry), and under three nodes' appends a 409 CONFLICT (the head kept
    // moving, Retry-After) can end one: not served, so not counted, and retried as a client does.
    const quotaCalls = async () => {
      const score = async (n: number) => {
        for (let attempt = 0; ; attempt += 1) {
          const answer = await call(n % 2, 'POST', '/api/lender-credit?action=score', quota, {
            entity: 'Keystone Builders',
          });
          if (answer.status !== 409 || attempt === 5) return answer;
          await sleep(250 + Math.floor(Math.random() * 500));
        }
      };
      return Promise.all(Array.from({ length: DAILY_QUOTA + 30 }, (_, n) => score(n)));
    };
    // Node 2 is SIGKILLed midway and restarted on its port and data dir.
    const crash = async () => {
      await sleep(4000);
      const victim = nodes[2]!;
      const exited = once(victim.process, 'exit');
      victim.process.kill('SIGKILL');
      await exited;
      await sleep(1500);
      nodes[2] = await startNode(2, victim.port);
      restartedAt = Date.now();
      stop.at = Math.max(stop.at, restartedAt + 3000);
    };
    const [, , , pairAnswers, quotaAnswers] = await Promise.all([
      appends(0),
      appends(1),
      crash(),
      pairs(),
      quotaCalls(),
    ]);
    await until(() => Promise.resolve(nodes[2]!.process.exitCode === null));

    // 1. One gapless chain that verifies, read straight from the store.
    const store = EsdbEventStore.connect(standin.url);
    const events: SealedEvent[] = [];
    try {
      for await (const e of readAll(store)) events.push(e);
      const verified = await verifyStore(store);
      expect(verified.ok, JSON.stringify(verified.issues)).to.equal(true);
    } finally {
      await store.close();
    }
    expect(events.map((e) => e.seq)).to.deep.equal(events.map((_, i) => i + 1));
    const registered = events.filter((e) => e.type === 'EntityRegistered');
    const okAppends = appended.filter((a) => a.status === 201).length;
    expect(okAppends).to.be.greaterThan(20);
    expect(scores.filter((a) => a.status === 200).length).to.be.greaterThan(0);
    // The restarted node took traffic again before the end.
    const afterRestart = appended.filter((a) => a.node === 2 && a.at > restartedAt);
    expect(
      afterRestart.filter((a) => a.status === 201).length,
      `restarted ${restartedAt - started} ms in: ${afterRestart.map((a) => a.status).join(',')}`,
    ).to.be.greaterThan(0);

    // 2. Each idempotent request appended once, and both nodes' answers name the same entity.
    for (let p = 0; p < IDEMPOTENT_PAIRS; p += 1) {
      const named = registered.filter(
        (e) => (e.data as { legal_name?: string }).legal_name === `Idempotent Firm ${p}`,
      );
      expect(named, `Idempotent Firm ${p}`).to.have.length(1);
      const ids = pairAnswers[p]!.filter((a) => a.status === 201).map((a) => a.body.id);
      expect(ids.length, `pair ${p}: ${JSON.stringify(pairAnswers[p])}`).to.be.greaterThan(0);
      expect(new Set(ids).size).to.equal(1);
    }

    // 3. Exactly the daily quota of successes for one key across nodes; the rest 429.
    const statuses = quotaAnswers.map((a) => a.status);
    const odd = JSON.stringify(quotaAnswers.filter((a) => a.status !== 200 && a.status !== 429));
    expect(
      statuses.filter((s) => s === 200),
      odd,
    ).to.have.length(DAILY_QUOTA);
    expect(
      statuses.filter((s) => s === 429),
      odd,
    ).to.have.length(30);

    // 4. Every node (the restarted one too) answers like a replay from seq 1.
    const replay = await startService({
      compose: {
        eventStoreUrl: standin.url,
        keyPepper: SECRETS.KEY_PEPPER,
        signingKey: SECRETS.LEDGER_SIGNING_KEY,
      },
    });
    try {
      const expected = async (path: string, key: string) =>
        (await request(replay.app).get(path).set('Authorization', `Bearer ${key}`)).body as Record<
          string,
          unknown
        >;
      /** Every entity, page by page (500 a page), as one list. */
      const everyEntity = async (get: (path: string) => Promise<Record<string, unknown>>) => {
        const all: unknown[] = [];
        let cursor: string | null = null;
        do {
          const page = await get(
            `/api/entities?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          );
          expect(page.data, `entities page: ${JSON.stringify(page).slice(0, 300)}`).to.be.an('array');
          all.push(...(page.data as unknown[]));
          cursor = typeof page.next_cursor === 'string' ? page.next_cursor : null;
        } while (cursor);
        return all;
      };
      const want = {
        entities: await everyEntity((path) => expected(path, worker)),
        keys: await expected('/api/admin/keys', operatorKey),
        orgs: await expected('/api/admin/orgs', operatorKey),
      };
      expect(want.entities.length).to.equal(
        new Set(registered.map((e) => (e.data as { entity_id?: string }).entity_id)).size,
      );
      for (const i of [0, 1, 2]) {
        const nodeEntities = () => everyEntity(async (path) => (await call(i, 'GET', path, worker)).body);
        await until(async () => JSON.stringify(await nodeEntities()) === JSON.stringify(want.entities));
        expect(await nodeEntities(), `node ${i} entities`).to.deep.equal(want.entities);
        expect((await call(i, 'GET', '/api/admin/keys', operatorKey)).body, `node ${i} keys`).to.deep.equal(
          want.keys,
        );
        expect((await call(i, 'GET', '/api/admin/orgs', operatorKey)).body, `node ${i} orgs`).to.deep.equal(
          want.orgs,
        );
      }
    } finally {
      await replay.close();
    }
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it holds (10 s at most): nodes converge through their subscriptions. */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('nodes did not converge within 10 s');
    await sleep(50);
  }
}
