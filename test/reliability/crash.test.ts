import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { allProjections } from '../../projections/index.js';
import { projectsProjection } from '../../projections/projects.js';
import { Rng } from '../../bench/lib/prng.js';
import { issueKey } from '../../src/orgs/issue.js';
import type { IssuedKey } from '../../src/orgs/keys.js';
import { systemClock } from '../../src/platform/clock.js';
import { SqliteEventStore } from '../../src/platform/event-store/sqlite.js';
import { idempotencyEventId, idempotencyRequestHash } from '../../src/platform/http/idempotency.js';
import { verifyStore } from '../../src/platform/ledger/verify-store.js';
import {
  ProjectionRuntime,
  ReadModelFile,
  storedCheckpointOf,
} from '../../src/platform/projections/index.js';
import { ledgerIndex, type LedgerIndexState } from '../../projections/ledger-index.js';
import { freePort } from '../../bench/lib/child.js';
import { ledgerWith, openService, serviceOf, startMain, stopChild, type Child } from './support.js';

/**
 * Crash safety (ARCHITECTURE §3.3: synchronous=FULL, an acknowledged append survives): the real
 * server (`node dist/src/main.js`; `src/main.ts` under tsx when dist/ is stale) takes concurrent
 * appending commands and is SIGKILLed at seeded random moments, round after round. After every kill, every acknowledged (2xx) event is in
 * the file at the seq and hash it was acknowledged with and the chain verifies; after every restart
 * the service's own verifier agrees, a cut-off request retried with its Idempotency-Key is appended
 * at most once, and — every few rounds — the read models the service built across the crashes
 * (snapshot + catch-up + live) equal a replay of the whole ledger, projection by projection.
 */
const ROUNDS = 22;
/** Every CHECK_EVERY rounds the live read models are compared with a rebuild. */
const CHECK_EVERY = 5;
const CLIENTS = 8;

interface Ack {
  key: string;
  keyId: string;
  seq: number;
  hash: string;
}

interface Cut {
  key: string;
  keyId: string;
  bearer: string;
  path: string;
  body: string;
}

