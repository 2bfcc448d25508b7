/**
 * OWASP API9:2023 — Improper Inventory Management.
 *
 * test/api/openapi.test.ts proves the OpenAPI document lists every route and method the app
 * declares and nothing else. This file proves the rest of the inventory is kept, so nothing old
 * or second-door stays reachable without being listed: the aliases and deprecated doors are
 * exactly the known ones — the seed's `x-service-api-key` header (documented as an alias of
 * `x-plumbline-api-key`, answering alike), and the PDF route's `key` query parameter (flagged
 * deprecated in favour of the signed `link`); the lender discovery document, the OpenAPI action
 * enum and the live action table name the same actions; and every non-API path the app serves is
 * a documented static file, page or probe.
 */
import { expect } from 'chai';
import request from 'supertest';
import { serviceOf } from '../../src/app.js';
import { openApiPath } from '../../src/openapi/index.js';
import { startService, type TestService } from '../support/service.js';

type Json = Record<string, unknown>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('OWASP API9 — improper inventory management', function () {
  this.timeout(60_000);
  let svc: TestService;
  let doc: {
    paths: Record<string, Record<string, Json>>;
    components: { securitySchemes: Record<string, Json> };
  };

  before(async () => {
    svc = await startService();
    doc = (await request(svc.app).get('/openapi.json')).body;
  });
  after(async () => {
    await svc.close();
  });

  it('lists exactly the known deprecated doors: the PDF key query parameter and nothing else', () => {
    const deprecated: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        if (!METHODS.includes(method)) continue;
        if (op.deprecated === true) deprecated.push(`${method.toUpperCase()} ${path}`);
        for (const p of (op.parameters ?? []) as Json[])
          if (p.deprecated === true) deprecated.push(`${method.toUpperCase()} ${path} ?${String(p.name)}`);
      }
    expect(deprecated).to.deep.equal(['GET /api/credit-report-pdf ?key']);
    const pdf = doc.paths['/api/credit-report-pdf']!.get!;
    expect(((pdf.parameters ?? []) as Json[]).map((p) => p.name)).to.include('link');
  });

  it('lists exactly the known credential doors, the alias header documented as answering alike', async () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).to.deep.equal([
      'ApiKeyHeader',
      'BearerAuth',
      'KeyQuery',
      'ServiceApiKeyHeader',
    ]);
    expect(doc.components.securitySchemes.ServiceApiKeyHeader).to.include({
      in: 'header',
      name: 'x-service-api-key',
    });
    expect(String(doc.components.securitySchemes.KeyQuery!.description)).to.contain('deprecated');
    // The alias is one door to the same room: same key, same answer, same quota.
    const k = await svc.key('Inventory Bank', ['credit:read']);
    const viaAlias = await request(svc.app)
      .post('/api/lender-credit?action=usage')
      .set('x-service-api-key', k.key);
    const viaOwn = await request(svc.app)
      .post('/api/lender-credit?action=usage')
      .set('x-plumbline-api-key', k.key);
    expect(viaAlias.status).to.equal(200);
    expect(viaAlias.body).to.deep.equal(viaOwn.body);
  });

  it('names the same lender actions in the discovery document, the OpenAPI enum and the live action table', async () => {
    const discovery = (await request(svc.app).get('/api/lender-credit')).body as { endpoints: Json };
    const discovered = Object.keys(discovery.endpoints)
      .map((k) => k.replace('POST ?action=', ''))
      .sort();
    const op = doc.paths['/api/lender-credit']!.post!;
    const action = ((op.parameters ?? []) as Json[]).find((p) => p.name === 'action') as {
      schema: { enum: string[] };
    };
    expect([...action.schema.enum].sort()).to.deep.equal(discovered);
    expect(discovered).to.include.members(['score', 'usage', 'pdf_link']);
    // An action the table does not know is refused, not silently served by some older handler.
    const k = await svc.key('Inventory Bank', ['credit:read']);
    const unknown = await request(svc.app)
      .post('/api/lender-credit?action=score_v0')
      .set('x-plumbline-api-key', k.key);
    expect(unknown.status).to.equal(400);
  });

  it('serves outside /api only documented pages, static files and probes', () => {
    const outside = serviceOf(svc.app)
      .routes.paths()
      .filter((r) => !r.path.startsWith('/api/'))
      .map((r) => openApiPath(r.path));
    expect(outside.length).to.be.greaterThan(5);
    for (const path of outside) expect(doc.paths, path).to.have.property(path);
  });
});
