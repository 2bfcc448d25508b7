/**
 * The service as a tlog-witness client (C2SP tlog-witness, tlog-cosignature): each new checkpoint
 * goes to every WITNESS_URLS entry with a consistency proof from the witness's last size, and the
 * cosignatures that come back are served with the checkpoint. The witness here follows the spec's
 * add-checkpoint rules (403 unknown key, 409 with text/x.tlog.size on a stale old size, 422 on a
 * bad proof) and keeps only its last cosigned size and root, as a real one does.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { parseCheckpointText } from '../../src/platform/tlog/checkpoint.js';
import { verifyConsistency } from '../../src/platform/tlog/merkle.js';
import {
  cosignatureLine,
  cosignatureTime,
  ed25519Signer,
  parseNote,
  parseVerifierKey,
  SIG_COSIGNATURE_V1,
  signatureLine,
  verifyNote,
  type NoteVerifier,
} from '../../src/platform/tlog/note.js';
import { parseVerifierKey as sdkVerifierKey, verifyCheckpoint, verifyReceipt } from '../../src/sdk/index.js';
import { startService, type TestService } from '../support/service.js';

interface Witness {
  url: string;
  verifierKey: string;
  state: { size: number; root: Buffer | null };
  requests: string[];
  /** While set, the witness answers only once it resolves (a witness slower than the log signs). */
  hold: Promise<void> | null;
  /** Answers 503 to every submission after this many (it went down). */
  downAfter: number;
  close(): Promise<void>;
}

