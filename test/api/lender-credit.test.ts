import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import type { IssuedKey } from '../../src/orgs/keys.js';
import { REPO_ROOT } from '../support/cli.js';
import { D, ONE_LINE_SOV, projectBody } from '../support/api-fixtures.js';
import { startService, type TestService } from '../support/service.js';

describe('lender credit API (SPEC §4)', function () {
  this.timeout(60_000);
  let svc: TestService;
  let a: IssuedKey;
  let b: IssuedKey;
  const lender = (k: IssuedKey, action: string, body?: unknown) => {
    const req = request(svc.app)
      .post(`/api/lender-credit?action=${action}`)
      .set('x-plumbline-api-key', k.key);
    return body === undefined ? req : req.send(body as object);
  };
  const bearer = (k: IssuedKey) => ({ Authorization: `Bearer ${k.key}` });

  async function entity(k: IssuedKey, body: Record<string, unknown>): Promise<string> {
    const res = await request(svc.app).post('/api/entities').set(bearer(k)).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return String(res.body.id);
  }

  async function projectFor(k: IssuedKey, gc: string, name: string): Promise<string> {
    const owner = await entity(k, { legal_name: `${name} Owner LLC`, roles: ['owner'] });
    const res = await request(svc.app)
      .post('/api/projects')
      .set(bearer(k))
      .send(
        projectBody(
          { borrower: owner, general_contractor: gc },
          { name, jurisdiction: 'TX', sov: ONE_LINE_SOV },
        ),
      );
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return String(res.body.id);
  }

  beforeEach(async () => {
    svc = await startService({ now: '2026-06-15T12:00:00Z' });
    a = await svc.key('First Builders Bank');
    b = await svc.key('Second Street Capital');
  });
  afterEach(async () => {
    await svc.close();
  });

  it('scores a thin-file entity with LOW confidence and the neutral prior on every dimension', async () => {
    await entity(a, { legal_name: 'Quiet Creek Masonry LLC', roles: ['subcontractor'], ein: '98-7654321' });
    const res = await lender(a, 'score', { entity: '987654321' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.ok).to.equal(true);
    expect(res.body.entity).to.equal('Quiet Creek Masonry LLC');
    expect(res.body.credit.confidence).to.equal('LOW');
    const dims = Object.values(
      res.body.credit.dimensions as Record<string, { score: number; insufficient_data: boolean }>,
    );
    expect(dims).to.have.length(6);
    expect(dims.filter((d) => d.insufficient_data).every((d) => d.score === 70)).to.equal(true);
    expect(res.body.behavioral.state).to.equal('PROVISIONAL');
    expect(res.body.remediation.velocity).to.equal('NO_VIOLATIONS');
    expect(res.body.conflicts).to.include({ active_conflicts: 0, status: 'CLEAR' });
    expect(res.body.contractor_registry).to.include({ registration: 'inactive', exclusions: 'clear' });
    expect(res.body.provenance_hash).to.match(/^[0-9a-f]{64}$/);
  });

  it('reports an excluded contractor as F, SUSPENDED, excluded, with the exclusion as a conflict and PRAL DENY', async () => {
    const admin = await svc.operator();
    const csv = readFileSync(join(REPO_ROOT, 'test/fixtures/sam/exclusions-small.csv'));
    const imported = await request(svc.app)
      .post('/api/registry/import')
      .set(bearer(admin))
      .set('Content-Type', 'text/csv')
      .send(csv);
    expect(imported.status, JSON.stringify(imported.body)).to.equal(200);
    await entity(a, {
      legal_name: 'Acme Builders, Inc.',
      roles: ['general_contractor'],
      uei: 'ACMEBLDRS001',
    });
    const score = await lender(a, 'score', { entity: 'acme builders' });
    expect(score.status, JSON.stringify(score.body)).to.equal(200);
    expect(score.body.credit.grade).to.equal('F');
    expect(score.body.credit.composite_score).to.be.at.most(49);
    expect(score.body.behavioral.state).to.equal('SUSPENDED');
    expect(score.body.contractor_registry.exclusions).to.equal('excluded');
    expect(score.body.conflicts.status).to.equal('CONFLICTS_PRESENT');
    expect(score.body.credit.reason_codes[0].code).to.equal('CS02');
    const verify = await lender(a, 'verify', { entity: 'Acme Builders' });
    expect(verify.body.contractor_registry).to.include({ exclusions: 'excluded', uei: 'ACMEBLDRS001' });
    expect(verify.body.contractor_registry.exclusion_records.length).to.be.greaterThan(0);
    const eligibility = await lender(a, 'eligibility', { entity: 'Acme Builders' });
    expect(eligibility.body.payment_recommendation.pral).to.equal('DENY');
    expect(eligibility.body.eligible_payment_rails).to.deep.equal([]);
  });

  it('re-scores from the new facts after any fact event, while repeated scores answer alike', async () => {
    const gc = await entity(a, { legal_name: 'Cedar Ridge Builders LLC', roles: ['general_contractor'] });
    const project = await projectFor(a, gc, 'Cedar Ridge Lofts');
    const first = await lender(a, 'score', { entity: gc });
    const again = await lender(b, 'score', { entity: gc });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(again.body.credit).to.deep.equal(first.body.credit);
    expect(again.body.provenance.ledger.seq).to.be.greaterThan(first.body.provenance.ledger.seq);
    const citation = await request(svc.app)
      .post('/api/observations')
      .set(bearer(a))
      .send({
        project_id: project,
        entity: gc,
        kind: 'osha_citation',
        observed_on: '2026-06-01',
        activity_nr: '1700002',
        type: 'W',
        penalty: D(25_000),
        abate_by: '2026-06-10',
      });
    expect(citation.status, JSON.stringify(citation.body)).to.equal(201);
    const after = await lender(a, 'score', { entity: gc });
    expect(after.body.credit.dimensions.safety_record.signals).to.be.greaterThan(
      first.body.credit.dimensions.safety_record.signals,
    );
  });

  it('round-trips: the provenance hash of a score, and each of its digests, is found by audit-verify as an AUTHENTIC credit report', async () => {
    await entity(a, { legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'] });
    const score = await lender(a, 'score', { entity: 'Keystone Builders' });
    // The provenance hash, and each of the report's three published digests (not UNKNOWN_HASH for two).
    const { sha256, sha3_256, blake2b_256 } = score.body.provenance;
    expect(sha256).to.equal(score.body.provenance_hash);
    for (const hash of [score.body.provenance_hash, sha3_256, blake2b_256]) {
      const verdict = await request(svc.app).post('/api/audit-verify').set(bearer(a)).send({ hash });
      expect(verdict.body, hash).to.deep.include({ verdict: 'AUTHENTIC', reason: 'ARTIFACT_VERIFIED' });
      expect(verdict.body.match).to.include({ kind: 'credit_report', type: 'CreditReportIssued' });
    }
  });

  it('accepts the seed’s x-service-api-key exactly like x-plumbline-api-key: same checks, same 401, same quota', async () => {
    await entity(a, { legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'] });
    const call = (header: string, key: string, action: string, body?: object) => {
      const req = request(svc.app).post(`/api/lender-credit?action=${action}`).set(header, key);
      return body === undefined ? req : req.send(body);
    };
    const seed = await call('x-service-api-key', a.key, 'score', { entity: 'Keystone Builders' });
    expect(seed.status, JSON.stringify(seed.body)).to.equal(200);
    expect(seed.body).to.include({ ok: true, entity: 'Keystone Builders, Inc.' });
    expect(seed.headers['plumbline-signature']).to.match(new RegExp(`kid=${a.key_id},`));
    expect(
      (await call('x-plumbline-api-key', a.key, 'verify', { entity: 'Keystone Builders' })).status,
    ).to.equal(200);
    // One key, one quota, whichever header carried it.
    const usage = await call('x-service-api-key', a.key, 'usage');
    expect(usage.body).to.include({ key_id: a.key_id, used: 2, remaining: 98 });
    expect(usage.body.by_action).to.deep.equal({ score: 1, verify: 1 });

    const typo = a.key.slice(0, 12) + (a.key[12] === 'a' ? 'b' : 'a') + a.key.slice(13);
    const refusals = [
      await call('x-service-api-key', typo, 'usage'),
      await call('x-plumbline-api-key', typo, 'usage'),
      await request(svc.app).post('/api/lender-credit?action=usage'),
    ];
    const bodies = refusals.map((res) => {
      expect(res.status).to.equal(401);
      const { request_id: _id, ...rest } = res.body as Record<string, unknown>;
      return rest;
    });
    expect(bodies[0]).to.include({ ok: false, code: 'UNAUTHENTICATED' });
    expect(bodies[1]).to.deep.equal(bodies[0]);
    expect(bodies[2]).to.deep.equal(bodies[0]);

    const readOnly = await svc.key('Ledger Auditor LLP', ['ledger:read']);
    expect((await call('x-service-api-key', readOnly.key, 'usage')).status).to.equal(403);

    const discovery = await request(svc.app).get('/api/lender-credit');
    const auth = String(discovery.body.authentication);
    expect(auth.indexOf('x-service-api-key')).to.be.greaterThan(-1);
    expect(auth.indexOf('x-service-api-key')).to.be.lessThan(auth.indexOf('x-plumbline-api-key'));
  });

  it('honours Idempotency-Key on score: a retry replays the report and records no second inquiry', async () => {
    await entity(a, { legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'] });
    const send = () =>
      request(svc.app)
        .post('/api/lender-credit?action=score')
        .set('x-plumbline-api-key', a.key)
        .set('Idempotency-Key', 'score-keystone-0001')
        .send({ entity: 'Keystone Builders' });
    const first = await send();
    expect(first.status).to.equal(200);
    const head = await svc.head();
    const again = await send();
    expect(again.headers['idempotent-replayed']).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
    expect(await svc.head()).to.equal(head);
    const reused = await request(svc.app)
      .post('/api/lender-credit?action=score')
      .set('x-plumbline-api-key', a.key)
      .set('Idempotency-Key', 'score-keystone-0001')
      .send({ entity: 'Someone Else' });
    expect(reused.status).to.equal(422);
    expect(reused.body).to.include({ ok: false, code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('tells an integrator which reference forms it takes when nothing matches (an EIN with a space, a CAGE)', async () => {
    await entity(a, { legal_name: 'Quiet Creek Masonry LLC', roles: ['subcontractor'], ein: '98-7654321' });
    for (const ref of ['98 7654321', '98–7654321', '1ABC2']) {
      const res = await lender(a, 'score', { entity: ref });
      expect(res.status).to.equal(404);
      expect(res.body.detail, ref).to.contain('NN-NNNNNNN or 9 digits').and.contain('ent_');
    }
    expect((await lender(a, 'score', { entity: '987654321' })).status).to.equal(200);
  });

  it('answers unknown entities with 404 and up to 5 candidates, ambiguous names with 409', async () => {
    await entity(a, { legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'] });
    const near = await lender(a, 'score', { entity: 'Keystone Bilders' });
    expect(near.status).to.equal(404);
    expect(near.body.ok).to.equal(false);
    expect(near.body.candidates[0]).to.include({ entity: 'Keystone Builders, Inc.' });
    await entity(a, { legal_name: 'Summit Construction LLC', roles: ['general_contractor'] });
    await entity(b, { legal_name: 'Summit Construction Co', roles: ['general_contractor'] });
    const twins = await lender(a, 'score', { entity: 'Summit Construction' });
    expect(twins.status).to.equal(409);
    expect(twins.body.candidates).to.have.length(2);
  });

  it('pages history newest first and redacts the other org’s project ids', async () => {
    const gc = await entity(a, { legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'] });
    const projectA = await projectFor(a, gc, 'Harbor View Lofts');
    const projectB = await projectFor(b, gc, 'Riverside Commons');
    const first = await lender(a, 'history', { entity: 'Keystone Builders', limit: 1 });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body.events).to.have.length(1);
    expect(first.body.next_before).to.be.a('number');
    const all = await lender(a, 'history', { entity: 'Keystone Builders' });
    const seqs = (all.body.events as { seq: number }[]).map((e) => e.seq);
    expect(seqs).to.deep.equal([...seqs].sort((x, y) => y - x));
    const second = await lender(a, 'history', {
      entity: 'Keystone Builders',
      limit: 1,
      before: first.body.next_before,
    });
    expect(second.body.events[0].seq).to.equal(seqs[1]);
    const projectIds = (all.body.events as { project_id: string | null }[]).map((e) => e.project_id);
    expect(projectIds).to.include(projectA);
    expect(projectIds).to.not.include(projectB);
    const theirs = await lender(b, 'history', { entity: 'Keystone Builders' });
    const theirIds = (theirs.body.events as { project_id: string | null }[]).map((e) => e.project_id);
    expect(theirIds).to.include(projectB);
    expect(theirIds).to.not.include(projectA);
    const bad = await lender(a, 'history', { entity: 'Keystone Builders', limit: 501 });
    expect(bad.status).to.equal(400);
  });

  it('marks a behavioral step back up as info in history, a move to a worse state as a warning', async () => {
    const gc = await entity(a, { legal_name: 'Cedar Ridge Builders LLC', roles: ['general_contractor'] });
    const project = await projectFor(a, gc, 'Cedar Ridge Lofts');
    const citation = await request(svc.app)
      .post('/api/observations')
      .set(bearer(a))
      .send({
        project_id: project,
        entity: gc,
        kind: 'osha_citation',
        observed_on: '2026-06-01',
        activity_nr: '1700002',
        type: 'S',
        penalty: D(5_000),
        abate_by: '2026-06-10',
      });
    expect(citation.status, JSON.stringify(citation.body)).to.equal(201);
    expect((await lender(a, 'score', { entity: gc })).body.behavioral.state).to.equal('PROBATION');
    svc.clock.set('2026-09-01T12:00:00Z'); // 90 quiet days after 2026-06-01: one step up
    expect((await lender(a, 'score', { entity: gc })).body.behavioral.state).to.equal('WATCH');
    const history = await lender(a, 'history', { entity: gc });
    const transitions = (history.body.events as { type: string; summary: string; severity: string }[])
      .filter((e) => e.type === 'BehavioralStateChanged')
      .map((e) => [e.summary, e.severity]);
    expect(transitions).to.deep.equal([
      ['behavioral state PROBATION → WATCH', 'info'],
      ['behavioral state PROVISIONAL → PROBATION', 'warning'],
    ]);
  });

  it('lists the portfolio: every governed entity by default, the caller’s counterparties with scope portfolio', async () => {
    const gc = await entity(a, { legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'] });
    await projectFor(a, gc, 'Harbor View Lofts');
    await entity(b, { legal_name: 'Unrelated Supply Co', roles: ['supplier'] });
    const all = await lender(a, 'portfolio');
    expect(all.status, JSON.stringify(all.body)).to.equal(200);
    const names = (all.body.data as { entity: string }[]).map((r) => r.entity);
    expect(names).to.include.members(['Keystone Builders, Inc.', 'Unrelated Supply Co']);
    const mine = await lender(a, 'portfolio', { scope: 'portfolio', sort: 'name' });
    const mineNames = (mine.body.data as { entity: string }[]).map((r) => r.entity);
    expect(mineNames).to.include('Keystone Builders, Inc.');
    expect(mineNames).to.not.include('Unrelated Supply Co');
    expect(mineNames).to.deep.equal([...mineNames].sort());
    const paged = await lender(a, 'portfolio', { limit: 1 });
    expect(paged.body.data).to.have.length(1);
    expect(paged.body.next_cursor).to.be.a('string');
  });

  it('refuses a portfolio cursor it did not issue with 400 rather than reading it as another page', async () => {
    await entity(a, { legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'] });
    await entity(a, { legal_name: 'Summit Construction LLC', roles: ['general_contractor'] });
    const issued = await lender(a, 'portfolio', { limit: 1 });
    expect((await lender(a, 'portfolio', { cursor: issued.body.next_cursor as string })).status).to.equal(
      200,
    );
    // Number() read '' as 0 (page one again: a client looping), ' 1' and '0x1' as 1, '1e1' as 10.
    for (const text of ['', ' 1', '0x1', '1e1', '1.0', '+1']) {
      const cursor = Buffer.from(text).toString('base64url');
      const res = await lender(a, 'portfolio', { cursor });
      expect(res.status, `${JSON.stringify(text)}: ${JSON.stringify(res.body)}`).to.equal(400);
      expect(res.body).to.include({ ok: false, code: 'INVALID_REQUEST' });
      expect(res.body.errors[0]).to.include({ path: 'cursor' });
    }
  });

  describe('daily quota (SPEC §3)', () => {
    it('counts score, verify, history, eligibility and portfolio but not usage, and answers the 101st call with 429', async () => {
      await entity(a, { legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'] });
      svc.clock.set('2026-06-15T23:59:00Z');
      for (const action of ['score', 'verify', 'history', 'eligibility']) {
        expect((await lender(a, action, { entity: 'Keystone Builders' })).status).to.equal(200);
      }
      expect((await lender(a, 'portfolio')).status).to.equal(200);
      const usage = await lender(a, 'usage');
      expect(usage.body).to.include({ limit: 100, used: 5, remaining: 95 });
      expect(usage.body.by_action).to.deep.equal({
        score: 1,
        verify: 1,
        history: 1,
        eligibility: 1,
        portfolio: 1,
      });
      expect(usage.headers.ratelimit).to.equal(undefined);
      let last = usage;
      for (let i = 6; i <= 100; i += 1)
        last = await lender(a, 'eligibility', { entity: 'Keystone Builders' });
      expect(last.status).to.equal(200);
      expect(last.headers['ratelimit-policy']).to.equal('"daily";q=100;w=86400');
      expect(last.headers.ratelimit).to.equal('"daily";r=0;t=60');
      const refused = await lender(a, 'eligibility', { entity: 'Keystone Builders' });
      expect(refused.status).to.equal(429);
      expect(refused.headers['retry-after']).to.equal('60');
      expect(refused.body).to.include({
        ok: false,
        code: 'RATE_LIMITED',
        limit: 100,
        reset_at: '2026-06-16T00:00:00.000Z',
      });
      expect((await lender(b, 'eligibility', { entity: 'Keystone Builders' })).status).to.equal(200);
      svc.clock.set('2026-06-16T00:00:00Z');
      const nextDay = await lender(a, 'eligibility', { entity: 'Keystone Builders' });
      expect(nextDay.status).to.equal(200);
      expect(nextDay.headers.ratelimit).to.equal('"daily";r=99;t=86400');
    });

    it('does not count an Idempotency-Key replay again, and replays it even once the day’s quota is spent', async () => {
      await entity(a, { legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'] });
      const keyed = (idempotencyKey: string) =>
        lender(a, 'score', { entity: 'Keystone Builders' }).set('Idempotency-Key', idempotencyKey);
      const first = await keyed('score-keystone-quota-1');
      expect(first.status).to.equal(200);
      expect(first.headers.ratelimit).to.equal('"daily";r=99;t=43200');
      const replay = await keyed('score-keystone-quota-1');
      expect(replay.headers['idempotent-replayed']).to.equal('true');
      expect(replay.body).to.deep.equal(first.body);
      const usage = await lender(a, 'usage');
      expect(usage.body).to.include({ used: 1, remaining: 99 });
      expect(usage.body.by_action).to.deep.equal({ score: 1 });
      for (let i = 2; i <= 100; i += 1)
        expect((await lender(a, 'eligibility', { entity: 'Keystone Builders' })).status).to.equal(200);
      // The quota is spent: a new keyed call is refused, the retry of the first is still its answer.
      expect((await keyed('score-keystone-quota-2')).status).to.equal(429);
      const late = await keyed('score-keystone-quota-1');
      expect(late.status).to.equal(200);
      expect(late.headers['idempotent-replayed']).to.equal('true');
      expect(late.body).to.deep.equal(first.body);
      expect((await lender(a, 'usage')).body).to.include({ used: 100, remaining: 0 });
      // The refused keyed call was not remembered: after midnight it runs for real.
      svc.clock.set('2026-06-16T00:00:00Z');
      const nextDay = await keyed('score-keystone-quota-2');
      expect(nextDay.status).to.equal(200);
      expect(nextDay.headers['idempotent-replayed']).to.equal(undefined);
    });

    it('keeps the day’s count across a restart of the embedded service, and still starts over at midnight', async () => {
      await entity(a, { legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'] });
      for (let i = 0; i < 100; i += 1)
        expect((await lender(a, 'eligibility', { entity: 'Keystone Builders' })).status).to.equal(200);
      expect((await lender(a, 'score', { entity: 'Keystone Builders' })).status).to.equal(429);
      await svc.restart();
      const usage = await lender(a, 'usage');
      expect(usage.body).to.include({ used: 100, remaining: 0, resets_at: '2026-06-16T00:00:00.000Z' });
      expect(usage.body.by_action).to.deep.equal({ eligibility: 100 });
      const refused = await lender(a, 'score', { entity: 'Keystone Builders' });
      expect(refused.status).to.equal(429);
      expect(refused.body).to.include({ code: 'RATE_LIMITED' });
      svc.clock.set('2026-06-16T00:00:00Z');
      await svc.restart();
      expect((await lender(a, 'usage')).body).to.include({ used: 0, remaining: 100 });
      expect((await lender(a, 'score', { entity: 'Keystone Builders' })).status).to.equal(200);
    });
  });
});
