/**
 * OWASP API3:2023 — Broken Object Property Level Authorization.
 *
 * Proves that what every tenant may read carries no other tenant's properties: on a seeded
 * two-lender ledger, after the behavioral evaluator has appended its org-less transitions, no event
 * that `GET /api/ledger` shows org B in full (its own and the org-less, platform-wide ones — of
 * every type, not only BehavioralStateChanged) holds the id of anything org A owns, and vice versa;
 * a transition states its cause as a code and SHA-256 digests of its evidence, and the read model
 * folds an old schema-1 transition (detail text, evidence ids) to the very record a schema-2 one
 * gives; and an entity record shows the org that registered it only to that org.
 */
import { expect } from 'chai';
import request from 'supertest';
import { serviceOf } from '../../src/app.js';
import {
  evidenceDigest,
  evolveCredit,
  initCreditState,
  type BehavioralStateChangedDataV1,
} from '../../src/credit/index.js';
import { BehaviorEvaluator } from '../../src/lender-api/behavior-evaluator.js';
import type { IssuedKey } from '../../src/orgs/keys.js';
import type { SealedEvent } from '../../src/platform/ledger/envelope.js';
import { sealGiven } from '../support/decider.js';
import { ownedIds, RESOURCE_KINDS, seedTwoTenants, type TenantWorld } from './tenancy-support.js';

const bearer = (key: IssuedKey) => ({ Authorization: `Bearer ${key.key}` });

/** Every event of the ledger as `key`'s org reads it through the API, page by page. */
async function ledgerAs(w: TenantWorld, key: IssuedKey): Promise<SealedEvent[]> {
  const out: SealedEvent[] = [];
  for (let after = 0; ;) {
    const res = await request(w.svc.app).get('/api/ledger').query({ after, limit: 500 }).set(bearer(key));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const page = res.body.events as SealedEvent[];
    out.push(...page);
    if (page.length === 0 || after + page.length >= res.body.head.seq) return out;
    after += page.length;
  }
}

describe('OWASP API3 — broken object property level authorization', function () {
  this.timeout(900_000);
  let w: TenantWorld;

  before(async () => {
    w = await seedTwoTenants();
    const appended = await new BehaviorEvaluator(serviceOf(w.svc.app)).run();
    expect(appended, 'the evaluator appended org-less transitions').to.be.greaterThan(0);
  });
  after(async () => {
    await w.svc.close();
  });

  it('shows no org, in any event it may read in full, an id of an object another org owns', async () => {
    const orgless = new Set<string>();
    for (const [reader, owner] of [
      [w.b, w.a],
      [w.a, w.b],
    ] as const) {
      const owned = ownedIds(w.svc, owner.org_id);
      const ids = RESOURCE_KINDS.flatMap((kind) => owned[kind].map((id) => ({ kind, id })));
      expect(ids.length, `${owner.org_name} owns objects`).to.be.greaterThan(10);
      const events = await ledgerAs(w, reader);
      const full = events.filter((e) => e.type !== 'Redacted');
      expect(full.length).to.be.lessThan(events.length);
      for (const event of full) {
        expect([null, reader.org_id]).to.include(event.meta.org_id);
        if (event.meta.org_id === null) orgless.add(event.type);
        const text = JSON.stringify(event);
        for (const { kind, id } of ids)
          expect(
            text.includes(id),
            `${event.type} #${event.seq} shows ${owner.org_name}'s ${kind} ${id}`,
          ).to.equal(false);
      }
    }
    expect([...orgless], 'the org-less events the walk checked').to.include('BehavioralStateChanged');
  });

  it('states a transition cause as a code and evidence digests, and folds schema 1 and 2 to one record', async () => {
    const transitions = (await w.svc.composed.store.read(1, 100_000)).filter(
      (e) => e.type === 'BehavioralStateChanged',
    );
    expect(transitions).to.not.be.empty;
    for (const t of transitions) {
      expect(t.schema).to.equal(2);
      expect(Object.keys((t.data as { cause: object }).cause).sort()).to.deep.equal([
        'code',
        'evidence_count',
        'evidence_sha256',
      ]);
    }

    const v1: BehavioralStateChangedDataV1 = {
      entity_id: 'ent_aaaaaaaaaaaaaaaa',
      from: 'GOOD_STANDING',
      to: 'PROBATION',
      cause: {
        code: 'BLOCKING_FINDING',
        detail: 'BLOCKING LIEN_WAIVER_MISMATCH: waiver for $12,000 against $15,000 billed',
        evidence: [{ kind: 'finding', id: 'FND-aaaaaaaaaaaaaaaa' }],
      },
      effective_on: '2026-05-20',
    };
    const v2 = {
      ...v1,
      cause: {
        code: 'BLOCKING_FINDING',
        evidence_count: 1,
        evidence_sha256: [evidenceDigest('finding', 'FND-aaaaaaaaaaaaaaaa')],
      },
    };
    const fold = (schema: number, data: unknown) =>
      sealGiven([
        { stream: 'entity-ent_aaaaaaaaaaaaaaaa', type: 'BehavioralStateChanged', schema, data, org_id: null },
      ]).reduce(evolveCredit, initCreditState());
    const old = fold(1, v1);
    expect(old).to.deep.equal(fold(2, v2));
    expect(JSON.stringify(old)).to.not.include('FND-aaaaaaaaaaaaaaaa');
  });

  it('shows the org that registered an entity only to that org', async () => {
    const registered = async (key: IssuedKey) => {
      const res = await request(w.svc.app).get('/api/entities').query({ limit: 500 }).set(bearer(key));
      expect(res.status).to.equal(200);
      return res.body.data as { entity_id: string; org_id: string | null }[];
    };
    const [asA, asB] = [await registered(w.a), await registered(w.b)];
    const byA = asA.filter((e) => e.org_id === w.a.org_id).map((e) => e.entity_id);
    expect(byA, 'org A registered entities').to.not.be.empty;
    for (const e of asB) expect(e.org_id, e.entity_id).to.be.oneOf([null, w.b.org_id]);
    for (const id of byA) {
      const one = await request(w.svc.app).get(`/api/entities/${id}`).set(bearer(w.b));
      expect(one.status).to.equal(200);
      expect(one.body.org_id).to.equal(null);
      const own = await request(w.svc.app).get(`/api/entities/${id}`).set(bearer(w.a));
      expect(own.body.org_id).to.equal(w.a.org_id);
    }
  });
});
