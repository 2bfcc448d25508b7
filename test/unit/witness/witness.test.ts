/**
 * The witness's add-checkpoint contract (c2sp.org/tlog-witness), in process: status codes, the
 * 409 text/x.tlog.size body, cosignature/v1 lines the SDK verifies, durable state, and — the point
 * of a witness — never cosigning a checkpoint inconsistent with one it cosigned.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ManualClock } from '../../../src/platform/clock.js';
import { verifyCheckpoint } from '../../../src/sdk/index.js';
import { createWitnessServer, keyFromSeed, openStateFile, Witness } from '../../../src/witness/index.js';
import { LOG_ORIGIN, logKey, TestLog, witnessKey } from '../../support/tlog-fixture.js';

describe('witness: POST /add-checkpoint', () => {
  let dir: string;
  let statePath: string;
  let clock: ManualClock;
  const wkey = witnessKey();

  const makeWitness = () =>
    new Witness({
      key: wkey,
      state: openStateFile(statePath),
      clock,
      logs: [{ origin: LOG_ORIGIN, keys: [logKey().noteVkey] }],
    });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-witness-'));
    statePath = join(dir, 'state.json');
    clock = new ManualClock('2026-06-15T12:00:00Z');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const T0 = Date.parse('2026-06-15T12:00:00Z') / 1000;

  it('cosigns a first checkpoint (old 0, no proof) with a cosignature/v1 line the SDK verifies', async () => {
    const log = new TestLog().append('a', 'b', 'c');
    const res = await makeWitness().addCheckpoint(log.addCheckpointBody(0));
    expect(res.status).to.equal(200);
    expect(res.body).to.match(/^— witness\.test\/w1 [A-Za-z0-9+/]+=*\n$/);
    const cosigned = `${log.checkpoint()}${res.body}`;
    const verified = await verifyCheckpoint(cosigned, logKey().noteVkey, {
      witnesses: [wkey.vkey],
      quorum: 1,
    });
    expect(verified.size).to.equal(3);
    expect(verified.cosignatures).to.deep.equal([{ name: 'witness.test/w1', timestamp: T0 }]);
  });

  it('cosigns a larger checkpoint with a consistency proof from the size it cosigned, and remembers it across restarts', async () => {
    const log = new TestLog().append('a', 'b', 'c');
    expect((await makeWitness().addCheckpoint(log.addCheckpointBody(0))).status).to.equal(200);
    log.append('d', 'e', 'f', 'g');
    clock.advance(60_000);
    const restarted = makeWitness();
    const res = await restarted.addCheckpoint(log.addCheckpointBody(3));
    expect(res.status).to.equal(200);
    const verified = await verifyCheckpoint(`${log.checkpoint()}${res.body}`, logKey().noteVkey, {
      witnesses: [wkey.vkey],
      quorum: 1,
    });
    expect(verified.cosignatures[0]?.timestamp).to.equal(T0 + 60);
    const saved = JSON.parse(readFileSync(statePath, 'utf8')) as { logs: Record<string, { size: number }> };
    expect(saved.logs[LOG_ORIGIN]?.size).to.equal(7);
  });

  it('answers 409 text/x.tlog.size with its known size when old does not match', async () => {
    const witness = makeWitness();
    const log = new TestLog().append('a', 'b', 'c', 'd');
    expect((await witness.addCheckpoint(log.addCheckpointBody(0))).status).to.equal(200);
    log.append('e');
    const stale = await witness.addCheckpoint(log.addCheckpointBody(0, 5));
    expect(stale).to.deep.equal({ status: 409, contentType: 'text/x.tlog.size', body: '4\n' });
    const wrong = await witness.addCheckpoint(log.addCheckpointBody(2, 5));
    expect(wrong).to.deep.equal({ status: 409, contentType: 'text/x.tlog.size', body: '4\n' });
  });

  it('refuses a checkpoint inconsistent with the one it cosigned: 422 for a split history, 409 for another root of the same size', async () => {
    const witness = makeWitness();
    const honest = new TestLog().append('a', 'b', 'c', 'd');
    expect((await witness.addCheckpoint(honest.addCheckpointBody(0))).status).to.equal(200);
    // The same log key signs a history with entry 2 edited and the rest re-hashed.
    const forked = new TestLog().append('a', 'b', 'C', 'd', 'e');
    const split = await witness.addCheckpoint(forked.addCheckpointBody(4));
    expect(split.status).to.equal(422);
    expect(split.body).to.match(/not consistent with the cosigned size 4/);
    const sameSize = new TestLog().append('a', 'b', 'C', 'd');
    expect(await witness.addCheckpoint(sameSize.addCheckpointBody(4))).to.deep.equal({
      status: 409,
      contentType: 'text/x.tlog.size',
      body: '4\n',
    });
    // A truncated log (a rollback) cannot even state an old size the witness accepts.
    const truncated = new TestLog().append('a', 'b');
    expect((await witness.addCheckpoint(truncated.addCheckpointBody(0))).status).to.equal(409);
    expect((await witness.addCheckpoint(`old 4\n\n${truncated.checkpoint()}`)).status).to.equal(400);
    // Nothing it refused moved its state.
    const saved = JSON.parse(readFileSync(statePath, 'utf8')) as {
      logs: Record<string, { size: number; root: string }>;
    };
    expect(saved.logs[LOG_ORIGIN]).to.include({ size: 4, root: honest.text().split('\n')[2] });
  });

  it('answers 422 for a bad consistency proof and for a proof where none is due', async () => {
    const witness = makeWitness();
    const log = new TestLog().append('a', 'b', 'c');
    const withProof = `old 0\n${Buffer.alloc(32).toString('base64')}\n\n${log.checkpoint()}`;
    expect((await witness.addCheckpoint(withProof)).status).to.equal(422);
    expect((await witness.addCheckpoint(log.addCheckpointBody(0))).status).to.equal(200);
    log.append('d', 'e');
    const [first, ...rest] = log.consistency(3);
    const flipped = Buffer.from(first!, 'base64');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    const bad = `old 3\n${[flipped.toString('base64'), ...rest].map((p) => `${p}\n`).join('')}\n${log.checkpoint()}`;
    expect((await witness.addCheckpoint(bad)).status).to.equal(422);
    expect((await witness.addCheckpoint(`old 3\n\n${log.checkpoint()}`)).status).to.equal(422);
  });

  it('answers 404 for an unknown origin and 403 when no trusted key signed', async () => {
    const witness = makeWitness();
    const other = new TestLog(logKey('elsewhere.test/log'), 'elsewhere.test/log').append('a');
    expect((await witness.addCheckpoint(other.addCheckpointBody(0))).status).to.equal(404);
    // Our origin, signed by a key the witness does not trust for it.
    const impostor = new TestLog(witnessKey(LOG_ORIGIN), LOG_ORIGIN).append('a');
    expect((await witness.addCheckpoint(impostor.addCheckpointBody(0))).status).to.equal(403);
    // Our key's signature over other bytes.
    const log = new TestLog().append('a');
    const tampered = log.addCheckpointBody(0).replace(`\n1\n`, `\n2\n`);
    expect((await witness.addCheckpoint(tampered)).status).to.equal(403);
  });

  it('trusts every key given for one origin (--log <old> --log <new> while the log key is rotated), one history for both', async () => {
    const rotated = keyFromSeed(LOG_ORIGIN, new Uint8Array(32).fill(0x03));
    const witness = new Witness({
      key: wkey,
      state: openStateFile(statePath),
      clock,
      logs: [
        { origin: LOG_ORIGIN, keys: [logKey().noteVkey] },
        { origin: LOG_ORIGIN, keys: [rotated.noteVkey] },
      ],
    });
    const before = new TestLog().append('a', 'b');
    expect((await witness.addCheckpoint(before.addCheckpointBody(0))).status).to.equal(200);
    const after = new TestLog(rotated).append('a', 'b', 'c');
    expect((await witness.addCheckpoint(after.addCheckpointBody(2))).status).to.equal(200);
    // Under the new key, a checkpoint that does not extend what the old key's was cosigned for.
    const forked = new TestLog(rotated).append('a', 'x', 'c', 'd');
    expect((await witness.addCheckpoint(forked.addCheckpointBody(3))).status).to.equal(422);
  });

  it('answers 400 for malformed bodies and old sizes above the checkpoint', async () => {
    const witness = makeWitness();
    const log = new TestLog().append('a', 'b');
    for (const body of [
      '',
      'old\n\n',
      `old 01\n\n${log.checkpoint()}`,
      `old 0\n${log.checkpoint()}`,
      `old 0\nnot base64!\n\n${log.checkpoint()}`,
      `old 0\n\n${log.text()}`,
    ])
      expect((await witness.addCheckpoint(body)).status, JSON.stringify(body)).to.equal(400);
    expect((await witness.addCheckpoint(`old 3\n\n${log.checkpoint()}`)).status).to.equal(400);
    expect(
      (
        await witness.addCheckpoint(
          `old 0\n${'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n'.repeat(64)}\n${log.checkpoint()}`,
        )
      ).status,
    ).to.equal(400);
  });

  it('handles concurrent submissions one at a time, so it never rolls back', async () => {
    const witness = makeWitness();
    const log = new TestLog().append('a', 'b');
    expect((await witness.addCheckpoint(log.addCheckpointBody(0))).status).to.equal(200);
    log.append('c', 'd', 'e', 'f');
    const [small, large] = await Promise.all([
      witness.addCheckpoint(log.addCheckpointBody(2, 3)),
      witness.addCheckpoint(log.addCheckpointBody(2, 6)),
    ]);
    expect(small.status).to.equal(200);
    expect(large).to.deep.equal({ status: 409, contentType: 'text/x.tlog.size', body: '3\n' });
    expect((await witness.addCheckpoint(log.addCheckpointBody(3, 6))).status).to.equal(200);
    const saved = JSON.parse(readFileSync(statePath, 'utf8')) as { logs: Record<string, { size: number }> };
    expect(saved.logs[LOG_ORIGIN]?.size).to.equal(6);
  });

  // Past the 64 KiB cap the handler destroyed the request before writing its 400, which closed the
  // socket first: the submitter saw a connection reset, never 'request body too large'.
  it('answers a body past its cap 400 "request body too large", and goes on serving', async () => {
    const server = createWitnessServer(makeWitness());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const big = await fetch(`${base}/add-checkpoint`, { method: 'POST', body: 'x'.repeat(70_000) });
      expect(big.status).to.equal(400);
      expect(await big.text()).to.equal('request body too large\n');
      const log = new TestLog().append('a', 'b', 'c');
      const ok = await fetch(`${base}/add-checkpoint`, { method: 'POST', body: log.addCheckpointBody(0) });
      expect(ok.status).to.equal(200);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