async function startWitness(
  logKey: () => NoteVerifier,
  now: () => number,
  /** What the witness answers around its cosignature line (a misbehaving witness). */
  reply: (cosignature: string) => string = (line) => line,
): Promise<Witness> {
  const signer = ed25519Signer('witness.test/w1', Buffer.alloc(32, 9), SIG_COSIGNATURE_V1);
  const state: Witness['state'] = { size: 0, root: null };
  const requests: string[] = [];
  const witness = { hold: null, downAfter: Infinity } as Witness;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      requests.push(body);
      const nth = requests.length;
      void (witness.hold ?? Promise.resolve()).then(() => respond(nth));
    });
    const respond = (nth: number) => {
      if (nth > witness.downAfter) return void res.writeHead(503).end('down\n');
      const answer = (status: number, text: string, type = 'text/plain; charset=utf-8') => {
        res.writeHead(status, { 'content-type': type }).end(text);
      };
      const split = body.indexOf('\n\n');
      const head = body.slice(0, split).split('\n');
      const note = body.slice(split + 2);
      const old = Number(/^old (\d+)$/.exec(head[0] ?? '')?.[1] ?? NaN);
      const proof = head.slice(1).map((l) => Buffer.from(l, 'base64'));
      const parsed = parseNote(note);
      const c = parsed && parseCheckpointText(parsed.text);
      if (req.url !== '/add-checkpoint' || !c || Number.isNaN(old)) return answer(400, 'bad request\n');
      if (!verifyNote(note, logKey())) return answer(403, 'unknown key\n');
      if (old > c.size) return answer(400, 'old size beyond the checkpoint\n');
      if (old !== state.size) return answer(409, `${state.size}\n`, 'text/x.tlog.size');
      if (!verifyConsistency(old, c.size, state.root ?? Buffer.alloc(32), c.root, proof))
        return answer(422, 'inconsistent\n');
      state.size = c.size;
      state.root = c.root;
      return answer(200, reply(cosignatureLine(parsed.text, signer, now())));
    };
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(witness, {
    url: `http://127.0.0.1:${port}`,
    verifierKey: signer.verifierKey,
    state,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

describe('transparency log witnesses (C2SP tlog-witness client)', function () {
  this.timeout(30_000);
  let svc: TestService;
  let witness: Witness;
  let reply: (cosignature: string) => string;
  const meta = { org_id: null, actor: 'witness-test', request_id: 'req_witness' };
  const append = (n: number) =>
    svc.composed.deps.ledger.append(
      Array.from({ length: n }, (_, i) => ({ stream: 'witnessed', type: 'WitnessNoted', data: { i } })),
      meta,
    );

  beforeEach(async () => {
    reply = (line) => line;
    witness = await startWitness(
      () => parseVerifierKey(svc.composed.deps.tlog.verifierKey),
      () => 1_750_000_000,
      (line) => reply(line),
    );
    svc = await startService({ compose: { witnessUrls: [witness.url] } });
  });
  afterEach(async () => {
    await svc.close();
    await witness.close();
  });

  it('submits each checkpoint with a proof from the witness’s size and serves the cosigned checkpoint', async () => {
    const key = await svc.key('Monitor', ['tlog:read']);
    const tlog = svc.composed.deps.tlog;
    await append(10);
    const first = (await tlog.publish())!;
    await tlog.witnessesSettled();
    expect(witness.requests[0]!.startsWith('old 0\n\n')).to.equal(true);
    expect(witness.state.size).to.equal(first.size);

    await append(300);
    const second = (await tlog.publish())!;
    await tlog.witnessesSettled();
    expect(witness.requests[1]!.startsWith(`old ${first.size}\n`)).to.equal(true);
    expect(witness.state.size).to.equal(second.size);

    const served = await request(svc.app).get('/tlog/checkpoint').set('Authorization', `Bearer ${key.key}`);
    const wv = parseVerifierKey(witness.verifierKey);
    expect(cosignatureTime(served.text, wv)).to.equal(1_750_000_000);
    expect(verifyNote(served.text, parseVerifierKey(tlog.verifierKey))).to.equal(true);
    const cosigned = await request(svc.app)
      .get('/tlog/checkpoint/cosigned')
      .set('Authorization', `Bearer ${key.key}`);
    expect(cosigned.text).to.equal(served.text);
  });

  // The cosigned checkpoint stored by an earlier start was served after a restart with no
  // witnesses (or another set), though none of the configured ones had cosigned it.
  it('serves a stored cosigned checkpoint only while the same witnesses are configured', async () => {
    const key = await svc.key('Monitor', ['tlog:read']);
    const cosigned = () =>
      request(svc.app).get('/tlog/checkpoint/cosigned').set('Authorization', `Bearer ${key.key}`);
    await append(5);
    await svc.composed.deps.tlog.publish();
    await svc.composed.deps.tlog.witnessesSettled();
    const before = await cosigned();
    expect(before.status).to.equal(200);
    await svc.restart({ witnessUrls: [] });
    expect((await cosigned()).status).to.equal(404);
    await svc.restart({ witnessUrls: [witness.url, 'http://127.0.0.1:9/another-witness'] });
    expect((await cosigned()).status).to.equal(404);
    await svc.restart({ witnessUrls: [witness.url] });
    expect((await cosigned()).text).to.equal(before.text);
  });

  it('resubmits from the size a witness says it holds (409 text/x.tlog.size)', async () => {
    const tlog = svc.composed.deps.tlog;
    await append(5);
    await tlog.publish();
    await tlog.witnessesSettled();
    // The witness lost its state (a fresh deployment): it holds nothing, the log believes otherwise.
    witness.state.size = 0;
    witness.state.root = null;
    await append(5);
    const latest = (await tlog.publish())!;
    await tlog.witnessesSettled();
    expect(witness.requests.slice(-2).map((r) => r.split('\n')[0])).to.deep.equal(['old 5', 'old 0']);
    expect(witness.state.size).to.equal(latest.size);
    expect(cosignatureTime(tlog.servedCheckpoint()!, parseVerifierKey(witness.verifierKey))).to.equal(
      1_750_000_000,
    );
  });

  it('serves only well-formed cosignature lines: a witness cannot make clients reject the log’s checkpoint', async () => {
    const tlog = svc.composed.deps.tlog;
    const logKey = parseVerifierKey(tlog.verifierKey);
    // A witness (or whoever answers for its URL) adds a line under the log's own name and key id, a
    // line that is no signature line, and one under its own name that is too short to be a
    // cosignature: any of them served would make every client reject the whole checkpoint.
    reply = (line) =>
      `${signatureLine(logKey.name, logKey.keyId, Buffer.alloc(72, 1))}— garbage\n` +
      `${signatureLine('witness.test/w1', Buffer.alloc(4, 2), Buffer.alloc(64, 3))}${line}`;
    await append(3);
    await tlog.publish();
    await tlog.witnessesSettled();
    const served = tlog.servedCheckpoint()!;
    const sdkKey = sdkVerifierKey(tlog.verifierKey);
    const checked = await verifyCheckpoint(served, sdkKey, { witnesses: [witness.verifierKey], quorum: 1 });
    expect(checked.cosignatures.map((c) => c.name)).to.deep.equal(['witness.test/w1']);
    expect(parseNote(served)!.signatures).to.have.length(2);
    const key = await svc.key('Auditor', ['tlog:read']);
    const receipt = await request(svc.app)
      .get('/api/ledger/receipt?seq=3')
      .set('Authorization', `Bearer ${key.key}`);
    expect((receipt.body as { checkpoint: string }).checkpoint).to.equal(served);
    expect(await verifyReceipt(receipt.body, sdkKey)).to.include({ valid: true, seq: 3 });
  });

  it('submits the latest checkpoint once a slow witness answers, and keeps the cosigned checkpoint current', async () => {
    const tlog = svc.composed.deps.tlog;
    const key = await svc.key('Monitor', ['tlog:read']);
    let release!: () => void;
    witness.hold = new Promise((resolve) => (release = resolve));
    await append(2);
    const first = (await tlog.publish())!;
    // Two more checkpoints are signed while the witness still works on the first.
    await append(3);
    await tlog.publish();
    await append(1);
    const latest = (await tlog.publish())!;
    release();
    witness.hold = null;
    await tlog.witnessesSettled();
    expect(witness.requests.map((r) => r.split('\n')[0])).to.deep.equal(['old 0', `old ${first.size}`]);
    expect(witness.state.size).to.equal(latest.size);
    const wv = parseVerifierKey(witness.verifierKey);
    const served = await request(svc.app).get('/tlog/checkpoint').set('Authorization', `Bearer ${key.key}`);
    expect(parseCheckpointText(parseNote(served.text)!.text)!.size).to.equal(latest.size);
    expect(cosignatureTime(served.text, wv)).to.equal(1_750_000_000);
    const cosigned = await request(svc.app)
      .get('/tlog/checkpoint/cosigned')
      .set('Authorization', `Bearer ${key.key}`);
    expect(cosigned.text).to.equal(served.text);
  });

  it('counts a cosignature that comes back after a newer checkpoint was signed', async () => {
    const tlog = svc.composed.deps.tlog;
    let release!: () => void;
    witness.hold = new Promise((resolve) => (release = resolve));
    await append(2);
    const first = (await tlog.publish())!;
    await append(1);
    await tlog.publish();
    // The witness cosigns the first checkpoint, then goes down before it sees the second.
    witness.downAfter = 1;
    release();
    witness.hold = null;
    await tlog.witnessesSettled();
    expect(witness.requests).to.have.length(2);
    const cosigned = tlog.cosigned!;
    expect(parseCheckpointText(parseNote(cosigned)!.text)!.size).to.equal(first.size);
    expect(cosignatureTime(cosigned, parseVerifierKey(witness.verifierKey))).to.equal(1_750_000_000);
  });
});
