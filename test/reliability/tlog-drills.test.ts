/**
 * Transparency-log drills (issue 16): an insider who holds the SQLite file — and so the log's own
 * memory of what it signed — cuts off the tail, edits an event and re-hashes the chain after it, or
 * slips in a forged event with a recomputed chain, then wipes the log's tiles and checkpoint so the
 * restarted service signs the forged history with its real key. The ledger's own hash chain still
 * verifies; what catches it is outside the server: `npm run ledger:monitor` (exit 2 naming a
 * ROLLBACK or a SPLIT VIEW) and the witness, which refuses to cosign and keeps the honest checkpoint.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApp } from '../../src/app.js';
import { compose, type Composed } from '../../src/compose.js';
import { systemClock } from '../../src/platform/clock.js';
import { sha256Hex } from '../../src/platform/crypto/hash.js';
import { contentJson, linkHash, type EventContent } from '../../src/platform/ledger/envelope.js';
import { silentLogger } from '../../src/platform/log.js';
import { ed25519Signer } from '../../src/platform/tlog/note.js';
import { openStateFile, Witness, witnessHandler, type WitnessStateStore } from '../../src/witness/index.js';
import { listen, type Listening } from '../sdk/harness.js';
import { runScriptAsync } from '../support/spawned.js';
import { witnessKey } from '../support/tlog-fixture.js';
import { storedRows, tamper } from './support.js';

const SEED = '11'.repeat(32);
const ORIGIN = 'plumbline.test/ledger';
const LOG_VKEY = ed25519Signer(ORIGIN, Buffer.from(SEED, 'hex')).verifierKey;
const META = { org_id: null, actor: 'drill', request_id: 'req_drill' };
const EVENTS = 12;

interface Running {
  composed: Composed;
  http: Listening;
  close(): Promise<void>;
}

async function startService(dataDir: string, witnessUrl: string): Promise<Running> {
  const composed = await compose({
    dataDir,
    clock: systemClock,
    logger: silentLogger,
    publicBaseUrl: 'http://plumbline.test',
    keyPepper: 'drill-pepper-0123456789abcdef0123456789',
    signingKey: 'drill-signing-key-0123456789abcdef0123',
    tlogSeed: SEED,
    tlogPublic: true,
    witnessUrls: [witnessUrl],
  });
  const http = await listen(createApp(composed.deps));
  return {
    composed,
    http,
    async close() {
      await http.close();
      await composed.close();
    },
  };
}

/** The attacker rewrites the whole events table from `contents`, recomputing every hash. */
function rewriteLedger(dataDir: string, contents: EventContent[]): void {
  let prev = '0'.repeat(64);
  const rows = contents.map((c, i) => {
    const text = contentJson(c);
    const contentHash = sha256Hex(text);
    const hash = linkHash(i + 1, prev, contentHash);
    const row = [i + 1, c.id, c.stream, c.type, c.meta.org_id, c.recorded_at, text, contentHash, prev, hash];
    prev = hash;
    return `(${row.map((v) => (v === null ? 'NULL' : typeof v === 'number' ? v : `'${String(v).replaceAll("'", "''")}'`)).join(', ')})`;
  });
  tamper(
    dataDir,
    `DELETE FROM events;
     INSERT INTO events (seq, id, stream, type, org_id, recorded_at, content, content_hash, prev_hash, hash)
     VALUES ${rows.join(',\n')};
     DELETE FROM tlog_tiles; DELETE FROM tlog_meta;`,
  );
}

interface Drill {
  name: string;
  forge(contents: EventContent[]): EventContent[];
  verdict: RegExp;
}

const DRILLS: Drill[] = [
  {
    name: 'tail truncation (the last 4 events cut off)',
    forge: (contents) => contents.slice(0, -4),
    verdict: /^ROLLBACK: the log shrank from 12 to 8 entries/,
  },
  {
    name: 'an edit with the rest of the chain re-hashed (event 5 rewritten)',
    forge: (contents) => contents.map((c, i) => (i === 4 ? { ...c, data: { n: 'rewritten' } } : c)),
    verdict: /^SPLIT VIEW: two roots for size 12/,
  },
  {
    name: 'a forged event with a recomputed chain (slipped in after event 6)',
    forge: (contents) => [
      ...contents.slice(0, 6),
      { ...contents[5]!, id: 'evt_forged_0001', data: { n: 'forged' } },
      ...contents.slice(6),
    ],
    verdict: /^SPLIT VIEW: the tree of size 13 does not extend the tree of size 12/,
  },
  {
    name: 'the last event replaced by a forged one, chain recomputed',
    forge: (contents) => [
      ...contents.slice(0, -1),
      { ...contents.at(-1)!, id: 'evt_forged_0002', data: { n: 'forged' } },
    ],
    verdict: /^SPLIT VIEW: two roots for size 12/,
  },
];

