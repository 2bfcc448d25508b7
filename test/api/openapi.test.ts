/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return --
   the OpenAPI document is untyped JSON walked by key; the assertions are what check its shape. */
import { expect } from 'chai';
import request from 'supertest';
import { serviceOf } from '../../src/app.js';
import { openApiPath } from '../../src/openapi/index.js';
import { ERROR_CODES } from '../../src/platform/http/problem.js';
import { RAIL_PATHS } from '../../src/rails/rail.js';
import { startService, type TestService } from '../support/service.js';

type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Follows a local `#/components/...` reference. */
function deref(doc: Json, node: Json): Json {
  if (typeof node.$ref !== 'string') return node;
  const parts = node.$ref.replace(/^#\//, '').split('/');
  const target = parts.reduce<Json | undefined>((at, key) => at?.[key] as Json | undefined, doc);
  if (!target) throw new Error(`dangling reference ${node.$ref}`);
  return target;
}

/** Every `$ref` anywhere under `node`. */
function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, out));
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node))
      k === '$ref' && typeof v === 'string' ? out.push(v) : refsIn(v, out);
  return out;
}

function operationsOf(doc: Json): { path: string; method: string; op: Json }[] {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => (item as Json)[m]).map((method) => ({
      path,
      method,
      op: (item as Json)[method] as Json,
    })),
  );
}

