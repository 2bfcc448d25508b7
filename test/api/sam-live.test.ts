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
import type { IssuedKey } from '../../src/orgs/keys.js';
import { SAM_ANSWER_TTL_MS } from '../../src/credit/index.js';
import type { SealedEvent } from '../../src/platform/ledger/envelope.js';
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
import { startService, type TestService } from '../support/service.js';

const SAM_KEY = 'SAM-TEST-KEY-5d2a91';
const NOW = '2026-06-15T12:00:00.000Z';
const KEYSTONE_UEI = 'KSTNBLDRS123';

describe('live SAM.gov registry check (SAM_API_KEY set)', function () {
  this.timeout(30_000);
  let sam: SamStub;
  let svc: TestService;
  let key: IssuedKey;
  let keystone: string;

  before(async () => {
    sam = await startSamStub();
  });
  after(async () => {
    await sam.stop();
  });
  beforeEach(async () => {
    sam.reset();
    svc = await startService({ now: NOW, samApi: { apiKey: SAM_KEY, baseUrl: sam.url, timeoutMs: 300 } });
    key = await svc.key('First Builders Bank');
    keystone = await entity({
      legal_name: 'Keystone Builders, Inc.',
      roles: ['general_contractor'],
      uei: KEYSTONE_UEI,
      cage: '4KST1',
    });
  });
  afterEach(async () => {
    await svc.close();
  });

  async function entity(body: Record<string, unknown>): Promise<string> {
    const res = await request(svc.app)
      .post('/api/entities')
      .set('Authorization', `Bearer ${key.key}`)
      .send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return String(res.body.id);
  }
  const lender = (action: string, body: object, headers: Record<string, string> = {}) =>
    request(svc.app)
      .post(`/api/lender-credit?action=${action}`)
      .set('x-service-api-key', key.key)
      .set(headers)
      .send(body);
  const verifications = async (entityId: string): Promise<SealedEvent[]> =>
    (await svc.composed.store.readStream(`entity-${entityId}`)).filter((e) => e.type === 'RegistryVerified');

  it('asks SAM by UEI, answers from what it learned and records it as RegistryVerified from sam_api', async () => {
    sam.answer(
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
    expect(sam.requests.map((u) => u.pathname).sort()).to.deep.equal([SAM_ENTITIES, SAM_EXCLUSIONS]);
    for (const asked of sam.requests) {
      expect(asked.searchParams.get('ueiSAM')).to.equal(KEYSTONE_UEI);
      expect(asked.searchParams.get('api_key')).to.equal(SAM_KEY);
    }
    const [event] = await verifications(keystone);
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
    sam.answer(
      entitiesPage(samEntity({ uei: KEYSTONE_UEI, name: 'KEYSTONE BUILDERS INC' })),
      exclusionsPage(),
    );
    expect((await lender('verify', { entity: keystone })).status).to.equal(200);
    expect(sam.requests).to.have.length(2);

    svc.clock.advance(SAM_ANSWER_TTL_MS - 1000);
    const reused = await lender('verify', { entity: keystone });
    expect(reused.body.contractor_registry.source).to.deep.equal({
      kind: 'sam_api',
      as_of: '2026-06-15',
      fetched_at: NOW,
    });
    const scored = await lender('score', { entity: keystone });
    expect(scored.body.contractor_registry).to.deep.include({ registration: 'active', exclusions: 'clear' });
    expect(scored.body.contractor_registry.source.kind).to.equal('sam_api');
    expect(sam.requests).to.have.length(2);

    svc.clock.advance(1000);
    const fresh = await lender('verify', { entity: keystone });
    expect(fresh.body.contractor_registry.source.fetched_at).to.equal('2026-06-16T12:00:00.000Z');
    expect(sam.requests).to.have.length(4);
    expect(await verifications(keystone)).to.have.length(3);
  });

  it('reuses a recorded answer after a restart: the cache is the ledger, not the process', async () => {
    sam.answer(
      entitiesPage(samEntity({ uei: KEYSTONE_UEI, name: 'KEYSTONE BUILDERS INC' })),
      exclusionsPage(),
    );
    expect((await lender('verify', { entity: keystone })).body.contractor_registry.source.kind).to.equal(
      'sam_api',
    );
    expect(sam.requests).to.have.length(2);
    await svc.restart();
    svc.clock.advance(60 * 60 * 1000);
    const after = await lender('verify', { entity: keystone });
    expect(after.status).to.equal(200);
    expect(after.body.contractor_registry.source).to.deep.equal({
      kind: 'sam_api',
      as_of: '2026-06-15',
      fetched_at: NOW,
    });
    expect(sam.requests).to.have.length(2);
  });

  it('reports an exclusion SAM lists as excluded, in verify and in the score (F, DENY), and records it', async () => {
    sam.answer(
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
    const [recorded] = await verifications(keystone);
    expect(recorded?.data).to.deep.include({ exclusions: 'excluded', exclusion_active_since: '2026-03-01' });

    const verified = await lender('verify', { entity: keystone });
    expect(verified.body.contractor_registry.exclusion_records).to.deep.equal([
      {
        program: 'Reciprocal',
        type: 'Ineligible (Proceedings Completed)',
        agency: 'DOI',
        active_on: '2026-03-01',
        terminates_on: 'Indefinite',
      },
    ]);
    const eligibility = await lender('eligibility', { entity: keystone });
    expect(eligibility.body.payment_recommendation.pral).to.equal('DENY');
    expect(sam.requests).to.have.length(2);
  });

  it('reports an entity SAM does not know as inactive and clear, from sam_api', async () => {
    sam.answer(entitiesPage(), exclusionsPage());
    const res = await lender('verify', { entity: keystone });
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
    sam.answer(
      entitiesPage(
        samEntity({ uei: 'QRYHILL00001', name: 'QUARRY HILL MASONRY, L.L.C.' }),
        samEntity({ uei: 'QRYHILL00002', name: 'QUARRY HILL MASONRY AND STONE INC' }),
      ),
      exclusionsPage(samExclusion({ uei: null, name: 'Quarry Hill Masonry LLC', terminate: '12-31-2025' })),
    );
    const res = await lender('verify', { entity: quarry });
    expect(
      sam.requests.find((u) => u.pathname === SAM_ENTITIES)?.searchParams.get('legalBusinessName'),
    ).to.equal('Quarry Hill Masonry LLC');
    expect(
      sam.requests.find((u) => u.pathname === SAM_EXCLUSIONS)?.searchParams.get('exclusionName'),
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
      const admin = await svc.key('Plumbline Operations', ['admin']);
      const csv = readFileSync(join(REPO_ROOT, 'test/fixtures/sam/exclusions-small.csv'));
      const res = await request(svc.app)
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
          sam.on(SAM_ENTITIES, limited);
          sam.on(SAM_EXCLUSIONS, limited);
        },
        reason: 'rate_limited',
        status: 429,
      },
      { name: 'a hung server (timeout)', arrange: () => sam.hang(), reason: 'timeout', status: null },
      {
        name: 'a malformed body',
        arrange: () => sam.answer('{"entityData": [', exclusionsPage()),
        reason: 'bad_response',
        status: 200,
      },
      {
        name: 'a 503 outage',
        arrange: () => {
          sam.on(SAM_ENTITIES, (_req, res) => sendJson(res, 503, '<html>Service Unavailable</html>'));
          sam.on(SAM_EXCLUSIONS, (_req, res) => sendJson(res, 200, exclusionsPage()));
        },
        reason: 'http_error',
        status: 503,
      },
    ];
    for (const { name, arrange, reason, status } of cases) {
      it(`on ${name}`, async () => {
        await importExclusions();
        arrange();
        const res = await lender('verify', { entity: keystone });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const registry = res.body.contractor_registry;
        expect(registry.source.kind).to.equal('sam_extract');
        expect(registry.source.file).to.be.a('string');
        expect(registry.fallback).to.include({ reason, status });
        expect(registry.fallback.detail).to.match(/the imported SAM extract answered instead\.$/);
        const [event] = await verifications(keystone);
        expect(event?.data).to.deep.include({ fallback: registry.fallback });
        expect(event?.data).not.to.have.property('sam_answer');

        const scored = await lender('score', { entity: keystone });
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
      sam.on(SAM_ENTITIES, limited);
      sam.on(SAM_EXCLUSIONS, limited);
      expect(
        (await lender('verify', { entity: keystone })).body.contractor_registry.fallback.reason,
      ).to.equal('rate_limited');
      const asked = calls;
      svc.clock.advance(599_000);
      const paused = await lender('verify', { entity: keystone });
      expect(paused.body.contractor_registry.fallback).to.include({ reason: 'rate_limited', status: null });
      expect(calls).to.equal(asked);
      sam.answer(
        entitiesPage(samEntity({ uei: KEYSTONE_UEI, name: 'KEYSTONE BUILDERS INC' })),
        exclusionsPage(),
      );
      svc.clock.advance(1000);
      const back = await lender('verify', { entity: keystone });
      expect(back.body.contractor_registry.source.kind).to.equal('sam_api');
    });
  });

  it('honours Idempotency-Key on verify: a retry replays, records once and does not ask SAM again', async () => {
    sam.answer(
      entitiesPage(samEntity({ uei: KEYSTONE_UEI, name: 'KEYSTONE BUILDERS INC' })),
      exclusionsPage(),
    );
    const first = await lender('verify', { entity: keystone }, { 'Idempotency-Key': 'verify-keystone-01' });
    expect(first.status).to.equal(200);
    const head = await svc.head();
    const again = await lender('verify', { entity: keystone }, { 'Idempotency-Key': 'verify-keystone-01' });
    expect(again.headers['idempotent-replayed']).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
    expect(await svc.head()).to.equal(head);
    expect(await verifications(keystone)).to.have.length(1);
    expect(sam.requests).to.have.length(2);
    const reused = await lender(
      'verify',
      { entity: 'Someone Else' },
      { 'Idempotency-Key': 'verify-keystone-01' },
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