describe('crash safety: SIGKILL under load, round after round', function () {
  this.timeout(300_000);

  it(`keeps every acknowledged event, a verifying chain and rebuild-equal read models across ${ROUNDS} kills`, async () => {
    const rng = new Rng('crash-rounds');
    const { dataDir } = await ledgerWith(500, 'crash');
    const db = join(dataDir, 'ledger.db');
    // Keys enough for the per-minute quota (600/key) at this load, in the first lender's org.
    const keys: IssuedKey[] = [];
    let projects: string[] = [];
    {
      const svc = await openService(dataDir);
      const s = serviceOf(svc.app);
      for (let i = 0; i < 12; i += 1)
        keys.push(
          await issueKey(s.ledger, s.runtime, svc.composed.deps.secrets, {
            org_name: 'First Builders Bank',
            scopes: ['governance:write', 'governance:read', 'ledger:read'],
          }),
        );
      const state = s.runtime.state(projectsProjection);
      projects = state.project_ids_by_org[keys[0]!.org_id]!;
      await svc.close();
    }
    expect(projects.length).to.be.greaterThan(0);

    const acked: Ack[] = [];
    const cut: Cut[] = [];
    let cutTotal = 0;
    let retried = 0;
    let n = 0;
    const command = (): Cut => {
      n += 1;
      const key = keys[n % keys.length]!;
      const kind = n % 10;
      const project = projects[n % projects.length]!;
      const [path, body] =
        kind < 6
          ? [
              '/api/observations',
              { project_id: project, kind: 'hours_worked', observed_on: '2026-06-01', hours: n % 500 },
            ]
          : kind < 8
            ? ['/api/entities', { legal_name: `Crash Test Masonry ${n} LLC`, roles: ['subcontractor'] }]
            : ['/api/kernel-core', { action: 'full_scan', project_id: project }];
      return {
        key: `crash-${n}`,
        keyId: key.key_id,
        bearer: `Bearer ${key.key}`,
        path,
        body: JSON.stringify(body),
      };
    };
    const send = async (port: number, c: Cut): Promise<Ack | null> => {
      const res = await fetch(`http://127.0.0.1:${port}${c.path}`, {
        method: 'POST',
        headers: { authorization: c.bearer, 'content-type': 'application/json', 'idempotency-key': c.key },
        body: c.body,
      });
      const body = (await res.json()) as { ledger?: Ack; provenance?: { ledger: Ack } };
      expect(res.status, `${c.path}: ${JSON.stringify(body)}`).to.be.oneOf([200, 201]);
      const at = body.ledger ?? body.provenance!.ledger;
      return { key: c.key, keyId: c.keyId, seq: at.seq, hash: at.hash };
    };

    let onDisk = 0;
    const checkFile = async (): Promise<void> => {
      const store = SqliteEventStore.open(db);
      try {
        const verified = await verifyStore(store);
        expect(verified.ok, JSON.stringify(verified.issues)).to.equal(true);
        onDisk = verified.head;
        const hashes = new Map<number, string>();
        for (const record of await store.readRecords(1, 1_000_000)) hashes.set(record.seq, record.hash);
        for (const a of acked)
          expect(hashes.get(a.seq), `acknowledged ${a.key} at seq ${a.seq}`).to.equal(a.hash);
      } finally {
        await store.close();
      }
    };

    await checkFile();
    const port = await freePort();
    let child: Child | null = null;
    try {
      for (let round = 1; round <= ROUNDS; round += 1) {
        child = await startMain(dataDir, port);

        // The restarted service agrees the chain verifies (its own background pass, then the API).
        const bearer = `Bearer ${keys[0]!.key}`;
        for (let i = 0; ; i += 1) {
          const res = await fetch(`http://127.0.0.1:${port}/api/ledger/verify`, {
            headers: { authorization: bearer },
          });
          const status = (await res.json()) as {
            ok: boolean;
            verified_through: number;
            head: { seq: number };
          };
          expect(status.ok, JSON.stringify(status)).to.equal(true);
          // Its first pass covers what the file held at start (appends since wait for the next run).
          if (status.verified_through >= onDisk) break;
          if (i > 200) throw new Error(`verifier stuck at ${status.verified_through} of ${status.head.seq}`);
          await new Promise((r) => setTimeout(r, 20));
        }
        // Requests cut off by the last kill, retried with their key: answered, and appended once.
        for (const c of cut.splice(0, 4)) {
          retried += 1;
          const ack = (await send(port, c))!;
          acked.push(ack);
          const store = SqliteEventStore.open(db);
          const row = store.database
            .prepare<[string], { count: number }>('SELECT count(*) AS count FROM events WHERE id = ?')
            .get(
              idempotencyEventId(
                c.keyId,
                c.key,
                idempotencyRequestHash({ method: 'POST', path: c.path, body: JSON.parse(c.body) as unknown }),
                0,
              ),
            );
          await store.close();
          expect(row?.count, c.key).to.equal(1);
        }

        // Load, then SIGKILL at a seeded moment while requests are in flight.
        let running = true;
        const clients = Array.from({ length: CLIENTS }, async () => {
          while (running) {
            const c = command();
            try {
              const ack = await send(port, c);
              if (ack) acked.push(ack);
            } catch (error) {
              if (error instanceof Error && error.name === 'AssertionError') throw error;
              cut.push(c); // no answer: the process died under it
              cutTotal += 1;
              return;
            }
          }
        });
        await new Promise((r) => setTimeout(r, rng.int(80, 600)));
        await stopChild(child.process, 'SIGKILL');
        running = false;
        await Promise.all(clients);
        child = null;
        await checkFile();

        if (round % CHECK_EVERY === 0 || round === ROUNDS) {
          // A graceful stop flushes the live read models; what the file holds must equal a rebuild.
          child = await startMain(dataDir, port);
          await stopChild(child.process, 'SIGTERM');
          child = null;
          await expectReadModelsEqualRebuild(db);
        }
      }
    } finally {
      if (child) await stopChild(child.process, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
    // The kills really landed under load: requests were in flight at each, and were retried.
    expect(acked.length).to.be.greaterThan(ROUNDS * 5);
    expect(cutTotal).to.be.at.least(ROUNDS);
    expect(retried).to.be.at.least(ROUNDS);
  });
});

/**
 * The read models the service left on its read-model file (flushed at its graceful stop, after
 * rounds of SIGKILLs that each left unflushed work behind) equal a replay from seq 1 in the heap:
 * every projection stored at the head, the same JSON, and the ledger index answering alike.
 */
async function expectReadModelsEqualRebuild(db: string): Promise<void> {
  const store = SqliteEventStore.open(db);
  const file = ReadModelFile.own(join(dirname(db), 'read-models.db'));
  try {
    const head = (await store.head()).seq;
    const rebuilt = new ProjectionRuntime(store, allProjections(), null, systemClock);
    await rebuilt.start();
    // Not started: its states are what the file holds, at the checkpoints it stored.
    const kept = new ProjectionRuntime(store, allProjections(), null, systemClock, { disk: file });
    expect(kept.position, 'every projection stored at the head').to.equal(head);
    expect(storedCheckpointOf(join(dirname(db), 'read-models.db'))).to.equal(head);
    for (const name of rebuilt.names()) {
      if (name === ledgerIndex.name) continue;
      expect(JSON.stringify(kept.state(name)), `${name} equals its rebuild`).to.equal(
        JSON.stringify(rebuilt.state(name)),
      );
    }
    const keptIndex = kept.state<LedgerIndexState>(ledgerIndex);
    const rebuiltIndex = rebuilt.state<LedgerIndexState>(ledgerIndex);
    expect(keptIndex.count).to.equal(rebuiltIndex.count);
    for (const event of await store.read(1, head))
      expect(keptIndex.eventSeq(event.hash), `ledger index at seq ${event.seq}`).to.equal(event.seq);
  } finally {
    file.close();
    await store.close();
  }
}
