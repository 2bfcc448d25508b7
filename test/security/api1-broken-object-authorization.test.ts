/**
 * OWASP API1:2023 — Broken Object Level Authorization.
 *
 * Proves that no org can reach another org's objects through an id: a finding can be resolved only
 * by the org on whose project governance found it (another org's id, an id nobody found and a
 * malformed id are refused, the first two with the same 404, and nothing is recorded — so no
 * resolution can squat a lender's finding); and, generically, that every authenticated route
 * taking a tenant-owned id — in its path, its query or its JSON body, as the app's route table and
 * OpenAPI document list them, so a new route is covered the day it is added — answers another
 * org's id exactly like a random well-formed one (status and body, but for the request id and the
 * id itself), refuses a malformed one with 400/404, and leaves the ledger unchanged.
 */
import { expect } from 'chai';
import request from 'supertest';
import { governance as governanceProjection } from '../../projections/governance.js';
import { serviceOf } from '../../src/app.js';
import { openApiPath } from '../../src/openapi/index.js';
import type { IssuedKey } from '../../src/orgs/keys.js';
import {
  lookalikeId,
  ownedIds,
  seedTwoTenants,
  type ResourceKind,
  type TenantWorld,
} from './tenancy-support.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, unknown>;

const bearer = (key: IssuedKey) => ({ Authorization: `Bearer ${key.key}` });

/** A problem body with what legitimately differs between two requests blanked out. */
function normalized(body: unknown, id: string): string {
  const { request_id: _r, instance: _i, ...rest } = (body ?? {}) as Record<string, unknown>;
  return JSON.stringify(rest).split(id).join('<id>');
}

/** Which kind of tenant-owned object a path segment or an `*_id` field names. */
const PATH_KINDS: Record<string, ResourceKind> = {
  projects: 'project',
  draws: 'draw',
  documents: 'document',
  observations: 'observation',
  findings: 'finding',
  signers: 'signer',
  accounts: 'account',
};
const FIELD_KINDS: Record<string, ResourceKind> = {
  project_id: 'project',
  draw_id: 'draw',
  document_id: 'document',
  evidence_document_id: 'document',
  change_order_id: 'change_order',
  observation_id: 'observation',
  finding_id: 'finding',
  signer_id: 'signer',
};
/**
 * Id parameters that name no tenant-owned object, and why: entities are the bureau's shared
 * subjects (API6 covers who may furnish facts about them); a ledger seq names a link of the one
 * public chain, which another org sees redacted (API3); a docs asset is a static file.
 */
const NOT_TENANT_OWNED = new Set(['entities/{id}', 'ledger/{seq}', 'assets/{file}']);
/** Scopes of the key-administration routes, walked by their own spec (test/api/admin-keys.test.ts). */
const KEY_ADMIN_SCOPES = new Set(['admin', 'platform:admin']);
/** Body fields naming a shared registry entity (a signer's or an account's party), not a tenant's object. */
const NOT_TENANT_OWNED_FIELDS = new Set(['entity_id']);

interface Slot {
  where: 'path' | 'query' | 'body';
  name: string;
  kind: ResourceKind;
}

interface Case {
  method: string;
  path: string;
  slot: Slot;
  /** The body variant (for a union body: which member). */
  variant: Schema | null;
}

