import { expect } from 'chai';
import request from 'supertest';
import { governance } from '../../projections/governance.js';
import { observationsProjection } from '../../projections/observations.js';
import { projectsProjection } from '../../projections/projects.js';
import { isDistressed } from '../../src/governance/head.js';
import { RAIL_NO_EVIDENCE_SCORE, RAILS, railFactsFor, SYSTEM_RISK_RAIL } from '../../src/rails/index.js';
import { railPayload } from '../../src/rails/result.js';
import { payloadHash } from '../../src/governance/events.js';
import { canonicalJson } from '../../src/platform/ledger/canonical.js';
import { multiHash } from '../../src/platform/crypto/hash.js';
import { startJourney, type DrawJourney } from '../support/draw-journey.js';

interface Finding {
  code: string;
  severity: string;
  detail: string;
}
interface RailBody {
  rail: string;
  posture: string;
  score: number;
  findings: Finding[];
  coverage: { facts_present: string[]; facts_missing: string[] };
  as_of: string;
  provenance_hash: string;
  provenance: { ledger: { seq: number; hash: string } };
}
interface ScanAllBody {
  governance_posture: string;
  composite_score: number;
  rails: { name: string; posture: string; score: number; counted: boolean; coverage: unknown }[];
  not_clear: string[];
  provenance_hash: string;
  provenance: {
    sha256: string;
    sha3_256: string;
    blake2b_256: string;
    ledger: { seq: number; hash: string };
  };
  ledger: { seq: number; hash: string };
}

/**
 * Issue 14 item 5, "no data is not good news": a rail with none of its facts answers ELEVATED at
 * the documented no-evidence score with an INSUFFICIENT_DATA finding naming what it lacks, every
 * rail reports its coverage, scan_all and the payment gate count it as not clear unless the
 * profile makes the rail optional, and every rail answer is recorded and replayable.
 */
