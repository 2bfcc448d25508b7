import { expect } from 'chai';
import request from 'supertest';
import { COMPOSITE_RULE, compositeScore, governancePosture, RAILS } from '../../src/rails/index.js';
import type { IssuedKey } from '../../src/orgs/keys.js';
import { D, firstDrawBody, ONE_LINE_SOV, projectBody } from '../support/api-fixtures.js';
import { startService, type TestService } from '../support/service.js';

describe('governance rails API (SPEC §7)', function () {
  this.timeout(30_000);
  let svc: TestService;
  let a: IssuedKey;
  let b: IssuedKey;
  let projectA: string;
  const auth = (k: IssuedKey) => ({ Authorization: `Bearer ${k.key}` });

  beforeEach(async () => {
    svc = await startService({ now: '2026-06-15T12:00:00Z' });
    a = await svc.key('First Builders Bank');
    b = await svc.key('Second Street Capital');
    const ent = async (name: string, roles: string[]) =>
      String(
        (await request(svc.app).post('/api/entities').set(auth(a)).send({ legal_name: name, roles })).body.id,
      );
    const owner = await ent('Harbor View Owner LLC', ['owner']);
    const gc = await ent('Keystone Builders, Inc.', ['general_contractor']);
    const res = await request(svc.app)
      .post('/api/projects')
      .set(auth(a))
      .send(projectBody({ borrower: owner, general_contractor: gc }, { sov: ONE_LINE_SOV }));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    projectA = String(res.body.id);
    const citation = await request(svc.app)
      .post('/api/observations')
      .set(auth(a))
      .send({
        project_id: projectA,
        entity: gc,
        kind: 'osha_citation',
        observed_on: '2026-06-01',
        activity_nr: '1700001',
        type: 'W',
        penalty: D(25_000),
        abate_by: '2026-06-10',
      });
    expect(citation.status, JSON.stringify(citation.body)).to.equal(201);
  });
  afterEach(async () => {
    await svc.close();
  });

  it('keeps every rail path org-scoped: the other org sees none of it, and its project id is a 404 there', async () => {
    for (const rail of RAILS) {
      const theirs = await request(svc.app).get(rail.path).set(auth(b));
      expect(theirs.status, rail.path).to.equal(200);
      expect(theirs.body.rail).to.equal(rail.name);
      expect(JSON.stringify(theirs.body.findings), rail.path).to.not.include(projectA);
      const narrowed = await request(svc.app).get(`${rail.path}?project_id=${projectA}`).set(auth(b));
      expect(narrowed.status, rail.path).to.equal(404);
      const own = await request(svc.app).get(`${rail.path}?project_id=${projectA}`).set(auth(a));
      expect(own.status, rail.path).to.equal(200);
      expect(own.body.provenance_hash).to.match(/^[0-9a-f]{64}$/);
      expect(own.body.provenance.ledger.seq).to.equal(await svc.head());
    }
  });

  it('counts a GC’s distressed projects (latest scan BLOCKED) within the org only, at the head', async () => {
    const post = (k: IssuedKey, path: string, body: object) =>
      request(svc.app).post(path).set(auth(k)).send(body);
    const owner = String(
      (await post(a, '/api/entities', { legal_name: 'Pier Owner LLC', roles: ['owner'] })).body.id,
    );
    const gc = String(
      (
        await post(a, '/api/entities', {
          legal_name: 'Tideline Builders, Inc.',
          roles: ['general_contractor'],
        })
      ).body.id,
    );
    /** A project of `k`'s with the shared GC and a first draw, scanned (BLOCKED: no inspection, no date-down). */
    let n = 0;
    const blockedProject = async (k: IssuedKey) => {
      n += 1;
      const parties = { borrower: owner, general_contractor: gc };
      const project = await post(k, '/api/projects', projectBody(parties, { name: `Pier Lofts ${n}` }));
      expect(project.status, JSON.stringify(project.body)).to.equal(201);
      const id = String(project.body.id);
      expect((await post(k, `/api/projects/${id}/draws`, firstDrawBody())).status).to.equal(201);
      const scan = await post(k, '/api/kernel-core', { action: 'full_scan', project_id: id });
      expect(scan.body.scan_verdict, JSON.stringify(scan.body)).to.equal('BLOCKED');
      return id;
    };
    const distressedFindings = async (k: IssuedKey) => {
      const res = await request(svc.app).get('/api/counterparty-rail').set(auth(k));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return (res.body.findings as { code: string; evidence: { kind: string; id: string }[] }[]).filter(
        (f) => f.code === 'COUNTERPARTY_DISTRESSED_GC',
      );
    };
    const ours = [await blockedProject(a), await blockedProject(a)];
    const theirs = [await blockedProject(b), await blockedProject(b), await blockedProject(b)];
    // B's three make the GC distressed for B; A's two (with B's three beside them) do not for A.
    expect((await distressedFindings(b)).map((f) => f.evidence.map((e) => e.id).sort())).to.deep.equal([
      [...theirs].sort(),
    ]);
    expect(await distressedFindings(a)).to.deep.equal([]);
    ours.push(await blockedProject(a));
    expect((await distressedFindings(a)).map((f) => f.evidence.map((e) => e.id).sort())).to.deep.equal([
      [...ours].sort(),
    ]);
  });

  it('turns a willful, unabated citation into a CRITICAL safety rail for its org only', async () => {
    const mine = await request(svc.app).get('/api/safety-governance').set(auth(a));
    expect(mine.body.posture).to.equal('CRITICAL');
    expect(mine.body.findings.map((f: { code: string }) => f.code)).to.include('SAFETY_SERIOUS_CITATION');
    const theirs = await request(svc.app).get('/api/safety-governance').set(auth(b));
    // The other org has no safety facts at all: not NOMINAL (no data is not good news), never CRITICAL.
    expect(theirs.body.posture).to.equal('ELEVATED');
    expect(theirs.body.findings.map((f: { code: string }) => f.code)).to.deep.equal(['INSUFFICIENT_DATA']);
  });

  it('computes scan_all as the documented combination of the eleven rails', async () => {
    const res = await request(svc.app).get('/api/governance-rails?action=scan_all').set(auth(a));
    expect(res.status).to.equal(200);
    const rails = res.body.rails as {
      name: string;
      posture: 'NOMINAL' | 'ELEVATED' | 'CRITICAL';
      score: number;
      findings: unknown[];
    }[];
    expect(rails.map((r) => r.name)).to.deep.equal(RAILS.map((r) => r.name));
    expect(res.body.composite_score).to.equal(compositeScore(rails.map((r) => r.score)));
    expect(res.body.governance_posture).to.equal(governancePosture(rails.map((r) => r.posture)));
    expect(res.body.total_findings).to.equal(rails.reduce((n, r) => n + r.findings.length, 0));
    expect(COMPOSITE_RULE).to.be.a('string');
    const bad = await request(svc.app).get('/api/governance-rails?action=nope').set(auth(a));
    expect(bad.status).to.equal(400);
  });

  it('reproduces the same provenance hash after the read models are rebuilt from the ledger', async () => {
    const before = await request(svc.app).get('/api/safety-governance').set(auth(a));
    await svc.composed.deps.runtime.rebuild();
    const after = await request(svc.app).get('/api/safety-governance').set(auth(a));
    expect(after.body.provenance_hash).to.equal(before.body.provenance_hash);
    // Each answer is recorded: the second one is anchored to its own, next, event.
    expect(after.body.provenance.ledger.seq).to.equal(before.body.provenance.ledger.seq + 1);
    svc.clock.advance(86_400_000);
    const later = await request(svc.app).get('/api/safety-governance').set(auth(a));
    expect(later.body.provenance_hash).to.not.equal(before.body.provenance_hash);
  });
});

