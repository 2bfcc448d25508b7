/**
 * The live SAM.gov registry check (issue 20), against a local server answering in the shapes SAM's
 * Entity Management API v3 and Exclusions API v4 document. With SAM_API_KEY configured, `verify`
 * and the registry check inside `score` ask SAM for the entity (by UEI, else by name), record what
 * they learned on a RegistryVerified event whose source says `sam_api` and when, and reuse that
 * answer for 24 hours; a failing SAM (429, hung, malformed) falls back to the imported extract,
 * says so in the report and never fails the call. Without the key, SAM is never asked.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { SAM_ANSWER_TTL_MS } from '../../src/credit/index.js';
import { REPO_ROOT } from '../support/cli.js';
import {
  entitiesPage,
  exclusionsPage,
  SAM_ENTITIES,
  SAM_EXCLUSIONS,
  samEntity,
  samExclusion,
  sendJson,
  startSamStub,
  type SamStub,
} from '../support/sam-stub.js';
import { useSamService } from '../support/sam-service.js';
import { startService, type TestService } from '../support/service.js';

const SAM_KEY = 'SAM-TEST-KEY-5d2a91';
const NOW = '2026-06-15T12:00:00.000Z';
const KEYSTONE_UEI = 'KSTNBLDRS123';

describe('live SAM.gov registry check (SAM_API_KEY set)', function () {
  this.timeout(30_000);
  const h = useSamService({
    apiKey: SAM_KEY,
    now: NOW,
    entity: {
      legal_name: 'Keystone Builders, Inc.',
      roles: ['general_contractor'],
      uei: KEYSTONE_UEI,
      cage: '4KST1',
    },
  });
  const { lender, verifications, entity } = h;

  it('asks SAM by UEI, answers from what it learned and records it as RegistryVerified from sam_api', async () => {
    h.sam.answer(
      entitiesPage(samEntity({ uei: KEYSTONE_UEI, name: 'KEYSTONE BUILDERS INC', cage: '4KST1' })),
      exclusionsPage(),
    );
    const res = await lender('verify', { entity: 'Keystone Builders' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.contractor_registry).to.deep.equal({
      registration: 'active',
      exclusions: 'clear',
      uei: KEYSTONE_UEI,
      cage: '4KST1',
      legal_name: 'KEYSTONE BUILDERS INC',
      registration_expires_on: '2027-01-14',
      exclusion_records: [],
      source: { kind: 'sam_api', as_of: '2026-06-15', fetched_at: NOW },
      checked_at: NOW,
    });
    expect(h.sam.requests.map((u) => u.pathname).sort()).to.deep.equal([SAM_ENTITIES, SAM_EXCLUSIONS]);
    for (const asked of h.sam.requests) {
      expect(asked.searchParams.get('ueiSAM')).to.equal(KEYSTONE_UEI);
      expect(asked.searchParams.get('api_key')).to.equal(SAM_KEY);
    }
    const [event] = await verifications(h.entityId);
    expect(event?.data).to.deep.include({
      registration: 'active',
      exclusions: 'clear',
      source: { kind: 'sam_api', as_of: '2026-06-15', fetched_at: NOW },
    });
    // What SAM said is on the ledger (minus business types, which never reach credit).
    expect((event?.data as { sam_answer: unknown }).sam_answer).to.deep.equal({
      fetched_at: NOW,
      registrations: [
        {
          uei: KEYSTONE_UEI,
          cage: '4KST1',
          legal_name: 'KEYSTONE BUILDERS INC',
          status: 'active',
          expires_on: '2027-01-14',
        },
      ],
      exclusions: [],
    });
  });

  it('reuses a recorded answer for 24 hours (SAM is not asked again), then asks afresh', async () => {
    h.sam.answer(
      entitiesPage(samEntity({ uei: KEYSTONE_UEI, name: 'KEYSTONE BUILDERS INC' })),
      exclusionsPage(),
    );
    expect((await lender('verify', { entity: h.entityId })).status).to.equal(200);
    expect(h.sam.requests).to.have.length(2);

    h.svc.clock.advance(SAM_ANSWER_TTL_MS - 1000);
    const reused = await lender('verify', { entity: h.entityId });
    expect(reused.body.contractor_registry.source).to.deep.equal({
      kind: 'sam_api',
      as_of: '2026-06-15',
      fetched_at: NOW,
    });
    const scored = await lender('score', { entity: h.entityId });
    expect(scored.body.contractor_registry).to.deep.include({ registration: 'active', exclusions: 'clear' });
    expect(scored.body.contractor_registry.source.kind).to.equal('sam_api');
    expect(h.sam.requests).to.have.length(2);

    h.svc.clock.advance(1000);
    const fresh = await lender('verify', { entity: h.entityId });
    expect(fresh.body.contractor_registry.source.fetched_at).to.equal('2026-06-16T12:00:00.000Z');
    expect(h.sam.requests).to.have.length(4);
    expect(await verifications(h.entityId)).to.have.length(3);
  });

  it('reuses a recorded answer after a restart: the cache is the ledger, not the process', async () => {
    h.sam.answer(
      entitiesPage(samEntity({ uei: KEYSTONE_UEI, name: 'KEYSTONE BUILDERS INC' })),
      exclusionsPage(),
    );
    expect((await lender('verify', { entity: h.entityId })).body.contractor_registry.source.kind).to.equal(
      'sam_api',
    );
    expect(h.sam.requests).to.have.length(2);
    await h.svc.restart();
    h.svc.clock.advance(60 * 60 * 1000);
    const after = await lender('verify', { entity: h.entityId });
    expect(after.status).to.equal(200);
    expect(after.body.contractor_registry.source).to.deep.equal({
      kind: 'sam_api',
      as_of: '2026-06-15',
      fetched_at: NOW,
    });
    expect(h.sam.requests).to.have.length(2);
  });

  it('reports an exclusion SAM lists as excluded, in verify and in the score (F, DENY), and records it', async () => {
    h.sam.answer(
      entitiesPage(samEntity({ uei: KEYSTONE_UEI, name: 'KEYSTONE BUILDERS INC', exclusionFlag: 'D' })),
      exclusionsPage(
        samExclusion({ uei: KEYSTONE_UEI, name: 'KEYSTONE BUILDERS INC', activate: '03-01-2026' }),
        // SAM's answer is untrusted: a record for another UEI is not this entity's.
        samExclusion({ uei: 'SOMEONEELSE1', name: 'OTHER FIRM LLC' }),
      ),
    );
    const scored = await lender('score', { entity: 'Keystone Builders' });
    expect(scored.status, JSON.stringify(scored.body)).to.equal(200);
    expect(scored.body.contractor_registry).to.deep.include({
      registration: 'active',
      exclusions: 'excluded',
    });
    expect(scored.body.contractor_registry.source).to.deep.equal({
      kind: 'sam_api',
      as_of: '2026-06-15',
      fetched_at: NOW,
    });
    expect(scored.body.credit.grade).to.equal('F');
    expect(scored.body.behavioral.state).to.equal('SUSPENDED');
    const [recorded] = await verifications(h.entityId);
    expect(recorded?.data).to.deep.include({ exclusions: 'excluded', exclusion_active_since: '2026-03-01' });

    const verified = await lender('verify', { entity: h.entityId });
    expect(verified.body.contractor_registry.exclusion_records).to.deep.equal([
      {
        program: 'Reciprocal',
        type: 'Ineligible (Proceedings Completed)',
        agency: 'DOI',
        active_on: '2026-03-01',
        terminates_on: 'Indefinite',
      },
    ]);
    const eligibility = await lender('eligibility', { entity: h.entityId });
    expect(eligibility.body.payment_recommendation.pral).to.equal('DENY');
    expect(h.sam.requests).to.have.length(2);
  });

  it('reports an entity SAM does not know as inactive and clear, from sam_api', async () => {
    h.sam.answer(entitiesPage(), exclusionsPage());
    const res = await lender('verify', { entity: h.entityId });
    expect(res.body.contractor_registry).to.deep.include({
      registration: 'inactive',
      exclusions: 'clear',
      legal_name: 'Keystone Builders, Inc.',
      registration_expires_on: null,
    });
    expect(res.body.contractor_registry.source.kind).to.equal('sam_api');
  });

  it('asks by name when the entity has no UEI or CAGE, keeping only records of that name', async () => {
    const quarry = await entity({ legal_name: 'Quarry Hill Masonry LLC', roles: ['subcontractor'] });
    h.sam.answer(
      entitiesPage(
        samEntity({ uei: 'QRYHILL00001', name: 'QUARRY HILL MASONRY, L.L.C.' }),
        samEntity({ uei: 'QRYHILL00002', name: 'QUARRY HILL MASONRY AND STONE INC' }),
      ),
      exclusionsPage(samExclusion({ uei: null, name: 'Quarry Hill Masonry LLC', terminate: '12-31-2025' })),
    );
    const res = await lender('verify', { entity: quarry });
    expect(
      h.sam.requests.find((u) => u.pathname === SAM_ENTITIES)?.searchParams.get('legalBusinessName'),
    ).to.equal('Quarry Hill Masonry LLC');
    expect(
      h.sam.requests.find((u) => u.pathname === SAM_EXCLUSIONS)?.searchParams.get('exclusionName'),
    ).to.equal('Quarry Hill Masonry LLC');
    expect(res.body.contractor_registry).to.deep.include({
      registration: 'active',
      exclusions: 'clear',
      uei: 'QRYHILL00001',
      legal_name: 'QUARRY HILL MASONRY, L.L.C.',
    });
    expect(res.body.contractor_registry.exclusion_records).to.deep.equal([
      {
        program: 'Reciprocal',
        type: 'Ineligible (Proceedings Completed)',
        agency: 'DOI',
        active_on: '2017-11-30',
        terminates_on: '2025-12-31',
      },
    ]);
  });

  describe('SAM failing never fails the call: the imported extract answers and the report says so', () => {
    async function importExclusions(): Promise<void> {
      const admin = await h.svc.operator();
      const csv = readFileSync(join(REPO_ROOT, 'test/fixtures/sam/exclusions-small.csv'));
      const res = await request(h.svc.app)
        .post('/api/registry/import')
        .set('Authorization', `Bearer ${admin.key}`)
        .set('Content-Type', 'text/csv')
        .send(csv);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }

    const cases: { name: string; arrange: () => void; reason: string; status: number | null }[] = [
      {
        name: 'a 429',
        arrange: () => {
          const limited = (_req: unknown, res: Parameters<typeof sendJson>[0]) =>
            sendJson(
              res,
              429,
              { code: '900804', message: 'Message throttled out' },
              { 'retry-after': '3600' },
            );
          h.sam.on(SAM_ENTITIES, limited);
          h.sam.on(SAM_EXCLUSIONS, limited);
        },
        reason: 'rate_limited',
        status: 429,
      },
      { name: 'a hung server (timeout)', arrange: () => h.sam.hang(), reason: 'timeout', status: null },
      {
        name: 'a malformed body',
        arrange: () => h.sam.answer('{"entityData": [', exclusionsPage()),
        reason: 'bad_response',
        status: 200,
      },
      {
        name: 'a 503 outage',
        arrange: () => {
          h.sam.on(SAM_ENTITIES, (_req, res) => sendJson(res, 503, '<html>Service Unavailable</html>'));
          h.sam.on(SAM_EXCLUSIONS, (_req, res) => sendJson(res, 200, exclusionsPage()));
        },
        reason: 'http_error',
        status: 503,
      },
    ];
    for (const { name, arrange, reason, status } of cases) {
      it(`on ${name}`, async () => {
        await importExclusions();
        arrange();
        const res = await lender('verify', { entity: h.entityId });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const registry = res.body.contractor_registry;
        expect(registry.source.kind).to.equal('sam_extract');
        expect(registry.source.file).to.be.a('string');
        expect(registry.fallback).to.include({ reason, status });
        expect(registry.fallback.detail).to.match(/the imported SAM extract answered instead\.$/);
        const [event] = await verifications(h.entityId);
        expect(event?.data).to.deep.include({ fallback: registry.fallback });
        expect(event?.data).not.to.have.property('sam_answer');

        const scored = await lender('score', { entity: h.entityId });
        expect(scored.status).to.equal(200);
        expect(scored.body.contractor_registry.fallback).to.include({ reason });
      });
    }

    it('after a 429, stays away from SAM until its Retry-After has passed', async () => {
      let calls = 0;
      const limited = (_req: unknown, res: Parameters<typeof sendJson>[0]) => {
        calls += 1;
        sendJson(res, 429, { message: 'Message throttled out' }, { 'retry-after': '600' });
      };
      h.sam.on(SAM_ENTITIES, limited);
      h.sam.on(SAM_EXCLUSIONS, limited);
      expect(
        (await lender('verify', { entity: h.entityId })).body.contractor_registry.fallback.reason,
      ).to.equal('rate_limited');
      const asked = calls;
      h.svc.clock.advance(599_000);
      const paused = await lender('verify', { entity: h.entityId });
      expect(paused.body.contractor_registry.fallback).to.include({ reason: 'rate_limited', status: null });
      expect(calls).to.equal(asked);
      h.sam.answer(
        entitiesPage(samEntity({ uei: KEYSTONE_UEI, name: 'KEYSTONE BUILDERS INC' })),
        exclusionsPage(),
      );
      h.svc.clock.advance(1000);
      const back = await lender('verify', { entity: h.entityId });
      expect(back.body.contractor_registry.source.kind).to.equal('sam_api');
    });
  });

  it('honours Idempotency-Key on verify: a retry replays, records once and does not ask SAM again', async () => {
    h.sam.answer(
      entitiesPage(samEntity({ uei: KEYSTONE_UEI, name: 'KEYSTONE BUILDERS INC' })),
      exclusionsPage(),
    );
    const first = await lender(
      'verify',
      { entity: h.entityId },
      { 'Idempotency-Key': 'verify-h.entityId-01' },
    );
    expect(first.status).to.equal(200);
    const head = await h.svc.head();
    const again = await lender(
      'verify',
      { entity: h.entityId },
      { 'Idempotency-Key': 'verify-h.entityId-01' },
    );
    expect(again.headers['idempotent-replayed']).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
    expect(await h.svc.head()).to.equal(head);
    expect(await verifications(h.entityId)).to.have.length(1);
    expect(h.sam.requests).to.have.length(2);
    const reused = await lender(
      'verify',
      { entity: 'Someone Else' },
      { 'Idempotency-Key': 'verify-h.entityId-01' },
    );
    expect(reused.status).to.equal(422);
    expect(reused.body).to.include({ ok: false, code: 'IDEMPOTENCY_KEY_REUSED' });
  });
});

describe('registry check without SAM_API_KEY', function () {
  this.timeout(30_000);
  let sam: SamStub;
  let svc: TestService;
  before(async () => {
    sam = await startSamStub();
  });
  after(async () => {
    await sam.stop();
    await svc.close();
  });

  it('uses only the imported extracts and never asks SAM.gov', async () => {
    svc = await startService({ now: NOW });
    const key = await svc.key('First Builders Bank');
    await request(svc.app)
      .post('/api/entities')
      .set('Authorization', `Bearer ${key.key}`)
      .send({ legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'], uei: KEYSTONE_UEI });
    const res = await request(svc.app)
      .post('/api/lender-credit?action=verify')
      .set('x-service-api-key', key.key)
      .send({ entity: 'Keystone Builders' });
    expect(res.status).to.equal(200);
    expect(res.body.contractor_registry.source).to.deep.equal({ kind: 'sam_extract', as_of: '2026-06-15' });
    expect(res.body.contractor_registry).not.to.have.property('fallback');
    expect(sam.requests).to.have.length(0);
  });
});
