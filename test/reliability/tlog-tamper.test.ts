/**
 * Tamper drills the hash chain alone cannot catch (docs/transparency-log.md, "Who detects what"):
 * an insider with the SQLite file cuts the tail after the last snapshot, edits an event and
 * re-hashes the rest of the chain, or replaces the last event with a forged one on a recomputed
 * chain. The chain verifies each time; the transparency log does not: `ledger:verify` (against the
 * checkpoint the service signed and one an auditor saved), and the running or restarted service,
 * which then fails /readyz with the reason and first bad seq, reports plumbline_ledger_integrity 0
 * and refuses appends with 503 LEDGER_INTEGRITY while reads go on — until restarted with the override.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { linkHash } from '../../src/platform/ledger/envelope.js';
import { sha256Hex } from '../../src/platform/crypto/hash.js';
import { runScript } from '../support/cli.js';
import { ledgerWith, openService, serviceOf, storedRows, tamper, type OpenService } from './support.js';

/** Rewrites the chain from `from` on as an insider would: every content_hash, prev_hash and hash recomputed. */
async function rehashFrom(dataDir: string, from: number, edit: (content: string) => string): Promise<void> {
  const rows = await storedRows(dataDir);
  let prev = rows.find((r) => r.seq === from - 1)?.hash ?? '0'.repeat(64);
  const sql: string[] = [];
  for (const row of rows.filter((r) => r.seq >= from)) {
    const content = row.seq === from ? edit(row.content) : row.content;
    const contentHash = sha256Hex(content);
    const hash = linkHash(row.seq, prev, contentHash);
    sql.push(
      `UPDATE events SET content = '${content.replace(/'/g, "''")}', content_hash = '${contentHash}', prev_hash = '${prev}', hash = '${hash}' WHERE seq = ${row.seq};`,
    );
    prev = hash;
  }
  tamper(dataDir, sql.join('\n'));
}

interface Drill {
  name: string;
  apply(dataDir: string, head: number): Promise<number>;
  /** What ledger:verify names. */
  cli: string;
  /** What the running service names (its projections anchor catches a cut first). */
  service: string;
  /** What a service restarted with the override (the record cleared) finds again by itself. */
  restarted: string;
}

const DRILLS: Drill[] = [
  {
    name: 'a tail truncation after the last snapshot',
    apply: (dir, head) => {
      tamper(dir, `DELETE FROM events WHERE seq > ${head - 3}`);
      return Promise.resolve(head - 2);
    },
    cli: 'truncated',
    service: 'seq_gap',
    // The snapshots the service saved as it stopped (after the cut) are ahead of the head as well.
    restarted: 'seq_gap',
  },
  {
    name: 'an edit with the rest of the chain re-hashed',
    apply: async (dir) => {
      await rehashFrom(dir, 400, (c) => c.replace('"recorded_at":"', '"recorded_at":"1'));
      return 400;
    },
    cli: 'tree_mismatch',
    service: 'tree_mismatch',
    restarted: 'tree_mismatch',
  },
  {
    name: 'the last event replaced by a forged one on a recomputed chain',
    apply: async (dir, head) => {
      await rehashFrom(dir, head, (c) => c.replace('"actor":"', '"actor":"forged-'));
      return head;
    },
    // The last leaves are in the tree's partial tile, which is rebuilt from the ledger, not stored:
    // the signed root is what no longer matches.
    cli: 'checkpoint_mismatch',
    service: 'tree_mismatch',
    restarted: 'checkpoint_mismatch',
  },
];

