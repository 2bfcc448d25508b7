/**
 * OWASP API8:2023 — Security Misconfiguration.
 *
 * Proves the service's defaults are the safe ones: the data directory is created 0700 and the
 * ledger (with its -wal and -shm files), the other SQLite files and the secrets file 0600,
 * whatever the umask, and files an older version left 0644 are tightened on start; a path with
 * malformed percent-encoding answers 400 problem+json, not 500; and every API answer carries the
 * security headers (no-store, nosniff, a default-src 'self' CSP, no-referrer, no X-Powered-By);
 * control characters (NUL, BEL, ESC, DEL, C1) never reach the immutable ledger in names or free
 * text, while free text keeps its tabs and newlines;
 * and the response signature's v2 binds method, path and query, status and Request-Id besides the
 * body, so the SDK refuses a signed answer — an error answer included — replayed for another
 * request, while v1 stays for older clients.
 */
import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createServer, type Server } from 'node:http';
import { Plumbline } from '../../src/sdk/client.js';
import { PlumblineError } from '../../src/sdk/errors.js';
import { verifySignature } from '../../src/sdk/signature.js';
import { freeText, nameText } from '../../src/platform/http/validate.js';
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

    it('refuses control characters in names and free text with 400, keeping tab and newline in free text', async () => {
      const head = await svc.head();
      for (const bad of ['\u0000', '\u0007', '\u001b[31m', '\u007f', '\u0085', '\t', '\n']) {
        const res = await request(svc.app)
          .post('/api/entities')
          .set(bearer)
          .send({ legal_name: `Keystone${bad}Builders`, roles: ['general_contractor'] });
        expect(res.status, JSON.stringify(bad)).to.equal(400);
        expect(res.body.errors[0].path).to.equal('legal_name');
        expect(res.body.errors[0].message).to.contain('control characters');
      }
      expect(await svc.head(), 'nothing recorded').to.equal(head);
      const named = await request(svc.app)
        .post('/api/entities')
        .set(bearer)
        .send({ legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'] });
      expect(named.status).to.equal(201);
    });

    it('refuses control characters in what signed duties record: signer and notary names, account holders, revocation reasons', async () => {
      const head = await svc.head();
      const bad = 'Dana\u0007Keystone';
      const cases: [string, Record<string, unknown>, string][] = [
        ['/api/signers', { name: bad, capacity: 'Lender' }, 'name'],
        [
          '/api/signers',
          {
            name: 'Nora Public',
            capacity: 'Notary',
            commission: { number: 'CA-22\u0000', state: 'CA', expires_on: '2027-12-31' },
          },
          'commission.number',
        ],
        [
          '/api/accounts',
          {
            purpose: 'DISBURSEMENT',
            holder_name: bad,
            aba_routing: '021000021',
            account_number: '4000123456',
            verification: { method: 'callback', verified_on: '2026-05-01' },
          },
          'holder_name',
        ],
        ['/api/signers/sgn_aaaaaaaaaaaaaaaa/revoke', { reason: 'left\u001b[31m' }, 'reason'],
      ];
      for (const [path, body, field] of cases) {
        const res = await request(svc.app).post(path).set(bearer).send(body);
        expect(res.status, `${path} ${field}`).to.equal(400);
        expect(res.body.errors[0].path, path).to.equal(field);
        expect(res.body.errors[0].message, path).to.contain('control characters');
      }
      expect(await svc.head(), 'nothing recorded').to.equal(head);
    });

    it('shares one rule across contracts: names take no control character, free text only tab and newlines', () => {
      expect(freeText().safeParse('Cured on site.\n\tRe-inspected 2026-06-01.\r\n').success).to.equal(true);
      for (const bad of ['\u0000', '\u0007', '\u000b', '\u001b', '\u007f', '\u009b'])
        expect(freeText().safeParse(`a${bad}b`).success, JSON.stringify(bad)).to.equal(false);
      for (const bad of ['\t', '\n', '\r', '\u0000'])
        expect(nameText().safeParse(`a${bad}b`).success, JSON.stringify(bad)).to.equal(false);
      expect(nameText().safeParse('Élan Constructors — Nord, S.A.').success).to.equal(true);
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

  describe('response signature v2', () => {
    let svc: TestService;
    let server: Server;
    let base: string;

    before(async () => {
      svc = await startService();
      server = createServer(svc.app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    after(async () => {
      await new Promise((resolve) => server.close(resolve));
      await svc.close();
    });

    it('binds method, path and query, status and Request-Id: the same answer fails for any other request', async () => {
      const k = await svc.key('Signature Bank');
      const url = `${base}/api/projects?limit=5`;
      const res = await fetch(url, { headers: { authorization: `Bearer ${k.key}` } });
      const bodyText = await res.text();
      const headers = Object.fromEntries(res.headers);
      expect(headers['plumbline-signature']).to.match(/,v1=[0-9a-f]{64},v2=[0-9a-f]{64}$/);
      const now = svc.clock.now();
      const check = (request: { method: string; url: string }, status = res.status, requestId?: string) =>
        verifySignature(
          { headers: requestId ? { ...headers, 'request-id': requestId } : headers, bodyText },
          k.signing_secret,
          { now, request, status },
        );
      expect(await check({ method: 'GET', url })).to.deep.include({ valid: true });
      // v1 alone (an older client) still verifies.
      expect(await verifySignature({ headers, bodyText }, k.signing_secret, { now })).to.deep.include({
        valid: true,
      });
      for (const [what, outcome] of [
        ['another query', await check({ method: 'GET', url: `${base}/api/projects?limit=6` })],
        ['another path', await check({ method: 'GET', url: `${base}/api/draws?limit=5` })],
        ['another method', await check({ method: 'POST', url })],
        ['another status', await check({ method: 'GET', url }, 404)],
        ['another request id', await check({ method: 'GET', url }, res.status, 'req-someone-else-01')],
      ] as const)
        expect(outcome, what).to.deep.include({ valid: false, reason: 'binding_mismatch' });
    });

    it('lets the SDK verify error answers too: a genuine signed 404 is a NOT_FOUND, a replayed one is refused', async () => {
      const k = await svc.key('Signature Bank');
      const client = (fetchImpl: typeof fetch) =>
        new Plumbline({
          baseUrl: base,
          apiKey: k.key,
          signingSecret: k.signing_secret,
          fetch: fetchImpl,
          retries: 0,
          now: () => svc.clock.now(),
        });
      const genuine = await client(fetch)
        .getProject('prj_aaaaaaaaaaaaaaaa')
        .catch((e: unknown) => e);
      expect(genuine).to.be.instanceOf(PlumblineError);
      expect((genuine as PlumblineError).code, (genuine as PlumblineError).message).to.equal('NOT_FOUND');
      // A man in the middle answers with a genuinely signed 404 captured from another request.
      const captured = await fetch(`${base}/api/projects/prj_bbbbbbbbbbbbbbbb`, {
        headers: { authorization: `Bearer ${k.key}` },
      });
      const capturedBody = await captured.text();
      const replaying = (() =>
        Promise.resolve(
          new Response(capturedBody, { status: captured.status, headers: captured.headers }),
        )) as unknown as typeof fetch;
      const replayed = await client(replaying)
        .getProject('prj_aaaaaaaaaaaaaaaa')
        .catch((e: unknown) => e);
      expect((replayed as PlumblineError).code).to.equal('SIGNATURE_INVALID');
    });
  });
});