describe('OWASP API1 — broken object level authorization', function () {
  this.timeout(900_000);
  let w: TenantWorld;
  let doc: { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } };

  before(async () => {
    w = await seedTwoTenants();
    doc = (await request(w.svc.app).get('/openapi.json')).body;
  });
  after(async () => {
    await w.svc.close();
  });

  describe('resolving a finding (POST /api/findings/:id/resolve)', () => {
    const resolution = { resolution: 'Cured on site', resolved_on: '2026-06-12' };

    it("answers another org's open finding exactly like one nobody found, records nothing, and leaves it to its owner", async () => {
      const gov = w.svc.composed.deps.runtime.state(governanceProjection);
      const foreign = ownedIds(w.svc, w.a.org_id).finding.find((id) => gov.findings[id]?.status === 'OPEN');
      expect(foreign, 'the seeded world has an open finding of org A').to.be.a('string');
      const unknown = lookalikeId(foreign!, 1);
      const head = await w.svc.head();

      const squat = await request(w.svc.app)
        .post(`/api/findings/${foreign}/resolve`)
        .set(bearer(w.b))
        .send(resolution);
      const random = await request(w.svc.app)
        .post(`/api/findings/${unknown}/resolve`)
        .set(bearer(w.b))
        .send(resolution);
      expect(squat.status).to.equal(404);
      expect(random.status).to.equal(404);
      expect(normalized(squat.body, foreign!)).to.equal(normalized(random.body, unknown));
      expect(await w.svc.head()).to.equal(head);

      const owner = await request(w.svc.app)
        .post(`/api/findings/${foreign}/resolve`)
        .set(bearer(w.a))
        .send(resolution);
      expect(owner.status, JSON.stringify(owner.body)).to.equal(201);
      expect(owner.body.id).to.equal(foreign);
    });

    it('refuses a malformed finding id with 400, recording nothing', async () => {
      const head = await w.svc.head();
      for (const id of ['FND-123', 'not-a-finding', `FND-${'A'.repeat(16)}`, 'prj_aaaaaaaaaaaaaaaa']) {
        const res = await request(w.svc.app)
          .post(`/api/findings/${encodeURIComponent(id)}/resolve`)
          .set(bearer(w.b))
          .send(resolution);
        expect(res.status, id).to.equal(400);
      }
      expect(await w.svc.head()).to.equal(head);
    });
  });

  describe('every route that takes an id (route table × OpenAPI)', () => {
    const ref = (schema: Schema): Schema => {
      const target = schema.$ref;
      return typeof target === 'string' ? ref(doc.components.schemas[target.split('/').pop()!]!) : schema;
    };
    const variantsOf = (schema: Schema): Schema[] => {
      const s = ref(schema);
      const members = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
      return members ? members.flatMap(variantsOf) : [s];
    };

    /** The id slots of one operation: path and query parameters, top-level `*_id` body fields. */
    function slotsOf(path: string, op: Schema): { slot: Slot; variant: Schema | null }[] {
      const out: { slot: Slot; variant: Schema | null }[] = [];
      const body = (op.requestBody as Schema | undefined)?.content as
        Record<string, { schema: Schema }> | undefined;
      const schema = body?.['application/json']?.schema;
      // Path and query slots travel with a body the route accepts (its first member).
      const first = schema ? variantsOf(schema)[0]! : null;
      const segments = path.split('/');
      segments.forEach((segment, i) => {
        const param = /^\{(.+)\}$/.exec(segment)?.[1];
        if (param === undefined) return;
        const key = `${segments[i - 1]}/${segment}`;
        if (NOT_TENANT_OWNED.has(key)) return;
        const kind = PATH_KINDS[segments[i - 1]!];
        if (kind === undefined) throw new Error(`${path}: say which object {${param}} names (PATH_KINDS)`);
        out.push({ slot: { where: 'path', name: param, kind }, variant: first });
      });
      for (const p of (op.parameters ?? []) as { in: string; name: string }[]) {
        if (p.in !== 'query' || !/_id$/.test(p.name)) continue;
        const kind = FIELD_KINDS[p.name];
        if (kind === undefined) throw new Error(`${path}: say which object ?${p.name} names (FIELD_KINDS)`);
        out.push({ slot: { where: 'query', name: p.name, kind }, variant: first });
      }
      for (const variant of schema ? variantsOf(schema) : []) {
        for (const name of Object.keys(variant.properties ?? {})) {
          if (!/_id$/.test(name) || NOT_TENANT_OWNED_FIELDS.has(name)) continue;
          const kind = FIELD_KINDS[name];
          if (kind === undefined) throw new Error(`${path}: say which object ${name} names (FIELD_KINDS)`);
          out.push({ slot: { where: 'body', name, kind }, variant });
        }
      }
      return out;
    }

    /** A minimal value the schema accepts (required members only), ids taken from `idFor`. */
    function sample(schema: Schema, name: string, idFor: (field: string) => string | undefined): Json {
      const s = ref(schema);
      if ('const' in s) return s.const as Json;
      if (Array.isArray(s.enum)) return s.enum[0] as Json;
      const union = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
      if (union) return sample(union[0]!, name, idFor);
      const type = Array.isArray(s.type)
        ? (s.type as string[]).find((t) => t !== 'null')
        : (s.type as string | undefined);
      switch (type ?? 'object') {
        case 'string': {
          const id = idFor(name);
          if (id !== undefined) return id;
          if (s.format === 'date') return '2026-06-01';
          if (s.format === 'date-time') return '2026-06-01T12:00:00.000Z';
          return 'x'.repeat(Math.max(1, Number(s.minLength ?? 1)));
        }
        case 'integer':
        case 'number':
          return Math.max(1, Number(s.minimum ?? 1));
        case 'boolean':
          return false;
        case 'array':
          return Array.from({ length: Number(s.minItems ?? 0) }, () =>
            sample(s.items as Schema, name, idFor),
          );
        default: {
          const required = (s.required ?? []) as string[];
          const props = (s.properties ?? {}) as Record<string, Schema>;
          return Object.fromEntries(required.map((k) => [k, sample(props[k] ?? {}, k, idFor)]));
        }
      }
    }

    it('covers every route-table path that takes a parameter (it must be in the OpenAPI document)', () => {
      const table = serviceOf(w.svc.app).routes.paths();
      const parameterized = table.filter((r) => r.path.includes(':'));
      expect(parameterized.length).to.be.greaterThan(5);
      for (const route of parameterized)
        expect(doc.paths, route.path).to.have.property(openApiPath(route.path));
    });

    it("answers another org's id like a random one (404/400, same body), a malformed one with 400/404, and records nothing", async () => {
      const foreign = ownedIds(w.svc, w.a.org_id);
      const mine = ownedIds(w.svc, w.b.org_id);
      for (const kind of ['project', 'draw', 'document', 'finding'] as const)
        expect(foreign[kind], `org A owns a ${kind}`).to.not.be.empty;

      const cases: Case[] = [];
      for (const [path, ops] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(ops)) {
          if (op['x-plumbline-scope'] === undefined) continue; // public: no tenant objects
          // Key and org administration: the operator's routes are closed to tenants (API5), and a
          // tenant admin's own keys are walked with foreign and unknown key ids in admin-keys.test.ts.
          if (KEY_ADMIN_SCOPES.has(op['x-plumbline-scope'] as string)) continue;
          for (const { slot, variant } of slotsOf(path, op)) cases.push({ method, path, slot, variant });
        }
      }
      expect(cases.length, 'id slots found').to.be.greaterThan(20);

      // A fresh key per batch keeps the walk under the per-key minute quota (the clock is pinned).
      const orgB = w.run.lenders[1]!.org_name;
      let key = w.b;
      let sent = 0;
      const send = async (c: Case, value: string) => {
        if (++sent % 400 === 0) key = await w.svc.key(orgB);
        const idFor = (field: string): string | undefined => {
          if (c.slot.where === 'body' && field === c.slot.name) return value;
          const kind = FIELD_KINDS[field];
          return kind === undefined ? undefined : (mine[kind][0] ?? lookalikeId(foreign[kind][0]!, 9));
        };
        const pathValue = (name: string): string =>
          c.slot.where === 'path' && c.slot.name === name ? value : (mine[c.slot.kind][0] ?? value);
        const url = c.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathValue(name)));
        const query = c.slot.where === 'query' ? { [c.slot.name]: value } : {};
        const body = (c.variant ? sample(c.variant, '', idFor) : {}) as Record<string, Json>;
        // The slot goes in even when optional: it is what the case is about.
        if (c.slot.where === 'body') body[c.slot.name] = value;
        const req =
          c.method === 'get'
            ? request(w.svc.app).get(url).query(query)
            : request(w.svc.app).post(url).query(query).send(body);
        return req.set(bearer(key));
      };

      const head = await w.svc.head();
      const notFound: string[] = [];
      for (const c of cases) {
        const theirs = foreign[c.slot.kind][0];
        if (theirs === undefined) continue;
        const label = `${c.method.toUpperCase()} ${c.path} ${c.slot.where}:${c.slot.name}`;
        const random = lookalikeId(theirs, 3);
        const [a, r, m] = [await send(c, theirs), await send(c, random), await send(c, 'not an id/..')];
        expect([400, 404], `${label} foreign → ${a.status} ${JSON.stringify(a.body)}`).to.include(a.status);
        expect(r.status, `${label}: foreign and random answer alike`).to.equal(a.status);
        expect(normalized(a.body, theirs), label).to.equal(normalized(r.body, random));
        expect([400, 404], `${label} malformed → ${m.status}`).to.include(m.status);
        if (a.status === 404) notFound.push(label);
      }
      expect(await w.svc.head(), 'the walk recorded nothing').to.equal(head);
      // Path and query ids, and the governance actions' body ids, reach the ownership check itself.
      for (const expected of [
        'GET /api/projects/{id} path:id',
        'GET /api/draws/{id} path:id',
        'GET /api/documents/{id} path:id',
        'POST /api/findings/{id}/resolve path:id',
        'GET /api/schedule-rail query:project_id',
        'POST /api/kernel-core body:project_id',
      ])
        expect(notFound, expected).to.include(expected);
    });
  });
});
