/**
 * OWASP API8:2023 — Security Misconfiguration.
 *
 * Proves the service's defaults are the safe ones: the data directory is created 0700 and the
 * ledger (with its -wal and -shm files), the other SQLite files and the secrets file 0600,
 * whatever the umask, and files an older version left 0644 are tightened on start; a path with
 * malformed percent-encoding answers 400 problem+json, not 500; and every API answer carries the
 * security headers (no-store, nosniff, a default-src 'self' CSP, no-referrer, no X-Powered-By).
 */
import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { startService, type TestService } from '../support/service.js';

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

describe('OWASP API8 — security misconfiguration', function () {
  this.timeout(120_000);

  describe('file modes', () => {
    let svc: TestService;
    let dataDir: string;
    const umask = process.umask(0o022);

    before(async () => {
      const base = await startService();
      dataDir = join(base.dataDir, 'nested', 'data');
      await base.close();
      svc = await startService({ compose: { dataDir } });
      const k = await svc.key('Modes Bank');
      await request(svc.app)
        .post('/api/entities')
        .set('Authorization', `Bearer ${k.key}`)
        .send({ legal_name: 'Mode Builders, Inc.', roles: ['general_contractor'] })
        .expect(201);
    });
    after(async () => {
      await svc.close();
      process.umask(umask);
    });

    it('creates the data directory 0700 and the ledger, its WAL and shared memory, and the secrets 0600', () => {
      expect(modeOf(dataDir)).to.equal('700');
      for (const file of ['ledger.db', 'ledger.db-wal', 'ledger.db-shm', 'secrets.json']) {
        expect(existsSync(join(dataDir, file)), file).to.equal(true);
        expect(modeOf(join(dataDir, file)), file).to.equal('600');
      }
    });

    it('tightens files and a directory an older version left open on the next start', async () => {
      for (const file of ['ledger.db', 'ledger.db-wal', 'secrets.json'])
        if (existsSync(join(dataDir, file))) chmodSync(join(dataDir, file), 0o644);
      chmodSync(dataDir, 0o755);
      writeFileSync(join(dataDir, 'unrelated.txt'), 'left alone');
      await svc.restart();
      expect(modeOf(dataDir)).to.equal('700');
      for (const file of ['ledger.db', 'secrets.json'])
        expect(modeOf(join(dataDir, file)), file).to.equal('600');
    });
  });

  describe('requests', () => {
    let svc: TestService;
    let bearer: Record<string, string>;

    before(async () => {
      svc = await startService();
      bearer = { Authorization: `Bearer ${(await svc.key('Headers Bank')).key}` };
    });
    after(async () => {
      await svc.close();
    });

    it('answers a path with malformed percent-encoding 400 problem+json, recording nothing', async () => {
      const head = await svc.head();
      for (const path of [
        '/api/projects/%E0%A4%A',
        '/api/draws/%',
        '/api/documents/%ZZ',
        '/api/findings/%E0%A4%A/resolve',
      ]) {
        const res = path.endsWith('/resolve')
          ? await request(svc.app).post(path).set(bearer).send({ resolution: 'x', resolved_on: '2026-06-01' })
          : await request(svc.app).get(path).set(bearer);
        expect(res.status, path).to.equal(400);
        expect(res.headers['content-type'], path).to.match(/^application\/problem\+json/);
        expect(res.body.code, path).to.equal('INVALID_REQUEST');
      }
      expect(await svc.head()).to.equal(head);
    });

    it('sends the security headers on API answers, errors included', async () => {
      for (const res of [
        await request(svc.app).get('/api/projects').set(bearer),
        await request(svc.app).get('/api/projects/prj_aaaaaaaaaaaaaaaa').set(bearer),
        await request(svc.app).get('/api/projects'),
      ]) {
        expect(res.headers['cache-control']).to.equal('no-store');
        expect(res.headers['x-content-type-options']).to.equal('nosniff');
        expect(res.headers['referrer-policy']).to.equal('no-referrer');
        expect(res.headers['content-security-policy']).to.contain("default-src 'self'");
        expect(res.headers['x-powered-by']).to.equal(undefined);
      }
    });
  });
});
