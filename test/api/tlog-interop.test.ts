/**
 * Proof of interoperability: a verifier written independently of the service — Python's hashlib
 * for the tree and the proofs (test/support/tlog_verify.py), `openssl pkeyutl -verify -rawin` for
 * the Ed25519 note signature — accepts a real checkpoint, receipt, consistency proof and entry
 * bundles emitted by the service, and rejects each of them altered.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { parseNote } from '../../src/platform/tlog/note.js';
import { REPO_ROOT } from '../support/cli.js';
import { binary } from '../support/binary.js';
import { startService, type TestService } from '../support/service.js';

const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');

function python(input: unknown): {
  status: number | null;
  out: { ok: boolean; checks: Record<string, boolean> };
} {
  const run = spawnSync('python3', [join(REPO_ROOT, 'test/support/tlog_verify.py')], {
    input: JSON.stringify(input),
    encoding: 'utf8',
  });
  if (run.error) throw run.error;
  return {
    status: run.status,
    out: JSON.parse(run.stdout) as { ok: boolean; checks: Record<string, boolean> },
  };
}

/** `openssl pkeyutl -verify -rawin` over the note text with the key from the verifier key string. */
function openssl(dir: string, verifierKey: string, note: string): boolean {
  const raw = Buffer.from(verifierKey.split('+').slice(2).join('+'), 'base64').subarray(1);
  const pem = `-----BEGIN PUBLIC KEY-----\n${Buffer.concat([SPKI_ED25519, raw]).toString('base64')}\n-----END PUBLIC KEY-----\n`;
  const parsed = parseNote(note)!;
  writeFileSync(join(dir, 'pub.pem'), pem);
  writeFileSync(join(dir, 'msg'), parsed.text);
  writeFileSync(join(dir, 'sig'), parsed.signatures[0]!.signature);
  const run = spawnSync(
    'openssl',
    ['pkeyutl', '-verify', '-pubin', '-inkey', 'pub.pem', '-rawin', '-in', 'msg', '-sigfile', 'sig'],
    { cwd: dir, encoding: 'utf8' },
  );
  return run.status === 0 && run.stdout.includes('Signature Verified Successfully');
}

describe('transparency log interoperability: an independent verifier (python3 hashlib + openssl)', function () {
  this.timeout(30_000);
  let svc: TestService;
  let dir: string;
  before(async () => {
    svc = await startService();
    dir = mkdtempSync(join(tmpdir(), 'plumbline-interop-'));
  });
  after(async () => {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('accepts the service’s checkpoint, receipt, consistency proof and entries, and rejects them altered', async () => {
    const key = await svc.key('Independent Auditor', ['tlog:read']);
    const auth: [string, string] = ['Authorization', `Bearer ${key.key}`];
    const meta = { org_id: null, actor: 'interop', request_id: 'req_interop' };
    const append = (n: number) =>
      svc.composed.deps.ledger.append(
        Array.from({ length: n }, (_, i) => ({ stream: 'interop', type: 'InteropNoted', data: { i } })),
        meta,
      );
    await append(100);
    const old = (
      await request(svc.app)
        .get('/tlog/checkpoint')
        .set(...auth)
    ).text;
    await append(200);
    const checkpoint = (
      await request(svc.app)
        .get('/tlog/checkpoint')
        .set(...auth)
    ).text;
    const size = Number(checkpoint.split('\n')[1]);
    const receipt = (
      await request(svc.app)
        .get('/api/ledger/receipt?seq=123')
        .set(...auth)
    ).body;
    const oldSize = Number(old.split('\n')[1]);
    const consistency = (
      await request(svc.app)
        .get(`/api/ledger/proof/consistency?from=${oldSize}`)
        .set(...auth)
    ).body;
    const bundle = async (path: string) =>
      Buffer.from(
        (
          await request(svc.app)
            .get(path)
            .set(...auth)
            .buffer(true)
            .parse(binary)
        ).body as Buffer,
      ).toString('base64');
    const verifierKey = svc.composed.deps.tlog.verifierKey;
    const good = {
      verifier_key: verifierKey,
      checkpoint,
      receipt,
      old_checkpoint_text: parseNote(old)!.text,
      consistency,
      entry_bundles: [
        await bundle('/tlog/tile/entries/000'),
        await bundle(`/tlog/tile/entries/001.p/${size - 256}`),
      ],
    };

    expect(openssl(dir, verifierKey, checkpoint), 'openssl verifies the note signature').to.equal(true);
    const accepted = python(good);
    expect(accepted.out.checks).to.deep.equal(
      Object.fromEntries(Object.keys(accepted.out.checks).map((k) => [k, true])),
    );
    expect(Object.keys(accepted.out.checks)).to.have.length(9);
    expect(accepted.status).to.equal(0);

    // Each alteration is refused by the independent verifier.
    const flip = (b64: string) => {
      const b = Buffer.from(b64, 'base64');
      b[0] = b[0]! ^ 1;
      return b.toString('base64');
    };
    const rootLine = checkpoint.split('\n')[2]!;
    const alteredNote = checkpoint.replace(rootLine, flip(rootLine));
    expect(openssl(dir, verifierKey, alteredNote), 'openssl refuses an altered checkpoint').to.equal(false);
    const cases: [string, unknown, string][] = [
      [
        'a proof hash flipped',
        {
          ...good,
          receipt: {
            ...receipt,
            inclusion_proof: [flip(receipt.inclusion_proof[0]), ...receipt.inclusion_proof.slice(1)],
          },
        },
        'inclusion proof',
      ],
      ['another leaf index', { ...good, receipt: { ...receipt, leaf_index: 121 } }, 'inclusion proof'],
      [
        'an edited event',
        { ...good, receipt: { ...receipt, event: { ...receipt.event, content_hash: 'f'.repeat(64) } } },
        "receipt leaf input is the event hash's preimage",
      ],
      [
        'a consistency hash flipped',
        {
          ...good,
          consistency: {
            ...consistency,
            consistency_proof: [
              flip(consistency.consistency_proof[0]),
              ...consistency.consistency_proof.slice(1),
            ],
          },
        },
        'consistency proof',
      ],
      ['a root altered in the checkpoint', { ...good, checkpoint: alteredNote }, 'inclusion proof'],
      [
        'another key',
        { ...good, verifier_key: verifierKey.replace(/\+([0-9a-f]{8})\+/, '+00000000+') },
        'verifier key id',
      ],
    ];
    for (const [what, input, check] of cases) {
      const refused = python(input);
      expect(refused.status, what).to.equal(1);
      expect(refused.out.checks[check], `${what}: ${check}`).to.equal(false);
    }
  });
});