describe('rails: no data is not good news (issue 14)', function () {
  this.timeout(60_000);
  let j: DrawJourney;
  const get = (path: string) =>
    request(j.svc.app)
      .get(path)
      .set({ Authorization: `Bearer ${j.lender.key}` });
  const rail = async (path: string): Promise<RailBody> => {
    const res = await get(path);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as RailBody;
  };
  const scanAll = async (query = ''): Promise<ScanAllBody> => {
    const res = await get(`/api/governance-rails?action=scan_all${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as ScanAllBody;
  };

  afterEach(async () => {
    await j.svc.close();
  });

  describe('on a construction project with a draw and insurance but no observation feeds', () => {
    beforeEach(async () => {
      j = await startJourney();
    });

    it('answers a rail with none of its facts ELEVATED at the no-evidence score, with INSUFFICIENT_DATA naming what is missing', async () => {
      const weather = await rail(`/api/weather-rail?project_id=${j.projectId}`);
      expect([weather.posture, weather.score]).to.deep.equal(['ELEVATED', RAIL_NO_EVIDENCE_SCORE]);
      expect(RAIL_NO_EVIDENCE_SCORE).to.be.within(50, 79);
      expect(weather.findings.map((f) => [f.code, f.severity])).to.deep.equal([
        ['INSUFFICIENT_DATA', 'WARNING'],
      ]);
      expect(weather.coverage).to.deep.equal({
        facts_present: [],
        facts_missing: ['weather_forecast', 'thermal_scan'],
      });
      expect(weather.findings[0]?.detail).to.contain('weather_forecast').and.contain('thermal_scan');
    });

    it('reports coverage on every rail, and a fact turns the rail back to judging its findings', async () => {
      for (const r of RAILS) {
        const body = await rail(`${r.path}?project_id=${j.projectId}`);
        expect(body.coverage, r.path).to.have.keys(['facts_present', 'facts_missing']);
        const noEvidence = body.coverage.facts_present.length === 0;
        expect(
          body.findings.some((f) => f.code === 'INSUFFICIENT_DATA'),
          r.path,
        ).to.equal(noEvidence);
      }
      const schedule = await rail(`/api/schedule-rail?project_id=${j.projectId}`);
      expect(schedule.coverage.facts_present).to.include('draws');
      const insurance = await rail(`/api/insurance-rail?project_id=${j.projectId}`);
      expect(insurance.coverage.facts_present).to.deep.equal([
        'required_coverages',
        'insurance_certificates',
      ]);

      const forecast = await j.post('/api/observations', {
        project_id: j.projectId,
        kind: 'weather_forecast',
        observed_on: '2026-06-02',
        date: '2026-06-04',
        precip_mm: 0,
        wind_kph: 10,
        heat_index_c: 24,
      });
      expect(forecast.status, JSON.stringify(forecast.body)).to.equal(201);
      const weather = await rail(`/api/weather-rail?project_id=${j.projectId}`);
      expect(weather.coverage).to.deep.equal({
        facts_present: ['weather_forecast'],
        facts_missing: ['thermal_scan'],
      });
      expect([weather.posture, weather.score, weather.findings]).to.deep.equal(['NOMINAL', 100, []]);
    });

    it('scan_all narrowed to the project lists the optional rails without evidence but does not count them', async () => {
      const scan = await scanAll(`&project_id=${j.projectId}`);
      const uncounted = scan.rails.filter((r) => !r.counted).map((r) => r.name);
      expect(uncounted).to.deep.equal([
        'WORKFORCE',
        'SAFETY',
        'ENVIRONMENTAL',
        'PROCUREMENT',
        'EQUIPMENT',
        'WEATHER',
        'MARKET',
      ]);
      for (const r of scan.rails.filter((x) => !x.counted)) expect(r.posture).to.equal('ELEVATED');
      expect(scan.not_clear).to.deep.equal([]);
      expect(scan.governance_posture).to.equal('NOMINAL');
      const counted = scan.rails.filter((r) => r.counted).map((r) => r.score);
      expect(scan.composite_score).to.equal(Math.round(counted.reduce((a, b) => a + b, 0) / counted.length));
    });

    it('scan_all over the whole org (no profile applies) is not clear while rails have no evidence', async () => {
      const scan = await scanAll();
      expect(scan.rails.every((r) => r.counted)).to.equal(true);
      expect(scan.governance_posture).to.equal('ELEVATED');
      expect(scan.not_clear).to.include.members(['WEATHER', 'MARKET', 'WORKFORCE']);
      expect(scan.composite_score).to.be.below(100);
    });

    it('records every rail answer: its provenance hash and scan_all hash verify as AUTHENTIC, a changed hash does not', async () => {
      const before = await j.svc.head();
      const weather = await rail(`/api/weather-rail?project_id=${j.projectId}`);
      expect(weather.provenance.ledger.seq).to.equal(before + 1);
      const { provenance_hash, provenance, ...payload } = weather;
      expect(payloadHash(payload)).to.equal(provenance_hash);
      expect(provenance.ledger.seq).to.equal(await j.svc.head());
      const scan = await scanAll(`&project_id=${j.projectId}`);
      for (const [hash, type] of [
        [weather.provenance_hash, 'RailScanned'],
        [scan.provenance_hash, 'RailsScanned'],
      ] as const) {
        const verdict = await j.post('/api/audit-verify', { hash });
        expect(verdict.body.verdict, JSON.stringify(verdict.body)).to.equal('AUTHENTIC');
        expect(verdict.body.match.type).to.equal(type);
      }
      const forged = weather.provenance_hash.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      const tampered = await j.post('/api/audit-verify', { hash: forged });
      expect(tampered.body.verdict).to.equal('TAMPERED');
    });

    it('scan_all carries provenance like a rail answer: three digests of the answer without its anchors, each AUTHENTIC', async () => {
      const before = await j.svc.head();
      const scan = await scanAll(`&project_id=${j.projectId}`);
      // provenance_hash, provenance and ledger (the recording event, kept within 1.x) are the anchors.
      const { provenance_hash, provenance, ledger, ...payload } = scan;
      expect(provenance, 'scan_all provenance').to.be.an('object');
      expect(provenance.ledger).to.deep.equal(ledger);
      expect(ledger.seq).to.equal(before + 1);
      const digests = multiHash(canonicalJson(payload));
      expect(provenance_hash).to.equal(digests.sha256);
      expect(provenance).to.include({
        sha256: digests.sha256,
        sha3_256: digests.sha3_256,
        blake2b_256: digests.blake2b_256,
      });
      for (const hash of [provenance.sha3_256, provenance.blake2b_256]) {
        const verdict = await j.post('/api/audit-verify', { hash });
        expect(verdict.body.verdict, JSON.stringify(verdict.body)).to.equal('AUTHENTIC');
        expect(verdict.body.match).to.include({
          kind: 'rail_scan_all',
          type: 'RailsScanned',
          seq: ledger.seq,
        });
      }
    });

    it('answers HEAD on a rail or scan_all with 405 Allow: GET and records no scan nobody receives', async () => {
      const before = await j.svc.head();
      for (const path of ['/api/weather-rail', '/api/governance-rails?action=scan_all']) {
        const res = await request(j.svc.app)
          .head(path)
          .set({ Authorization: `Bearer ${j.lender.key}` });
        expect(res.status, path).to.equal(405);
        expect(res.headers.allow, path).to.equal('GET');
      }
      expect(await j.svc.head()).to.equal(before);
    });

    it('SYSTEM_RISK reads ledger facts only: folding the ledger to provenance.ledger.seq and evaluating at as_of gives the same hash', async () => {
      const answered = await rail(`/api/system-risk?project_id=${j.projectId}`);
      const upTo = answered.provenance.ledger.seq;
      const events = await j.svc.composed.store.read(1, upTo);
      expect(events.at(-1)?.seq).to.equal(upTo);
      let projects = projectsProjection.init();
      let observations = observationsProjection.init();
      let gov = governance.init();
      for (const event of events) {
        projects = projectsProjection.evolve(projects, event);
        observations = observationsProjection.evolve(observations, event);
        gov = governance.evolve(gov, event);
      }
      const facts = railFactsFor(projects, observations, j.lender.org_id, {
        project_id: j.projectId,
        platform: { ledger_head: answered.provenance.ledger },
        isDistressed: (id) => isDistressed(gov, id),
      });
      const replayed = railPayload(SYSTEM_RISK_RAIL, facts, new Date(answered.as_of));
      expect(payloadHash(replayed)).to.equal(answered.provenance_hash);
      // A process restart (fresh verifier, rebuilt read models) answers the same, a new event later.
      await j.svc.restart();
      const again = await rail(`/api/system-risk?project_id=${j.projectId}`);
      expect(again.provenance_hash).to.equal(answered.provenance_hash);
      expect(again.provenance.ledger.seq).to.equal(upTo + 1);
    });
  });

  describe('on a construction project with no insurance evidence at all', () => {
    beforeEach(async () => {
      j = await startJourney({ project: { required_coverages: [] }, insuredThrough: null });
    });

    it('scan_all is not clear: the INSURANCE rail is required by the profile and has no facts', async () => {
      const scan = await scanAll(`&project_id=${j.projectId}`);
      const insurance = scan.rails.find((r) => r.name === 'INSURANCE');
      expect(insurance).to.include({ posture: 'ELEVATED', score: RAIL_NO_EVIDENCE_SCORE, counted: true });
      expect(scan.not_clear).to.deep.equal(['INSURANCE']);
      expect(scan.governance_posture).to.equal('ELEVATED');
    });

    it('refuses the payment push with 422 naming no_critical_rail, and pays once a certificate is on file', async () => {
      await j.readyToPay();
      const refused = await j.post('/api/payment-push', { draw_id: j.drawId });
      expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
      expect(refused.body.code).to.equal('GATE_UNMET');
      const unmet = (refused.body.gates as { gate: string; passed: boolean; detail: string }[]).filter(
        (g) => !g.passed,
      );
      expect(unmet.map((g) => g.gate)).to.deep.equal(['no_critical_rail']);
      expect(unmet[0]?.detail).to.equal('no evidence (INSUFFICIENT_DATA): INSURANCE');
      await j.insureGc('2027-06-30');
      const paid = await j.post('/api/payment-push', { draw_id: j.drawId });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
    });
  });
});
