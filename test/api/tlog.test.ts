/**
 * The transparency log as served (docs/transparency-log.md): a checkpoint signed with the key the
 * service announces, tiles and entry bundles from which a client rebuilds the same root, receipts
 * and consistency proofs that verify with nothing but the verifier key — and the access rules.
 */
import { expect } from 'chai';
import request from 'supertest';
import { linkHash } from '../../src/platform/ledger/envelope.js';
import { openCheckpoint } from '../../src/platform/tlog/checkpoint.js';
import { CHECKPOINT_EVERY_MS } from '../../src/platform/tlog/log.js';
import { verifyReceipt } from '../../src/sdk/transparency.js';
import {
  leafHash,
  rootOfLeafHashes,
  verifyConsistency,
  verifyInclusion,
} from '../../src/platform/tlog/merkle.js';
import { parseVerifierKey } from '../../src/platform/tlog/note.js';
import { decodeEntryBundle } from '../../src/platform/tlog/tiles.js';
import { binary } from '../support/binary.js';
import { startService, type TestService } from '../support/service.js';

const META = { org_id: null, actor: 'test', request_id: 'req_tlog' };

async function appendNotes(svc: TestService, n: number): Promise<void> {
  for (let i = 0; i < n; i += 100) {
    const batch = Array.from({ length: Math.min(100, n - i) }, (_, j) => ({
      stream: 'test-notes',
      type: 'TestNoted',
      data: { n: i + j },
    }));
    await svc.composed.deps.ledger.append(batch, META);
  }
}

function bytesOf(res: request.Response): Buffer {
  return Buffer.from(res.body as Buffer);
}

