import { cpSync, rmSync } from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { runScript } from '../support/cli.js';
import { ledgerWith, openService, serviceOf, storedRows, tamper, type OpenService } from './support.js';

/**
 * Tamper drills (ARCHITECTURE §3.4): someone with the SQLite file edits a content byte, rewrites a
 * hash, deletes a row, swaps two rows or cuts the last events off. Each is caught by all three
 * detectors — `npm run ledger:verify` (exit 1 naming the seq, sequential and in worker threads),
 * the background verifier behind `GET /api/ledger/verify`, and `POST /api/audit-verify` on a hash
 * the tampering touched. The service is running when the file is changed, as it would be.
 */
interface Drill {
  name: string;
  /** Changes the file; returns the seq every detector must name. */
  apply(dataDir: string, k: number, head: number): number;
  code: string;
  /** Audit-verify the scan's artifact hash (true) or its event hash (false). */
  artifact: boolean;
  reason: string;
}

const TRUNCATED = 5;
const DRILLS: Drill[] = [
  {
    name: 'a content edit (a scan verdict rewritten in place)',
    apply: (dir, k) => {
      tamper(
        dir,
        `UPDATE events SET content = replace(content, '"scan_verdict":"', '"scan_verdict":"X') WHERE seq = ${k}`,
      );
      return k;
    },
    code: 'content_hash_mismatch',
    artifact: true,
    reason: 'CONTENT_MISMATCH',
  },
  {
    name: 'a hash edit',
    apply: (dir, k) => {
      tamper(dir, `UPDATE events SET hash = '${'e'.repeat(64)}' WHERE seq = ${k}`);
      return k;
    },
    code: 'hash_mismatch',
    artifact: false,
    reason: 'CHAIN_BROKEN',
  },
  {
    name: 'a deletion in the middle',
    apply: (dir, k) => {
      tamper(dir, `DELETE FROM events WHERE seq = ${k}`);
      return k + 1;
    },
    code: 'seq_gap',
    artifact: false,
    reason: 'CHAIN_BROKEN',
  },
  {
    name: 'a reordering (two neighbours swap places)',
    apply: (dir, k) => {
      tamper(
        dir,
        `UPDATE events SET seq = -1 WHERE seq = ${k}; UPDATE events SET seq = ${k} WHERE seq = ${k + 1};
         UPDATE events SET seq = ${k + 1} WHERE seq = -1;`,
      );
      return k;
    },
    code: 'broken_link',
    artifact: false,
    reason: 'CHAIN_BROKEN',
  },
  {
    name: `a truncation (the last ${TRUNCATED} events cut off)`,
    apply: (dir, _k, head) => {
      tamper(dir, `DELETE FROM events WHERE seq > ${head - TRUNCATED}`);
      return head - TRUNCATED + 1;
    },
    code: 'seq_gap',
    artifact: false,
    reason: 'CHAIN_BROKEN',
  },
];

