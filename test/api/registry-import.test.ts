import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { REPO_ROOT } from '../support/cli.js';
import { startService, type TestService } from '../support/service.js';

const FIXTURE = join(REPO_ROOT, 'test/fixtures/sam/exclusions-small.csv');

describe('POST /api/registry/import (platform operator, registry:admin)', function () {
  this.timeout(30_000);
  let svc: TestService;
  beforeEach(async () => {
    svc = await startService();
  });
  afterEach(async () => {
    await svc.close();
  });

  it('imports an uploaded exclusions CSV once: a second upload of the same file appends nothing', async () => {
    const admin = await svc.operator();
    const body = readFileSync(FIXTURE);
    const first = await request(svc.app)
      .post('/api/registry/import?filename=exclusions-small.csv')
      .set('Authorization', `Bearer ${admin.key}`)
      .set('Content-Type', 'text/csv')
      .send(body);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body.imported).to.be.greaterThan(0);
    const head = await svc.head();
    const second = await request(svc.app)
      .post('/api/registry/import?filename=exclusions-small.csv')
      .set('Authorization', `Bearer ${admin.key}`)
      .set('Content-Type', 'text/csv')
      .send(body);
    expect(second.status).to.equal(200);
    expect(second.body.imported).to.equal(0);
    expect(await svc.head()).to.equal(head);
  });

  it("needs registry:admin, which a tenant's own admin key does not imply", async () => {
    for (const lender of [await svc.key('First Builders Bank'), await svc.key('Second Bank', ['admin'])]) {
      const res = await request(svc.app)
        .post('/api/registry/import')
        .set('Authorization', `Bearer ${lender.key}`)
        .set('Content-Type', 'text/csv')
        .send('x');
      expect(res.status).to.equal(403);
      expect(res.body.required_scope).to.equal('registry:admin');
    }
  });

  it('reads {path} only under DATA_DIR/imports and refuses anything outside, changing nothing', async () => {
    const admin = await svc.operator();
    mkdirSync(join(svc.dataDir, 'imports'), { recursive: true });
    writeFileSync(join(svc.dataDir, 'imports', 'x.csv'), readFileSync(FIXTURE));
    const before = await svc.head();
    const escape = await request(svc.app)
      .post('/api/registry/import')
      .set('Authorization', `Bearer ${admin.key}`)
      .send({ path: '../secrets.json' });
    expect(escape.status).to.equal(400);
    expect(await svc.head()).to.equal(before);
    const ok = await request(svc.app)
      .post('/api/registry/import')
      .set('Authorization', `Bearer ${admin.key}`)
      .send({ path: 'x.csv' });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    expect(ok.body.imported).to.be.greaterThan(0);
  });

  it('refuses an upload over 1 MiB with 413 and a file without a header with 400, changing nothing', async () => {
    const admin = await svc.operator();
    const before = await svc.head();
    const huge = await request(svc.app)
      .post('/api/registry/import')
      .set('Authorization', `Bearer ${admin.key}`)
      .set('Content-Type', 'text/csv')
      .send(Buffer.alloc(1024 * 1024 + 10, 'a'));
    expect(huge.status).to.equal(413);
    const junk = await request(svc.app)
      .post('/api/registry/import')
      .set('Authorization', `Bearer ${admin.key}`)
      .set('Content-Type', 'text/plain')
      .send('not a sam file\n');
    expect(junk.status).to.equal(400);
    expect(await svc.head()).to.equal(before);
  });

  it('refuses a damaged or cut zip with 400 naming the damage, changing nothing', async () => {
    const admin = await svc.operator();
    const before = await svc.head();
    const zip = readFileSync(join(REPO_ROOT, 'test/fixtures/sam/SAM_Exclusions_Public_Extract_24100.zip'));
    const damaged = Buffer.from(zip);
    damaged.fill(0xa5, 700, 760);
    for (const bytes of [damaged, zip.subarray(0, 600)]) {
      const res = await request(svc.app)
        .post('/api/registry/import')
        .set('Authorization', `Bearer ${admin.key}`)
        .set('Content-Type', 'application/zip')
        .send(bytes);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.detail).to.match(/^the file was rejected: the zip is damaged/);
    }
    expect(await svc.head()).to.equal(before);
  });
});
