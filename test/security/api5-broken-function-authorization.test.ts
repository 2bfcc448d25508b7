/**
 * OWASP API5:2023 — Broken Function Level Authorization.
 *
 * Proves that the platform's functions are the platform operator's, not a tenant's: the operator
 * is its own org, created at the first start of a ledger that has none, its key handed out once
 * and never again; `registry:admin` (the global SAM registry) is held by it alone — a tenant's
 * `admin` key does not imply it, cannot be granted it (neither through the ledger nor through
 * `npm run keys`), and is refused the import with 403; and the import itself is bounded: an
 * extract over 8 MiB uncompressed or 10,000 rows is refused with 413 and records nothing, and
 * re-importing an extract that changes nothing appends nothing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { expect } from 'chai';
import request from 'supertest';
import { keys as keysProjection } from '../../projections/keys.js';
import { seedOnFirstStart } from '../../src/demo/first-start.js';
import { issueKey } from '../../src/orgs/issue.js';
import { KeyIssueRefused, PLATFORM_OPERATOR_ORG, type IssuedKey } from '../../src/orgs/keys.js';
import { bootstrapPlatformOperator } from '../../src/orgs/operator.js';
import { grantsScope } from '../../src/platform/crypto/api-key.js';
import { silentLogger } from '../../src/platform/log.js';
import { HTTP_IMPORT_LIMITS } from '../../src/registry/sam/import.js';
import { REPO_ROOT, runScript } from '../support/cli.js';
import { startService, type TestService } from '../support/service.js';

const FIXTURE = join(REPO_ROOT, 'test/fixtures/sam/exclusions-small.csv');
const bearer = (key: IssuedKey) => ({ Authorization: `Bearer ${key.key}` });

/** A one-entry deflated zip (the format SAM ships extracts in). */
function zipOf(name: string, content: Buffer): Buffer {
  const data = deflateRawSync(content);
  const fileName = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc32(content), 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc32(content), 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(local.length + fileName.length + data.length, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}

describe('OWASP API5 — broken function level authorization', function () {
  this.timeout(300_000);
  let svc: TestService;
  beforeEach(async () => {
    svc = await startService();
  });
  afterEach(async () => {
    await svc.close();
  });

  const upload = (key: IssuedKey, body: Buffer, type = 'text/csv', filename = 'exclusions.csv') =>
    request(svc.app)
      .post('/api/registry/import')
      .query({ filename })
      .set(bearer(key))
      .set('Content-Type', type)
      .send(body);

  describe('the platform operator', () => {
    it('is created with its key at the first start of a ledger without one, and never again', async () => {
      const first = await seedOnFirstStart(svc.composed.deps, '0', silentLogger);
      expect(first.demo).to.equal(null);
      expect(first.operator?.org_name).to.equal(PLATFORM_OPERATOR_ORG);
      expect(first.operator?.scopes).to.include('registry:admin');
      const state = svc.composed.deps.runtime.state(keysProjection);
      expect(state.operator_org_id).to.equal(first.operator?.org_id);

      const again = await seedOnFirstStart(svc.composed.deps, '0', silentLogger);
      expect(again).to.deep.equal({ demo: null, operator: null });
      const deps = svc.composed.deps;
      expect(await bootstrapPlatformOperator(deps.ledger, deps.runtime, deps.secrets)).to.equal(null);
      const imported = await upload(first.operator!, readFileSync(FIXTURE));
      expect(imported.status, JSON.stringify(imported.body)).to.equal(200);
    });

    it('is never a tenant: a tenant org cannot be designated, even by taking the name first', async () => {
      await svc.key(PLATFORM_OPERATOR_ORG, ['admin']);
      const deps = svc.composed.deps;
      let refused: unknown = null;
      await bootstrapPlatformOperator(deps.ledger, deps.runtime, deps.secrets).catch((e: unknown) => {
        refused = e;
      });
      expect(refused).to.be.instanceOf(KeyIssueRefused);
      expect(deps.runtime.state(keysProjection).operator_org_id).to.equal(null);
    });
  });

  describe("registry:admin is the operator's alone", () => {
    it("is not implied by a tenant's admin scope, which still implies every tenant scope", () => {
      expect(grantsScope(['admin'], 'registry:admin')).to.equal(false);
      for (const scope of ['credit:read', 'governance:read', 'governance:write', 'ledger:read'] as const)
        expect(grantsScope(['admin'], scope), scope).to.equal(true);
      expect(grantsScope(['registry:admin'], 'registry:admin')).to.equal(true);
    });

    it('cannot be granted to a tenant, whatever scopes go with it, and nothing is recorded', async () => {
      await svc.key('First Builders Bank', ['admin']);
      const before = await svc.head();
      for (const scopes of [['registry:admin'], ['admin', 'registry:admin']] as const) {
        let refused: unknown = null;
        await issueKey(svc.composed.deps.ledger, svc.composed.deps.runtime, svc.composed.deps.secrets, {
          org_name: 'First Builders Bank',
          scopes: [...scopes],
        }).catch((e: unknown) => {
          refused = e;
        });
        expect(refused, scopes.join(',')).to.be.instanceOf(KeyIssueRefused);
      }
      expect(await svc.head()).to.equal(before);
    });

    it("refuses a tenant admin's SAM upload with 403, recording nothing", async () => {
      const tenantAdmin = await svc.key('First Builders Bank', ['admin']);
      const before = await svc.head();
      const res = await upload(tenantAdmin, readFileSync(FIXTURE));
      expect(res.status).to.equal(403);
      expect(res.body).to.include({ code: 'FORBIDDEN', required_scope: 'registry:admin' });
      expect(await svc.head()).to.equal(before);
    });

    it('npm run keys creates operator keys, and refuses registry:admin to a tenant (exit 2)', () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'plumbline-keys-'));
      try {
        const env = { DATA_DIR: dataDir, DEMO: '0' };
        const tenant = runScript(
          'keys.ts',
          ['create', '--org', 'Acme Bank', '--scopes', 'registry:admin'],
          env,
        );
        expect(tenant.status, tenant.stderr).to.equal(2);
        expect(tenant.stderr).to.include('platform operator');
        const operator = runScript('keys.ts', ['create', '--operator', '--json'], env);
        expect(operator.status, operator.stderr).to.equal(0);
        const issued = JSON.parse(operator.stdout) as IssuedKey;
        expect(issued.org_name).to.equal(PLATFORM_OPERATOR_ORG);
        expect(issued.scopes).to.include('registry:admin');
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });

  describe('importing an extract', () => {
    it(`refuses more than ${HTTP_IMPORT_LIMITS.max_rows.toLocaleString('en-US')} rows with 413, recording nothing`, async () => {
      const operator = await svc.operator();
      const [header, row] = readFileSync(FIXTURE, 'utf8').split('\n');
      const csv = `${header}\n${`${row}\n`.repeat(HTTP_IMPORT_LIMITS.max_rows + 1)}`;
      const zipped = zipOf('exclusions.csv', Buffer.from(csv));
      expect(zipped.length).to.be.lessThan(1024 * 1024);
      const before = await svc.head();
      const res = await upload(operator, zipped, 'application/zip', 'exclusions.zip');
      expect(res.status, JSON.stringify(res.body)).to.equal(413);
      expect(res.body.detail).to.include('npm run import-sam');
      expect(await svc.head()).to.equal(before);
    });

    it('refuses a small zip that expands past 8 MiB with 413 before reading it, recording nothing', async () => {
      const operator = await svc.operator();
      const bomb = zipOf('exclusions.csv', Buffer.alloc(HTTP_IMPORT_LIMITS.max_bytes + 1, 0x20));
      expect(bomb.length).to.be.lessThan(64 * 1024);
      const before = await svc.head();
      const res = await upload(operator, bomb, 'application/zip', 'exclusions.zip');
      expect(res.status, JSON.stringify(res.body)).to.equal(413);
      expect(await svc.head()).to.equal(before);
    });

    it('appends nothing when a re-import changes nothing, even as different bytes', async () => {
      const operator = await svc.operator();
      const csv = readFileSync(FIXTURE);
      const first = await upload(operator, csv);
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body.imported).to.be.greaterThan(0);
      const head = await svc.head();
      for (const again of [csv, Buffer.concat([csv, Buffer.from('\n')]), zipOf('exclusions.csv', csv)]) {
        const res = await upload(operator, again, again === csv ? 'text/csv' : 'application/octet-stream');
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body).to.include({ imported: 0, events_appended: 0 });
        expect(await svc.head()).to.equal(head);
      }
    });
  });
});
