/**
 * OWASP API7:2023 — Server Side Request Forgery.
 *
 * Proves that no request can make the server read or fetch a resource of the caller's choosing:
 * the registry import's `{path}` — the one request field that names a location — is confined to
 * DATA_DIR/imports (parent traversal, absolute paths and symlinks that lead outside are refused
 * with 400, a missing file is a 404, and nothing is recorded either way), a URL in its place is
 * refused before anything is opened, and no request body in the OpenAPI document takes a URL at
 * all, so there is no other input the server would fetch.
 */
import { mkdirSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import type { IssuedKey } from '../../src/orgs/keys.js';
import { REPO_ROOT } from '../support/cli.js';
import { startService, type TestService } from '../support/service.js';

const FIXTURE = join(REPO_ROOT, 'test/fixtures/sam/exclusions-small.csv');

describe('OWASP API7 — server side request forgery', function () {
  this.timeout(120_000);
  let svc: TestService;
  let operator: IssuedKey;
  let imports: string;

  const importPath = (path: unknown) =>
    request(svc.app)
      .post('/api/registry/import')
      .set('Authorization', `Bearer ${operator.key}`)
      .send({ path });

  before(async () => {
    svc = await startService();
    operator = await svc.operator();
    imports = join(svc.dataDir, 'imports');
    mkdirSync(imports, { recursive: true });
    // A file beside the imports directory (inside DATA_DIR) and one a symlink leads to.
    writeFileSync(join(svc.dataDir, 'outside.csv'), readFileSync(FIXTURE));
    symlinkSync(join(svc.dataDir, 'outside.csv'), join(imports, 'link.csv'));
    symlinkSync(svc.dataDir, join(imports, 'up'));
    writeFileSync(join(imports, 'inside.csv'), readFileSync(FIXTURE));
  });
  after(async () => {
    await svc.close();
  });

  it('refuses parent traversal, absolute paths and symlinks leading outside DATA_DIR/imports (400), recording nothing', async () => {
    const head = await svc.head();
    for (const path of [
      '../outside.csv',
      'sub/../../outside.csv',
      join(svc.dataDir, 'outside.csv'),
      '/etc/passwd',
      'link.csv',
      'up/outside.csv',
    ]) {
      const res = await importPath(path);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(400);
      expect(res.body.errors?.[0]?.path, path).to.equal('path');
    }
    const missing = await importPath('nope.csv');
    expect(missing.status).to.equal(404);
    expect(await svc.head()).to.equal(head);
  });

  it('refuses a URL (any scheme) in place of a path before opening anything, and any other field', async () => {
    const head = await svc.head();
    for (const path of [
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'https://sam.gov/data-services/extract.zip',
      'file:///etc/passwd',
      'ftp://example.com/x.csv',
      'gopher://127.0.0.1:6379/_FLUSHALL',
    ]) {
      const res = await importPath(path);
      expect(res.status, path).to.equal(400);
      expect(res.body.detail, path).to.include('not a URL');
    }
    const url = await request(svc.app)
      .post('/api/registry/import')
      .set('Authorization', `Bearer ${operator.key}`)
      .send({ url: 'http://169.254.169.254/' });
    expect(url.status).to.equal(400);
    expect(await svc.head()).to.equal(head);
  });

  it('still imports a file that is inside DATA_DIR/imports', async () => {
    const res = await importPath('inside.csv');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.imported).to.be.greaterThan(0);
  });

  it('takes no URL in any request body the OpenAPI document describes', async () => {
    const doc = (await request(svc.app).get('/openapi.json')).body as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
      components: { schemas: Record<string, unknown> };
    };
    const urlish: string[] = [];
    const seen = new Set<unknown>();
    const walk = (schema: unknown, where: string): void => {
      if (schema === null || typeof schema !== 'object' || seen.has(schema)) return;
      seen.add(schema);
      const s = schema as Record<string, unknown>;
      if (typeof s.$ref === 'string') walk(doc.components.schemas[s.$ref.split('/').pop()!], where);
      if (s.format === 'uri' || s.format === 'url') urlish.push(where);
      for (const [name, child] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) {
        if (/ur[il]$|href|callback|webhook/i.test(name)) urlish.push(`${where}.${name}`);
        walk(child, `${where}.${name}`);
      }
      for (const media of Object.values((s.content ?? {}) as Record<string, { schema?: unknown }>))
        walk(media.schema, where);
      for (const key of ['items', 'oneOf', 'anyOf', 'allOf'])
        for (const child of [s[key]].flat()) walk(child, where);
    };
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) walk(op.requestBody, `${method} ${path}`);
    expect(seen.size, 'request bodies were walked').to.be.greaterThan(200);
    expect(urlish).to.deep.equal([]);
  });
});
