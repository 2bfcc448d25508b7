/**
 * The log's signing key changed between two starts (TLOG_SIGNING_SEED, or the seed in
 * DATA_DIR/secrets.json): the node announces the new verifier key at once, so what it serves —
 * GET /tlog/checkpoint and every receipt — must verify under that key before the ledger moves,
 * never for a smaller size (docs/transparency-log.md, "Rotating the signing key"). On EventStoreDB
 * the nodes share one key: a node whose last checkpoint another key signed refuses to start
 * unless the operator declared the rotation (TLOG_PREVIOUS_KEY).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { ManualClock } from '../../src/platform/clock.js';
import { createLogger, type Logger } from '../../src/platform/log.js';
import { LogKeyChanged } from '../../src/platform/tlog/log.js';
import { ed25519Signer } from '../../src/platform/tlog/note.js';
import { verifyCheckpoint, verifyReceipt, type LedgerReceipt } from '../../src/sdk/index.js';
import { keyFromSeed, openStateFile, Witness, witnessHandler } from '../../src/witness/index.js';
import { startEsdbStandin, type EsdbStandin } from '../support/esdb-standin/index.js';
import { startService, type TestService } from '../support/service.js';

const SEED_A = 'a1'.repeat(32);
const SEED_B = 'b2'.repeat(32);
const SEED_C = 'c3'.repeat(32);
const META = { org_id: null, actor: 'test', request_id: 'req_tlog_rotation' };

/** A logger that keeps its warnings. */
function warnings(): { logger: Logger; warned: { msg: string; fields?: Record<string, unknown> }[] } {
  const warned: { msg: string; fields?: Record<string, unknown> }[] = [];
  const silent = createLogger('silent');
  return {
    warned,
    logger: {
      ...silent,
      warn: (msg, fields) => {
        warned.push({ msg, ...(fields ? { fields } : {}) });
      },
    },
  };
}

async function appendNotes(svc: TestService, n: number): Promise<void> {
  const batch = Array.from({ length: n }, (_, i) => ({
    stream: 'test-notes',
    type: 'TestNoted',
    data: { n: i },
  }));
  await svc.composed.deps.ledger.append(batch, META);
}