describe('GET /api/profiles (DOMAIN §12)', function () {
  this.timeout(20_000);
  it('lists the five profiles with their gates, rails, chain and the engine count the compiler registers', async () => {
    const { registeredEngineCount } = await import('../../src/governance/compile/index.js');
    const svc = await startService();
    try {
      const k = await svc.key('First Builders Bank', ['governance:read']);
      const res = await request(svc.app).get('/api/profiles').set('Authorization', `Bearer ${k.key}`);
      expect(res.status).to.equal(200);
      const byName = Object.fromEntries(
        (
          res.body.data as {
            name: string;
            engines: number;
            gate_count: number;
            payment_rails: string[];
            certification_chain: string[];
          }[]
        ).map((p) => [p.name, p]),
      ) as Record<
        string,
        { engines: number; gate_count: number; payment_rails: string[]; certification_chain: string[] }
      >;
      expect(Object.keys(byName)).to.deep.equal([
        'construction',
        'treasury',
        'insurance',
        'government',
        'supply_chain',
      ]);
      expect(byName.construction).to.deep.include({
        gate_count: 6,
        payment_rails: ['ACH', 'Wire', 'RTP'],
        certification_chain: ['Contractor', 'Architect', 'Lender'],
      });
      expect(byName.treasury!.gate_count).to.equal(5);
      expect(byName.insurance!.gate_count).to.equal(4);
      expect(byName.government!.gate_count).to.equal(6);
      expect(byName.supply_chain).to.deep.include({ gate_count: 5, payment_rails: ['ACH', 'SWIFT'] });
      for (const p of Object.values(byName)) expect(p.engines).to.equal(registeredEngineCount());
    } finally {
      await svc.close();
    }
  });
});