describe('GET /openapi.json (OpenAPI 3.1 from the zod schemas)', function () {
  this.timeout(30_000);
  let svc: TestService;
  let doc: Json;

  before(async () => {
    svc = await startService();
    const res = await request(svc.app).get('/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^application\/json/);
    doc = res.body as Json;
  });
  after(async () => {
    await svc.close();
  });

  it('is an OpenAPI 3.1 document whose references all resolve', () => {
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.info.version).to.equal('1.0.0');
    for (const ref of refsIn(doc)) expect(() => deref(doc, { $ref: ref }), ref).to.not.throw();
    const ids = operationsOf(doc).map((o) => o.op.operationId as string);
    expect(new Set(ids).size, 'operationIds are unique').to.equal(ids.length);
  });

  it('documents every declared route and method, and nothing that is not declared', () => {
    const declared = serviceOf(svc.app)
      .routes.paths()
      .flatMap((r) => r.methods.map((m) => `${m} ${openApiPath(r.path)}`))
      .sort();
    const documented = operationsOf(doc)
      .map((o) => `${o.method.toUpperCase()} ${o.path}`)
      .sort();
    expect(documented).to.deep.equal(declared);
    // The generic static-file entries never stand in for an API route.
    const generic = operationsOf(doc).filter((o) => (o.op.tags as string[]).includes('Static pages'));
    expect(generic.filter((o) => o.path.startsWith('/api/'))).to.deep.equal([]);
  });

  it('takes request bodies from the routes’ strict zod schemas', () => {
    const body = deref(doc, doc.paths['/api/projects'].post.requestBody.content['application/json'].schema);
    expect(body.additionalProperties).to.equal(false);
    expect(body.required).to.include.members(['name', 'borrower', 'general_contractor', 'sov']);
    expect(body.properties.jurisdiction.enum).to.include('CA');
    const documents = deref(
      doc,
      doc.paths['/api/projects/{id}/documents'].post.requestBody.content['application/json'].schema,
    );
    expect(documents.oneOf).to.have.length(6);
    const ledger = doc.paths['/api/ledger'].get.parameters as Json[];
    expect(ledger.map((p) => p.name)).to.deep.equal([
      'after',
      'limit',
      'cursor',
      'type',
      'stream',
      'entity',
      'from',
      'to',
    ]);
    expect(ledger.find((p) => p.name === 'limit')!.schema).to.include({ maximum: 500, default: 100 });
  });

  it('documents the lender actions as variants of one POST /api/lender-credit operation', async () => {
    const op = doc.paths['/api/lender-credit'].post as Json;
    const discovery = (await request(svc.app).get('/api/lender-credit')).body as Json;
    const discovered = Object.keys(discovery.endpoints as Json).map((k) => k.replace('POST ?action=', ''));
    const action = (op.parameters as Json[]).find((p) => p.name === 'action')!;
    expect(action.schema.enum).to.have.members(discovered);
    const variants = op['x-plumbline-actions'] as Json[];
    expect(variants.map((v) => v.action)).to.have.members(discovered);
    const score = variants.find((v) => v.action === 'score')!;
    expect(deref(doc, score.body).required).to.deep.equal(['entity']);
    expect(deref(doc, score.result).required).to.include.members(['credit', 'provenance_hash', 'provenance']);
    expect(variants.find((v) => v.action === 'usage')!.body).to.equal(null);
    expect(op.requestBody.content['application/json'].schema.oneOf).to.have.length(variants.length - 1);
    expect(op.security).to.deep.include({ ApiKeyHeader: [] });
    // The seed's header comes first (seed interface §5), Plumbline's own after it.
    expect(op.security.slice(0, 2)).to.deep.equal([{ ServiceApiKeyHeader: [] }, { ApiKeyHeader: [] }]);
    expect(doc.components.securitySchemes.ServiceApiKeyHeader).to.include({
      type: 'apiKey',
      in: 'header',
      name: 'x-service-api-key',
    });
  });

  it('documents what an inquiry-recording lender call can answer: Idempotency-Key, 422 and LEDGER_INTEGRITY', () => {
    // score and verify append (CreditReportIssued, RegistryVerified) and honour Idempotency-Key:
    // a reused key with another body answers 422 IDEMPOTENCY_KEY_REUSED (lender-credit.test.ts).
    const codesOf = (response: Json | undefined): string[] =>
      (
        (response?.content['application/problem+json'].schema.oneOf as Json[] | undefined) ?? [
          response?.content['application/problem+json'].schema as Json,
        ]
      )
        .filter((m) => m !== undefined)
        .map((m) => deref(doc, m).allOf[1].properties.code.const as string);
    const lender = doc.paths['/api/lender-credit'].post as Json;
    const header = (lender.parameters as Json[]).find((p) => p.name === 'Idempotency-Key');
    expect(header, 'Idempotency-Key parameter').to.include({ in: 'header', required: false });
    expect(codesOf(lender.responses['422'])).to.include('IDEMPOTENCY_KEY_REUSED');
    expect(codesOf(lender.responses['503'])).to.include('LEDGER_INTEGRITY');
    // Opening the PDF records the inquiry too, so an integrity failure refuses it the same way.
    const pdf = doc.paths['/api/credit-report-pdf'].get as Json;
    expect(codesOf(pdf.responses['503'])).to.include('LEDGER_INTEGRITY');
    // Each rail read and scan_all is recorded (RailScanned, RailsScanned, docs/rails.md) inside the
    // ledger's commit: a head that keeps moving answers 409, an integrity failure 503.
    for (const path of [...Object.values(RAIL_PATHS), '/api/governance-rails']) {
      const rail = doc.paths[path].get as Json;
      expect(codesOf(rail.responses['409']), path).to.include('CONFLICT');
      expect(codesOf(rail.responses['503']), path).to.include('LEDGER_INTEGRITY');
    }
  });

  it('documents the 400 a tenant key listing answers to any query parameter (it takes none)', async () => {
    const k = await svc.key('Harbor Credit Union', ['admin']);
    const res = await request(svc.app)
      .get('/api/keys?org_id=org_bbbbbbbbbbbbbbbb')
      .set('Authorization', `Bearer ${k.key}`);
    expect(res.status).to.equal(400);
    const list = doc.paths['/api/keys'].get as Json;
    expect(Object.keys(list.responses as Json)).to.include('400');
    expect(list.parameters ?? []).to.deep.equal([]);
  });

  it("refuses and documents any query parameter on the signers and accounts listings (they take none: 400, never the caller's own list for another org)", async () => {
    const k = await svc.key('Harbor Credit Union', ['governance:read']);
    for (const path of ['/api/signers', '/api/accounts']) {
      for (const query of ['org_id=org_bbbbbbbbbbbbbbbb', 'limit=1']) {
        const res = await request(svc.app).get(`${path}?${query}`).set('Authorization', `Bearer ${k.key}`);
        expect(res.status, `${path}?${query} → ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
      }
      const list = doc.paths[path].get as Json;
      expect(Object.keys(list.responses as Json), path).to.include('400');
      expect(list.parameters ?? [], path).to.deep.equal([]);
    }
  });

  it('points every error response at the Problem schema built from ERRORS', () => {
    const problem = doc.components.schemas.Problem as Json;
    expect(problem.properties.code.enum).to.deep.equal(ERROR_CODES);
    const seen = new Set<string>();
    for (const { path, method, op } of operationsOf(doc)) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if (Number(status) < 400) continue;
        const schema = (response as Json).content['application/problem+json'].schema as Json;
        const members = (schema.oneOf as Json[] | undefined) ?? [schema];
        for (const member of members) {
          const narrowed = deref(doc, member);
          expect(narrowed.allOf[0].$ref, `${method} ${path} ${status}`).to.equal(
            '#/components/schemas/Problem',
          );
          const code = narrowed.allOf[1].properties.code.const as string;
          expect(narrowed.allOf[1].properties.status.const, `${code} on ${status}`).to.equal(Number(status));
          seen.add(code);
        }
      }
    }
    expect([...seen].sort()).to.deep.equal([...ERROR_CODES].sort());
    const push = doc.paths['/api/payment-push'].post.responses as Json;
    expect(push['422'].content['application/problem+json'].schema.oneOf).to.have.length(2);
    expect(push['429'].headers).to.have.property('Retry-After');
  });

  it('states each surface’s security and scope', () => {
    const sec = (path: string, method: string) => doc.paths[path][method] as Json;
    expect(sec('/healthz', 'get').security).to.deep.equal([]);
    expect(sec('/api/projects', 'post').security).to.deep.include({ BearerAuth: [] });
    expect(sec('/api/projects', 'post')['x-plumbline-scope']).to.equal('governance:write');
    expect(sec('/api/credit-report-pdf', 'get').security).to.deep.include({ KeyQuery: [] });
    expect(sec('/api/ledger', 'get')['x-plumbline-scope']).to.equal('ledger:read');
    expect(sec('/api/registry/import', 'post')['x-plumbline-scope']).to.equal('registry:admin');
    expect(sec('/api/projects', 'post').parameters.map((p: Json) => p.name)).to.include('Idempotency-Key');
    expect(Object.keys(doc.components.securitySchemes as Json)).to.have.members([
      'ServiceApiKeyHeader',
      'ApiKeyHeader',
      'BearerAuth',
      'KeyQuery',
    ]);
  });

  it('documents every member of an eligibility answer, with the PRAL, rail and tier vocabularies (DOMAIN §6)', () => {
    const schema = doc.components.schemas.Eligibility as Json;
    const item = schema.properties.credit_improvement.items as Json;
    expect(item.required).to.include.members(['dimension', 'factor', 'action', 'expected_gain']);
    expect(schema.properties.payment_recommendation.properties.pral.enum).to.deep.equal([
      'RELEASE',
      'RELEASE_WITH_CONDITIONS',
      'HOLD',
      'DENY',
    ]);
    expect(schema.properties.eligible_payment_rails.items.enum).to.have.members([
      'ACH',
      'Wire',
      'RTP',
      'SWIFT',
      'ESCROW',
    ]);
    expect(schema.properties.marketplace_access.properties.tier.enum).to.have.members([
      'PREFERRED',
      'STANDARD',
      'RESTRICTED',
      'NONE',
    ]);
  });

  it('documents the RateLimit-Policy and RateLimit headers (SPEC §3) on every rate-limited answer', () => {
    const limited = operationsOf(doc).filter(({ op }) => op['x-plumbline-rate-limit'] !== undefined);
    expect(limited.map(({ path }) => path)).to.include.members([
      '/api/lender-credit',
      '/api/credit-report-pdf',
    ]);
    for (const { path, method, op } of limited) {
      for (const status of [Object.keys(op.responses as Json).find((s) => s.startsWith('2'))!, '429']) {
        const headers = Object.keys((op.responses[status].headers ?? {}) as Json);
        expect(headers, `${method} ${path} ${status}`).to.include.members(['RateLimit-Policy', 'RateLimit']);
      }
    }
    const lender = doc.paths['/api/lender-credit'].post.responses['200'].headers as Json;
    expect(lender['RateLimit-Policy'].description).to.include('"daily";q=100;w=86400');
  });
});