describe('transparency log: a restart with another signing key', function () {
  this.timeout(30_000);
  let svc: TestService;
  afterEach(async () => {
    await svc?.close();
  });

  it('serves, before the ledger moves, a checkpoint and receipts the announced key verifies, of no smaller size', async () => {
    svc = await startService({ compose: { tlogSeed: SEED_A } });
    const keyA = svc.composed.deps.tlog.verifierKey;
    const reader = await svc.key('Ledger Auditor LLP', ['ledger:read', 'credit:read']);
    const auth = ['Authorization', `Bearer ${reader.key}`] as const;
    await appendNotes(svc, 30);
    const receiptA = (
      await request(svc.app)
        .get('/api/ledger/receipt?seq=5')
        .set(...auth)
    ).body as LedgerReceipt;
    const signedA = await verifyCheckpoint(receiptA.checkpoint, keyA);

    const { logger, warned } = warnings();
    await svc.restart({ tlogSeed: SEED_B, logger });
    const keyB = svc.composed.deps.tlog.verifierKey;
    expect(keyB).to.not.equal(keyA);
    const discovery = await request(svc.app)
      .get('/api/lender-credit')
      .set(...auth);
    expect(discovery.body.transparency_log.verifier_key).to.equal(keyB);

    const served = await request(svc.app)
      .get('/tlog/checkpoint')
      .set(...auth);
    expect(served.status).to.equal(200);
    const underB = await verifyCheckpoint(served.text, keyB);
    expect(underB.size).to.be.at.least(signedA.size);
    // The same size and root the old key signed, and its line kept: the note ties the two keys.
    expect(underB.size).to.equal(signedA.size);
    expect(Buffer.from(underB.root).equals(Buffer.from(signedA.root))).to.equal(true);
    expect((await verifyCheckpoint(served.text, keyA)).size).to.equal(signedA.size);

    // A receipt of an event recorded before the restart, and one a recording response names.
    const older = (
      await request(svc.app)
        .get('/api/ledger/receipt?seq=5')
        .set(...auth)
    ).body as LedgerReceipt;
    expect(await verifyReceipt(older, keyB)).to.include({ valid: true });
    const writer = await svc.key('First Builders Bank');
    const recorded = await request(svc.app)
      .post('/api/entities')
      .set('Authorization', `Bearer ${writer.key}`)
      .send({ legal_name: 'Rotation Builders LLC', roles: ['general_contractor'] });
    expect(recorded.status, JSON.stringify(recorded.body)).to.equal(201);
    const fresh = await request(svc.app)
      .get(recorded.headers['ledger-receipt'] as string)
      .set(...auth);
    expect(await verifyReceipt(fresh.body as LedgerReceipt, keyB)).to.include({ valid: true });
    // Receipts issued before the rotation stay verifiable with the old key.
    expect(await verifyReceipt(receiptA, keyA)).to.include({ valid: true });

    const idOf = (vkey: string) => vkey.split('+')[1];
    const changed = warned.filter((w) => w.msg.includes('signing key changed'));
    expect(changed).to.have.length(1);
    expect(changed[0]!.fields).to.include({
      from: `plumbline.test/ledger+${idOf(keyA)}`,
      to: `plumbline.test/ledger+${idOf(keyB)}`,
      size: signedA.size,
    });

    // Started again with the same key: nothing to sign again, nothing to warn about.
    const again = warnings();
    await svc.restart({ tlogSeed: SEED_B, logger: again.logger });
    expect(again.warned.filter((w) => w.msg.includes('signing key changed'))).to.have.length(0);
    const latest = await request(svc.app)
      .get('/tlog/checkpoint')
      .set(...auth);
    expect((await verifyCheckpoint(latest.text, keyB)).size).to.equal(await svc.head());
  });

  describe('a witness (it follows a log by origin, trusting the verifier keys it is given)', () => {
    let dir: string;
    let server: Server;
    afterEach(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    });

    it('cosigns the checkpoint signed again, refuses the next under the new key until told it, then goes on from the size it cosigned', async () => {
      const origin = 'plumbline.test/ledger';
      const keyA = ed25519Signer(origin, Buffer.from(SEED_A, 'hex')).verifierKey;
      const keyB = ed25519Signer(origin, Buffer.from(SEED_B, 'hex')).verifierKey;
      dir = mkdtempSync(join(tmpdir(), 'plumbline-rotation-witness-'));
      const wkey = keyFromSeed('witness.test/w1', new Uint8Array(32).fill(7));
      const witnessTrusting = (keys: string[]) =>
        new Witness({
          key: wkey,
          state: openStateFile(join(dir, 'state.json')),
          clock: new ManualClock('2026-06-15T12:00:00Z'),
          logs: [{ origin, keys }],
        });
      let witness = witnessTrusting([keyA]);
      server = createServer((req, res) => witnessHandler(witness)(req, res));
      server.listen(18682, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const witnessUrls = ['http://127.0.0.1:18682'];
      const tlog = () => svc.composed.deps.tlog;

      svc = await startService({ compose: { tlogSeed: SEED_A, witnessUrls } });
      await appendNotes(svc, 9);
      await tlog().publish();
      await tlog().witnessesSettled();
      expect(tlog().cosigned).to.be.a('string');

      await svc.restart({ tlogSeed: SEED_B, witnessUrls });
      // The cosigned checkpoint an earlier start kept is the old key's: not served as cosigned.
      await tlog().witnessesSettled();
      // Same size and root, and the old key's line on it: the witness trusting A cosigns it.
      const transition = tlog().cosigned!;
      const cosignedUnderB = await verifyCheckpoint(transition, keyB, { witnesses: [wkey.vkey], quorum: 1 });
      expect(cosignedUnderB.size).to.equal(9);
      const witnessed = () => openStateFile(join(dir, 'state.json')).get(origin)?.size;
      expect(witnessed()).to.equal(9);

      // Signed by B alone: a witness trusting only A refuses it (403), and keeps size 9.
      await appendNotes(svc, 5);
      await tlog().publish();
      await tlog().witnessesSettled();
      expect(witnessed()).to.equal(9);
      expect(tlog().cosigned).to.equal(transition);

      witness = witnessTrusting([keyA, keyB]); // the operator gave the witness the new key
      await appendNotes(svc, 2);
      await tlog().publish();
      await tlog().witnessesSettled();
      const next = await verifyCheckpoint(tlog().cosigned!, keyB, { witnesses: [wkey.vkey], quorum: 1 });
      expect(next.size).to.equal(16);
    });
  });

  describe('on EventStoreDB (several nodes sign one ledger)', () => {
    let standin: EsdbStandin;
    afterEach(async () => {
      await standin.stop();
    });

    it('refuses to start with another key than the one that signed its last checkpoint, unless TLOG_PREVIOUS_KEY declares the rotation', async () => {
      standin = await startEsdbStandin({ port: 18681 });
      svc = await startService({ compose: { eventStoreUrl: standin.url, tlogSeed: SEED_A } });
      const keyA = svc.composed.deps.tlog.verifierKey;
      await appendNotes(svc, 12);
      const signedA = (await svc.composed.deps.tlog.publish())!;
      expect(signedA.size).to.equal(await svc.head());

      let refused: unknown;
      await svc.restart({ tlogSeed: SEED_B }).catch((error: unknown) => {
        refused = error;
      });
      expect(refused).to.be.instanceOf(LogKeyChanged);
      expect((refused as Error).message).to.include(`plumbline.test/ledger+${keyA.split('+')[1]}`);

      await svc.restart({ tlogSeed: SEED_B, tlogPreviousKey: keyA });
      const keyB = svc.composed.deps.tlog.verifierKey;
      const note = svc.composed.deps.tlog.servedCheckpoint()!;
      expect((await verifyCheckpoint(note, keyB)).size).to.equal(signedA.size);

      // The rotation is done: a node given a third key is refused, TLOG_PREVIOUS_KEY still set.
      refused = undefined;
      await svc.restart({ tlogSeed: SEED_C, tlogPreviousKey: keyA }).catch((error: unknown) => {
        refused = error;
      });
      expect(refused).to.be.instanceOf(LogKeyChanged);
      await svc.restart({ tlogSeed: SEED_B, tlogPreviousKey: keyA });
      expect(svc.composed.deps.tlog.verifierKey).to.equal(keyB);
    });
  });
});