describe('tamper drills: every detector names every kind of tampering', function () {
  this.timeout(90_000);

  for (const drill of DRILLS) {
    it(`catches ${drill.name}: ledger:verify, GET /api/ledger/verify and POST /api/audit-verify`, async () => {
      const { dataDir, bearer } = await ledgerWith(800, 'tamper-drills');
      let svc: OpenService | null = await openService(dataDir);
      try {
        // The service has run for a while: snapshots saved, the verifier's watermark at the head.
        serviceOf(svc.app).runtime.saveSnapshots();
        await serviceOf(svc.app).verifier.run();
        const before = await request(svc.app).get('/api/ledger/verify').set('Authorization', bearer);
        expect(before.body).to.include({ ok: true, verified_through: 800 });

        const rows = await storedRows(dataDir);
        const scans = rows.filter((r) => r.content.includes('"type":"ProjectScanned"'));
        const scan = scans[Math.floor(scans.length / 2)]!;
        const k = drill.name.startsWith('a truncation') ? rows.at(-2)!.seq : scan.seq;
        const target = rows.find((r) => r.seq === k)!;
        const hash = drill.artifact
          ? (JSON.parse(target.content) as { data: { payload_hash: string } }).data.payload_hash
          : target.hash;
        const seq = drill.apply(dataDir, k, rows.at(-1)!.seq);

        for (const workers of ['1', '3']) {
          const cli = runScript('ledger-verify.ts', ['--json', '--workers', workers], { DATA_DIR: dataDir });
          expect(cli.status, `${workers} worker(s): ${cli.stderr}`).to.equal(1);
          const out = JSON.parse(cli.stdout) as {
            ok: boolean;
            first_bad_seq: number;
            issues: { code: string }[];
          };
          expect(out.ok).to.equal(false);
          expect(out.first_bad_seq, `${workers} worker(s)`).to.equal(seq);
          expect(out.issues.map((i) => i.code)).to.include(drill.code);
        }
        const human = runScript('ledger-verify.ts', [], { DATA_DIR: dataDir });
        expect(human.stdout).to.match(new RegExp(`TAMPERED at seq ${seq}: `));

        await serviceOf(svc.app).verifier.run();
        const after = await request(svc.app).get('/api/ledger/verify').set('Authorization', bearer);
        expect(after.status).to.equal(200);
        expect(after.body.ok).to.equal(false);
        expect(after.body.issues[0].seq).to.equal(seq);
        // Verified only up to the seq before the first bad one, never the old watermark (800).
        expect(after.body.verified_through).to.equal(seq - 1);
        expect((after.body.issues as { code: string }[]).map((i) => i.code)).to.include(drill.code);

        const audit = await request(svc.app)
          .post('/api/audit-verify')
          .set('Authorization', bearer)
          .send({ hash });
        expect(audit.status).to.equal(200);
        expect(audit.body).to.include({ verdict: 'TAMPERED', reason: drill.reason });

        if (drill.name.startsWith('a truncation')) {
          // A service started after the cut: the snapshots it loads are ahead of the store's head.
          await svc.close();
          svc = await openService(dataDir);
          const restarted = await request(svc.app).get('/api/ledger/verify').set('Authorization', bearer);
          expect(restarted.body.ok).to.equal(false);
          expect(restarted.body.issues[0]).to.include({ code: 'seq_gap', seq });
        }
      } finally {
        await svc?.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }

  it('names the first bad seq when a start finds the file edited, its pass on a thread of its own or not', async () => {
    const { dataDir, bearer } = await ledgerWith(800, 'tamper-drills');
    try {
      // Untouched: the start's pass on its thread (the chain, and each leaf of the 3 stored tiles).
      let svc = await openService(dataDir, { verifyOffloadFrom: 1 });
      const clean = await request(svc.app).get('/api/ledger/verify').set('Authorization', bearer);
      expect(clean.body).to.include({ ok: true, verified_through: 800 });
      await svc.close();

      const rows = await storedRows(dataDir);
      const scan = rows.filter((r) => r.content.includes('"type":"ProjectScanned"') && r.seq < 700)[3]!;
      tamper(
        dataDir,
        `UPDATE events SET content = replace(content, '"scan_verdict":"', '"scan_verdict":"X') WHERE seq = ${scan.seq}`,
      );
      // Each start on a copy of its own: a failure found is recorded and stands at the next start.
      cpSync(dataDir, `${dataDir}-paced`, { recursive: true });
      for (const [dir, verifyOffloadFrom] of [
        [dataDir, 1],
        [`${dataDir}-paced`, 1_000_000],
      ] as const) {
        svc = await openService(dir, { verifyOffloadFrom });
        try {
          const found = await request(svc.app).get('/api/ledger/verify').set('Authorization', bearer);
          expect(found.body.ok, `offload from ${verifyOffloadFrom}`).to.equal(false);
          expect(found.body.issues[0]).to.include({ code: 'content_hash_mismatch', seq: scan.seq });
          expect(found.body.verified_through, JSON.stringify(found.body)).to.equal(scan.seq - 1);
        } finally {
          await svc.close();
        }
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(`${dataDir}-paced`, { recursive: true, force: true });
    }
  });

  it('leaves an untouched ledger verified by all three', async () => {
    const { dataDir, bearer } = await ledgerWith(800, 'tamper-drills');
    const svc = await openService(dataDir);
    try {
      serviceOf(svc.app).runtime.saveSnapshots();
      const cli = runScript('ledger-verify.ts', ['--json', '--workers', '3'], { DATA_DIR: dataDir });
      expect(cli.status).to.equal(0);
      expect(JSON.parse(cli.stdout)).to.include({ ok: true, checked: 800, verified_through: 800 });
      await serviceOf(svc.app).verifier.run();
      await serviceOf(svc.app).verifier.run();
      const api = await request(svc.app).get('/api/ledger/verify').set('Authorization', bearer);
      expect(api.body).to.include({ ok: true, verified_through: 800 });
      const last = (await storedRows(dataDir)).at(-1)!;
      const audit = await request(svc.app)
        .post('/api/audit-verify')
        .set('Authorization', bearer)
        .send({ hash: last.hash });
      expect(audit.body).to.include({ verdict: 'AUTHENTIC', reason: 'EVENT_VERIFIED' });
    } finally {
      await svc.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