describe('transparency log API (C2SP tlog-tiles, receipts, proofs)', function () {
  this.timeout(30_000);
  let svc: TestService;
  let auth: [string, string];
  beforeEach(async () => {
    svc = await startService();
    const key = await svc.key('Witness Operator', ['tlog:read']);
    auth = ['Authorization', `Bearer ${key.key}`];
  });
  afterEach(async () => {
    await svc.close();
  });

  const get = (path: string) =>
    request(svc.app)
      .get(path)
      .set(...auth)
      .buffer(true)
      .parse(binary);

  it('needs a ledger:read or tlog:read key, and answers 403 to a key with neither', async () => {
    expect((await request(svc.app).get('/tlog/checkpoint')).status).to.equal(401);
    const lender = await svc.key('Some Bank', ['credit:read']);
    const res = await request(svc.app).get('/tlog/checkpoint').set('Authorization', `Bearer ${lender.key}`);
    expect(res.status).to.equal(403);
    const reader = await svc.key('Auditor', ['ledger:read']);
    expect(
      (await request(svc.app).get('/tlog/checkpoint').set('Authorization', `Bearer ${reader.key}`)).status,
    ).to.equal(200);
  });

  it('GET /api/ledger/:seq takes a decimal seq only (not 0x10 or 1e1), as a 400 problem', async () => {
    await appendNotes(svc, 20);
    const reader = await svc.key('Auditor', ['ledger:read']);
    const at = (seq: string) =>
      request(svc.app).get(`/api/ledger/${seq}`).set('Authorization', `Bearer ${reader.key}`);
    expect((await at('16')).body.seq).to.equal(16);
    for (const odd of ['0x10', '1e1', '16.0', '+16', ' 16', '0', '-1', '9'.repeat(400)]) {
      const res = await at(encodeURIComponent(odd));
      expect(res.status, odd).to.equal(400);
      expect(res.headers['content-type'], odd).to.match(/^application\/problem\+json/);
    }
    expect((await at('999999')).status).to.equal(404);
  });

  it('takes receipt seqs, consistency sizes and ledger page positions as decimal digits only (400 otherwise)', async () => {
    await appendNotes(svc, 40);
    const reader = await svc.key('Auditor', ['ledger:read']);
    const at = (path: string) => request(svc.app).get(path).set('Authorization', `Bearer ${reader.key}`);
    expect((await at('/api/ledger/receipt?seq=16')).body.event.seq).to.equal(16);
    const proof = await at('/api/ledger/proof/consistency?from=10&to=20');
    expect(proof.body).to.include({ from: 10, to: 20 });
    expect((await at('/api/ledger?after=16&limit=1')).body.events[0].seq).to.equal(17);
    // z.coerce read 0x10 as 16, 1e1 as 10 and an empty or blank value as 0: a proof for a size the
    // caller never named (`to=` gave the proof to the empty tree).
    for (const odd of ['0x10', '1e1', '16.0', '+16', ' 16', '', '%20', '-1', '9'.repeat(400)]) {
      for (const path of [
        `/api/ledger/receipt?seq=${odd}`,
        `/api/ledger/proof/inclusion?seq=${odd}`,
        `/api/ledger/proof/consistency?from=${odd}&to=20`,
        `/api/ledger/proof/consistency?from=1&to=${odd}`,
        `/api/ledger?after=${odd}`,
      ]) {
        const res = await at(path);
        expect(res.status, path).to.equal(400);
        expect(res.headers['content-type'], path).to.match(/^application\/problem\+json/);
      }
    }
    expect((await at('/api/ledger/proof/consistency?from=20&to=10')).status).to.equal(400);
    expect((await at('/api/ledger/proof/consistency?from=0&to=999999')).status).to.equal(404);
    expect((await at('/api/ledger/receipt?seq=999999')).status).to.equal(404);
  });

  // A size the tree has but no checkpoint signs: the proof answered with `checkpoint: null`, to a
  // size nothing vouches for (the documented rule: `to` may not exceed the latest checkpoint's).
  it('refuses a consistency proof to a size past the latest signed checkpoint (404)', async () => {
    // A service that signs on its own schedule (a minute here): appends after a checkpoint wait for it.
    const live = await startService({ compose: { tlogPublishEveryMs: 60_000 } });
    try {
      await appendNotes(live, 5);
      const reader = await live.key('Auditor', ['ledger:read']);
      const signed = (await live.composed.deps.tlog.publish())!;
      await appendNotes(live, 3);
      const at = (path: string) => request(live.app).get(path).set('Authorization', `Bearer ${reader.key}`);
      const past = await at(`/api/ledger/proof/consistency?from=1&to=${signed.size + 2}`);
      expect(past.status).to.equal(404);
      expect(past.body.detail).to.include(`latest is ${signed.size}`);
      const atSigned = await at(`/api/ledger/proof/consistency?from=1&to=${signed.size}`);
      expect(atSigned.status).to.equal(200);
      expect(atSigned.body.checkpoint).to.be.a('string');
    } finally {
      await live.close();
    }
  });

  it('answers another method on a tile or entry bundle 405 with Allow: GET, HEAD, as on the checkpoint', async () => {
    await appendNotes(svc, 300);
    for (const path of [
      '/tlog/checkpoint',
      '/tlog/tile/0/000',
      '/tlog/tile/0/001.p/44',
      '/tlog/tile/entries/000',
    ]) {
      for (const method of ['post', 'put', 'delete', 'options'] as const) {
        const res = await request(svc.app)
          [method](path)
          .set(...auth);
        expect(res.status, `${method} ${path}`).to.equal(405);
        expect(res.headers.allow, `${method} ${path}`).to.equal('GET, HEAD');
      }
    }
  });

  // A tile or entry bundle asked for before it exists is 404 — a response RFC 9111 §4.2.2 lets a
  // shared cache keep without explicit freshness (CDNs do, for minutes to an hour), so clients
  // would go on being told the tile is missing after it filled. Every /tlog answer states its
  // caching: immutable for a full tile, no-store for everything else (errors included).
  it('answers a tile not there yet, and every /tlog error, with Cache-Control: no-store', async () => {
    await appendNotes(svc, 300);
    for (const path of [
      '/tlog/tile/0/001',
      '/tlog/tile/entries/001',
      '/tlog/tile/0/001.p/255',
      '/tlog/tile/1/000',
      '/tlog/tile/0/0001',
    ]) {
      const res = await get(path);
      expect(res.status, path).to.equal(404);
      expect(res.headers['cache-control'], path).to.equal('no-store');
    }
    const unauthenticated = await request(svc.app).get('/tlog/tile/0/000');
    expect(unauthenticated.status).to.equal(401);
    expect(unauthenticated.headers['cache-control']).to.equal('no-store');
    expect((await get('/tlog/tile/0/000')).headers['cache-control']).to.equal(
      'private, max-age=31536000, immutable',
    );
  });

  // A full tile was marked `public` however the log was served: behind a shared cache (a CDN, a
  // proxy) a tile or entry bundle fetched with a tlog:read key could be kept and handed to requests
  // with no key at all. Public only when the log is (TLOG_PUBLIC=1).
  it('marks a full tile public only when the log is public (TLOG_PUBLIC=1), else private', async () => {
    await appendNotes(svc, 300);
    for (const path of ['/tlog/tile/0/000', '/tlog/tile/entries/000']) {
      const res = await get(path);
      expect(res.status, path).to.equal(200);
      expect(res.headers['cache-control'], path).to.equal('private, max-age=31536000, immutable');
    }
    const open = await startService({ compose: { tlogPublic: true } });
    try {
      await appendNotes(open, 300);
      for (const path of ['/tlog/tile/0/000', '/tlog/tile/entries/000']) {
        const res = await request(open.app).get(path).buffer(true).parse(binary);
        expect(res.status, path).to.equal(200);
        expect(res.headers['cache-control'], path).to.equal('public, max-age=31536000, immutable');
      }
    } finally {
      await open.close();
    }
  });

  it('serves a checkpoint signed by the announced key, whose root the entry bundles and tiles rebuild', async () => {
    await appendNotes(svc, 300);
    const head = await svc.head();
    const res = await get('/tlog/checkpoint');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8');
    const note = bytesOf(res).toString('utf8');
    const verifier = parseVerifierKey(svc.composed.deps.tlog.verifierKey);
    const c = openCheckpoint(note, verifier, 'plumbline.test/ledger');
    expect(c?.size).to.equal(head);

    // Leaf inputs from the entry bundles: the chain links and the tree, without any event content.
    const full = await get('/tlog/tile/entries/000');
    expect(full.headers['cache-control']).to.equal('private, max-age=31536000, immutable');
    const partialWidth = head - 256;
    const partial = await get(`/tlog/tile/entries/001.p/${partialWidth}`);
    expect(partial.headers['cache-control']).to.equal('no-store');
    const inputs = [...decodeEntryBundle(bytesOf(full)), ...decodeEntryBundle(bytesOf(partial))];
    expect(inputs).to.have.length(head);
    let prev = '0'.repeat(64);
    for (const [i, input] of inputs.entries()) {
      const link = JSON.parse(input.toString('utf8')) as {
        seq: number;
        prev_hash: string;
        content_hash: string;
      };
      expect(link.seq).to.equal(i + 1);
      expect(link.prev_hash).to.equal(prev);
      prev = linkHash(link.seq, link.prev_hash, link.content_hash);
    }
    const leaves = inputs.map((input) => leafHash(input));
    expect(rootOfLeafHashes(leaves).equals(c!.root)).to.equal(true);

    const tile0 = bytesOf(await get('/tlog/tile/0/000'));
    expect(tile0.equals(Buffer.concat(leaves.slice(0, 256)))).to.equal(true);
    const tile1 = bytesOf(await get(`/tlog/tile/0/001.p/${partialWidth}`));
    expect(tile1.equals(Buffer.concat(leaves.slice(256)))).to.equal(true);
    expect((await get(`/tlog/tile/0/001.p/${partialWidth + 1}`)).status).to.equal(404);
    expect((await get('/tlog/tile/0/002')).status).to.equal(404);
    expect((await get('/tlog/tile/0/x000/001')).status).to.equal(404);
  });

  it('answers receipts by seq and by hash that verify against the signed checkpoint', async () => {
    await appendNotes(svc, 40);
    const verifier = parseVerifierKey(svc.composed.deps.tlog.verifierKey);
    const [event] = await svc.composed.store.read(17, 1);
    for (const query of ['seq=17', `hash=${event!.hash}`]) {
      const res = await request(svc.app)
        .get(`/api/ledger/receipt?${query}`)
        .set(...auth);
      expect(res.status, query).to.equal(200);
      const r = res.body;
      expect(r.event).to.deep.equal({
        seq: 17,
        prev_hash: event!.prev_hash,
        content_hash: event!.content_hash,
        hash: event!.hash,
      });
      const c = openCheckpoint(r.checkpoint, verifier)!;
      expect(c.size).to.equal(r.tree_size);
      const input = `{"content_hash":"${r.event.content_hash}","prev_hash":"${r.event.prev_hash}","seq":17}`;
      const proof = (r.inclusion_proof as string[]).map((p) => Buffer.from(p, 'base64'));
      expect(verifyInclusion(r.leaf_index, r.tree_size, leafHash(input), proof, c.root)).to.equal(true);
    }
    const inclusion = await request(svc.app)
      .get('/api/ledger/proof/inclusion?seq=3')
      .set(...auth);
    expect(inclusion.body.leaf_index).to.equal(2);
    expect(
      (
        await request(svc.app)
          .get('/api/ledger/receipt?seq=100000')
          .set(...auth)
      ).status,
    ).to.equal(404);
    expect(
      (
        await request(svc.app)
          .get(`/api/ledger/receipt?hash=${'a'.repeat(64)}`)
          .set(...auth)
      ).status,
    ).to.equal(404);
    expect(
      (
        await request(svc.app)
          .get('/api/ledger/receipt?seq=1&hash=' + event!.hash)
          .set(...auth)
      ).status,
    ).to.equal(400);
  });

  it('proves each new checkpoint consistent with an older one', async () => {
    await appendNotes(svc, 20);
    const verifier = parseVerifierKey(svc.composed.deps.tlog.verifierKey);
    const old = openCheckpoint(bytesOf(await get('/tlog/checkpoint')).toString('utf8'), verifier)!;
    await appendNotes(svc, 500);
    const res = await request(svc.app)
      .get(`/api/ledger/proof/consistency?from=${old.size}`)
      .set(...auth);
    expect(res.status).to.equal(200);
    const fresh = openCheckpoint(res.body.checkpoint, verifier)!;
    expect(res.body.to).to.equal(fresh.size);
    expect(fresh.size).to.equal(await svc.head());
    const proof = (res.body.consistency_proof as string[]).map((p) => Buffer.from(p, 'base64'));
    expect(verifyConsistency(old.size, fresh.size, old.root, fresh.root, proof)).to.equal(true);
    expect(verifyConsistency(old.size, fresh.size, fresh.root, fresh.root, proof)).to.equal(false);
    const bad = await request(svc.app)
      .get(`/api/ledger/proof/consistency?from=${fresh.size + 1}`)
      .set(...auth);
    expect(bad.status).to.equal(400);
  });

  describe('a recording response names its receipt (issue 16 item 4: "within a second")', () => {
    let live: TestService;
    afterEach(async () => {
      await live.close();
    });

    it('serves the receipt the Ledger-Receipt header names within a second, and it verifies with the SDK', async () => {
      // Signing as the running service does (src/main.ts), not on demand as the other specs.
      live = await startService({ compose: { tlogPublishEveryMs: CHECKPOINT_EVERY_MS } });
      const writer = await live.key('First Builders Bank');
      const reader = await live.key('Ledger Auditor LLP', ['ledger:read']);
      const vkey = live.composed.deps.tlog.verifierKey;
      for (const name of [
        'Receipt Builders LLC',
        'Second Receipt Builders LLC',
        'Third Receipt Builders LLC',
      ]) {
        const recorded = await request(live.app)
          .post('/api/entities')
          .set('Authorization', `Bearer ${writer.key}`)
          .send({ legal_name: name, roles: ['general_contractor'] });
        expect(recorded.status, JSON.stringify(recorded.body)).to.equal(201);
        const named = recorded.headers['ledger-receipt'] as string;
        expect(named).to.match(/^\/api\/ledger\/receipt\?hash=[0-9a-f]{64}$/);
        // Asked for at once: the next checkpoint (signed at most CHECKPOINT_EVERY_MS later) covers it.
        const asked = performance.now();
        const receipt = await request(live.app).get(named).set('Authorization', `Bearer ${reader.key}`);
        const waited = performance.now() - asked;
        expect(receipt.status, JSON.stringify(receipt.body)).to.equal(200);
        expect(waited, 'ms from the recording response to its receipt').to.be.below(1000);
        const checked = await verifyReceipt(receipt.body, vkey);
        expect(checked, JSON.stringify(checked)).to.include({ valid: true });
        expect(receipt.body.event.hash).to.equal(named.split('hash=')[1]);
        const [event] = await live.composed.store.read(receipt.body.event.seq, 1);
        expect(event!.hash).to.equal(receipt.body.event.hash);
      }
    });
  });
});