describe('transparency-log drills: the monitor and the witness catch a forged history the server signed', function () {
  this.timeout(120_000);
  let dir: string;
  let witnessHttp: Listening;
  let witnessState: WitnessStateStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-tlog-drill-'));
    witnessState = openStateFile(join(dir, 'witness.json'));
    const witness = new Witness({
      key: witnessKey(),
      state: witnessState,
      clock: systemClock,
      logs: [{ origin: ORIGIN, keys: [LOG_VKEY] }],
    });
    witnessHttp = await listen(witnessHandler(witness));
  });
  afterEach(async () => {
    await witnessHttp.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Until the witness has cosigned `size` (the service submits in the background). */
  async function cosigned(size: number): Promise<void> {
    for (let i = 0; i < 500 && witnessState.get(ORIGIN)?.size !== size; i += 1) await sleep(10);
    expect(witnessState.get(ORIGIN)?.size).to.equal(size);
  }

  for (const drill of DRILLS) {
    it(`catches ${drill.name}`, async () => {
      const dataDir = join(dir, 'data');
      const monitorState = join(dir, 'monitor.json');
      const monitor = (url: string) =>
        runScriptAsync('ledger-monitor.ts', ['--url', url, '--state', monitorState, '--key', LOG_VKEY]);

      // The honest service: events recorded, a checkpoint signed, cosigned and monitored.
      const honest = await startService(dataDir, witnessHttp.baseUrl);
      for (let n = 0; n < EVENTS; n += 1)
        await honest.composed.deps.ledger.append(
          [{ stream: 'drill-notes', type: 'DrillNoted', data: { n } }],
          META,
        );
      await honest.composed.deps.tlog.publish();
      await cosigned(EVENTS);
      const first = await monitor(honest.http.baseUrl);
      expect(first.status, first.stderr).to.equal(0);
      // A receipt the honest service gave for event 5 audits offline with the log key.
      const receiptFile = join(dir, 'receipt-5.json');
      writeFileSync(
        receiptFile,
        await fetch(`${honest.http.baseUrl}/api/ledger/receipt?seq=5`).then((r) => r.text()),
      );
      const audit = await runScriptAsync('ledger-audit.ts', [receiptFile, '--key', LOG_VKEY]);
      expect(audit.status, audit.stderr).to.equal(0);
      expect(audit.stdout).to.match(/^valid: seq 5 /);
      await honest.close();
      const honestWitnessed = witnessState.get(ORIGIN);

      // The insider forges the file, wipes the log's memory, and restarts the service.
      const contents = (await storedRows(dataDir)).map((r) => JSON.parse(r.content) as EventContent);
      rewriteLedger(dataDir, drill.forge(contents));
      const forged = await startService(dataDir, witnessHttp.baseUrl);
      try {
        // The restarted service verifies its (recomputed) chain and signs the forged tree.
        const checkpoint = await fetch(`${forged.http.baseUrl}/tlog/checkpoint`).then((r) => r.text());
        expect(checkpoint.split('\n')[1]).to.equal(String(drill.forge(contents).length));

        // The monitor names the lie and keeps the honest checkpoint as evidence.
        const caught = await monitor(forged.http.baseUrl);
        expect(caught.status, caught.stdout).to.equal(2);
        expect(caught.stderr).to.match(drill.verdict);
        expect(JSON.parse(readFileSync(monitorState, 'utf8'))).to.include({ size: EVENTS });

        // The witness refuses it, however it is submitted: from the size it cosigned, with the
        // forged tree's own consistency proof when there is one, or from scratch.
        const size = Number(checkpoint.split('\n')[1]);
        let proof: string[] = [];
        if (size >= EVENTS) {
          const res = await fetch(
            `${forged.http.baseUrl}/api/ledger/proof/consistency?from=${EVENTS}&to=${size}`,
          );
          proof = ((await res.json()) as { consistency_proof: string[] }).consistency_proof;
        }
        const post = (body: string) =>
          fetch(`${witnessHttp.baseUrl}/add-checkpoint`, { method: 'POST', body }).then(async (r) => ({
            status: r.status,
            body: await r.text(),
          }));
        const fromCosigned = await post(
          `old ${EVENTS}\n${proof.map((p) => `${p}\n`).join('')}\n${checkpoint}`,
        );
        expect(fromCosigned.status).to.equal(size < EVENTS ? 400 : size === EVENTS ? 409 : 422);
        expect(await post(`old 0\n\n${checkpoint}`)).to.deep.equal({ status: 409, body: `${EVENTS}\n` });
        expect(witnessState.get(ORIGIN)).to.deep.equal(honestWitnessed);
        expect(openStateFile(join(dir, 'witness.json')).get(ORIGIN)).to.deep.equal(honestWitnessed);
      } finally {
        await forged.close();
      }
    });
  }
});