describe('transparency-log tamper drills: what the chain alone misses', function () {
  this.timeout(120_000);

  for (const drill of DRILLS) {
    it(`catches ${drill.name}: ledger:verify --checkpoint, the running service, a restarted one`, async () => {
      const { dataDir, bearer } = await ledgerWith(800, 'tlog-drills');
      let svc: OpenService | null = await openService(dataDir);
      try {
        const s = serviceOf(svc.app);
        s.runtime.saveSnapshots();
        // Three more events after the last snapshot, covered by the checkpoint the service signs.
        const meta = { org_id: null, actor: 'drill', request_id: 'req_drill' };
        for (let i = 0; i < 3; i += 1)
          await s.ledger.append([{ stream: 'drill-notes', type: 'DrillNoted', data: { i } }], meta);
        const signed = (await s.tlog.publish())!;
        expect(signed.size).to.equal(803);
        const saved = join(dataDir, 'auditor-checkpoint.txt');
        writeFileSync(saved, signed.note);
        const key = s.tlog.verifierKey;
        const clean = runScript('ledger-verify.ts', ['--json', '--checkpoint', saved, '--key', key], {
          DATA_DIR: dataDir,
        });
        expect(clean.status, clean.stderr).to.equal(0);

        const seq = await drill.apply(dataDir, 803);

        // The chain alone verifies (that is the point of these drills).
        const chainOnly = runScript('ledger-verify.ts', ['--json'], { DATA_DIR: dataDir });
        const out = JSON.parse(chainOnly.stdout) as {
          ok: boolean;
          first_bad_seq: number;
          issues: { code: string }[];
        };
        expect(out.issues.map((i) => i.code)).to.not.include.members([
          'content_hash_mismatch',
          'hash_mismatch',
          'broken_link',
        ]);
        // ledger:verify with the auditor's saved checkpoint (and the one the service kept) does not.
        expect(chainOnly.status).to.equal(1);
        const cli = runScript('ledger-verify.ts', ['--json', '--checkpoint', saved, '--key', key], {
          DATA_DIR: dataDir,
        });
        expect(cli.status, cli.stderr).to.equal(1);
        const verdict = JSON.parse(cli.stdout) as {
          first_bad_seq: number;
          issues: { code: string; seq: number }[];
        };
        expect(verdict.issues.map((i) => i.code)).to.include(drill.cli);
        expect(verdict.first_bad_seq).to.equal(seq);

        // The running service: its verifier finds it, readiness fails, appends stop, reads go on.
        await s.verifier.run();
        const ready = await request(svc.app).get('/readyz');
        expect(ready.status).to.equal(503);
        expect(ready.body.checks.ledger_integrity.ok).to.equal(false);
        expect(ready.body.ledger.integrity_failure).to.deep.equal({
          reason: drill.service,
          first_bad_seq: seq,
        });
        const metrics = await request(svc.app).get('/metrics');
        expect(metrics.text).to.match(/^plumbline_ledger_integrity 0$/m);
        const append = await request(svc.app)
          .post('/api/entities')
          .set('Authorization', bearer)
          .send({ legal_name: 'After The Tamper LLC', roles: ['subcontractor'] });
        expect(append.status).to.equal(503);
        expect(append.body).to.include({
          code: 'LEDGER_INTEGRITY',
          first_bad_seq: seq,
          reason: drill.service,
        });
        expect(
          (await request(svc.app).get('/api/ledger?limit=1').set('Authorization', bearer)).status,
        ).to.equal(200);
        // A receipt for the altered event is refused as what it is, not as a wait (503 UNAVAILABLE
        // with Retry-After: a retry gets the same disagreement).
        if (drill.cli !== 'truncated') {
          const receipt = await request(svc.app)
            .get(`/api/ledger/receipt?seq=${seq}`)
            .set('Authorization', bearer);
          expect(receipt.status).to.equal(503);
          expect(receipt.headers['retry-after']).to.equal(undefined);
          expect(receipt.body).to.include({ code: 'LEDGER_INTEGRITY', reason: 'tree_mismatch', seq });
        }

        // A restart does not forget it; the documented override clears the record, and a ledger that
        // is still tampered is found again from the stored tiles and the signed checkpoint alone.
        await svc.close();
        svc = await openService(dataDir);
        expect((await request(svc.app).get('/readyz')).status).to.equal(503);
        if (drill.cli === 'truncated') {
          // Restarted, the tree is rebuilt from the cut ledger (800) below the checkpoint it signed
          // (803): a receipt or proof up to the signed root cannot be built. They answered 500
          // INTERNAL (a RangeError), audit-verify of an intact event too.
          const at = (path: string) => request(svc!.app).get(path).set('Authorization', bearer);
          for (const path of [
            '/api/ledger/receipt?seq=5',
            '/api/ledger/proof/inclusion?seq=800',
            '/api/ledger/proof/consistency?from=5',
          ]) {
            const res = await at(path);
            expect(res.status, path).to.equal(503);
            expect(res.headers['retry-after'], path).to.equal(undefined);
            expect(res.body, path).to.include({ code: 'LEDGER_INTEGRITY', reason: 'truncated', seq: 801 });
          }
          // Between sizes the tree still holds, a proof is a proof.
          expect((await at('/api/ledger/proof/consistency?from=5&to=800')).status).to.equal(200);
          const intact = (await storedRows(dataDir)).find((r) => r.seq === 5)!;
          const audit = await request(svc.app)
            .post('/api/audit-verify')
            .set('Authorization', bearer)
            .send({ hash: intact.hash });
          expect(audit.status).to.equal(200);
          expect(audit.body).to.include({ verdict: 'AUTHENTIC', receipt: null });
          expect(audit.body.receipt_url).to.equal(`/api/ledger/receipt?hash=${intact.hash}`);
        }
        await svc.close();
        svc = await openService(dataDir, { integrityOverride: true });
        await serviceOf(svc.app).verifier.run();
        expect(serviceOf(svc.app).verifier.failure).to.include({ code: drill.restarted, seq });

        if (drill.cli === 'tree_mismatch') {
          // Read models rebuilt from the tampered file index the re-hashed event's new hash, whose
          // chain verifies: audit-verify answered it AUTHENTIC (with no receipt). The log committed
          // to another event at that seq, so it is TAMPERED.
          await svc.close();
          svc = null;
          for (const suffix of ['', '-wal', '-shm'])
            rmSync(join(dataDir, `read-models.db${suffix}`), { force: true });
          svc = await openService(dataDir, { integrityOverride: true });
          const forged = (await storedRows(dataDir)).find((r) => r.seq === seq)!;
          const audit = await request(svc.app)
            .post('/api/audit-verify')
            .set('Authorization', bearer)
            .send({ hash: forged.hash });
          expect(audit.status).to.equal(200);
          expect(audit.body).to.include({ verdict: 'TAMPERED', reason: 'TREE_MISMATCH', seq });
        }
      } finally {
        await svc?.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
