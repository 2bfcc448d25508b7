import { expect } from 'chai';
import request from 'supertest';
import { governance } from '../../projections/governance.js';
import { serviceOf } from '../../src/app.js';
import { findingId } from '../../src/governance/findings.js';
import { D } from '../support/api-fixtures.js';
import { GL_REQUIRED, startJourney, type DrawJourney } from '../support/draw-journey.js';

/**
 * Resolving a finding (SPEC §5) is decided at the head like every governance command: the finding
 * must be one a scan recorded on one of the caller's org's projects — another org's finding answers
 * exactly like an unknown one (404) — and its id must have the finding shape (400).
 */
describe('findings are always current: resolving, certifying and opening them (issue 14)', function () {
  this.timeout(60_000);
  let j: DrawJourney;
  afterEach(async () => {
    await j.svc.close();
  });

  it('resolves the org’s own finding once; another org’s, an unknown or a malformed id change nothing', async () => {
    j = await startJourney();
    const scan = await j.post('/api/kernel-core', { action: 'full_scan', project_id: j.projectId });
    const finding = String(scan.body.temporal.items[0].id);
    const body = { resolution: 'Title company confirmed by phone', resolved_on: '2026-06-03' };
    const other = await j.svc.key('Second Street Capital');
    const before = await j.svc.head();

    const foreign = await j.post(`/api/findings/${finding}/resolve`, body, other);
    const unknown = await j.post('/api/findings/FND-aaaaaaaaaaaaaaaa/resolve', body);
    expect(foreign.status).to.equal(404);
    expect(unknown.status).to.equal(404);
    expect(foreign.body.detail).to.equal(unknown.body.detail.replace('FND-aaaaaaaaaaaaaaaa', finding));
    expect((await j.post('/api/findings/not-a-finding/resolve', body)).status).to.equal(400);
    expect(await j.svc.head()).to.equal(before);

    const resolved = await j.post(`/api/findings/${finding}/resolve`, body);
    expect(resolved.status, JSON.stringify(resolved.body)).to.equal(201);
    expect((await j.post(`/api/findings/${finding}/resolve`, body)).status).to.equal(409);
  });

  it('refuses a resolution dated before the finding opened or after today (400), scanned or not', async () => {
    // Backdated cures read as a negative time to cure: remediation turned RESPONSIVE and the
    // shared credit score rose for findings resolved "years before" they arose.
    j = await startJourney();
    const today = j.svc.clock.now().toISOString().slice(0, 10);
    const tomorrow = new Date(j.svc.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    const refuses = async (finding: string): Promise<void> => {
      const before = await j.svc.head();
      for (const resolved_on of ['2026-01-01', tomorrow]) {
        const res = await j.post(`/api/findings/${finding}/resolve`, { resolution: 'Cured', resolved_on });
        expect(res.status, `${finding} ${resolved_on}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body.errors[0]).to.include({ path: 'resolved_on', code: 'out_of_range' });
      }
      expect(await j.svc.head()).to.equal(before);
    };
    // Raised by the facts, nobody scanned yet (application 1 has no title date-down after it).
    const unscanned = findingId(j.projectId, 'TITLE_DATE_DOWN', j.drawId, 'currency');
    await refuses(unscanned);
    const onToday = await j.post(`/api/findings/${unscanned}/resolve`, {
      resolution: 'Cured',
      resolved_on: today,
    });
    expect(onToday.status, JSON.stringify(onToday.body)).to.equal(201);
    // Recorded by a scan.
    const scan = await j.post('/api/kernel-core', { action: 'full_scan', project_id: j.projectId });
    const scanned = String(scan.body.temporal.items[0].id);
    const opened = serviceOf(j.svc.app).runtime.state(governance).findings[scanned]!.opened_on;
    expect(opened > '2026-01-01').to.equal(true);
    await refuses(scanned);
    const onOpening = await j.post(`/api/findings/${scanned}/resolve`, {
      resolution: 'Cured',
      resolved_on: opened,
    });
    expect(onOpening.status, JSON.stringify(onOpening.body)).to.equal(201);
  });

  it('resolves a finding the facts raise though nobody scanned yet; another org still gets 404', async () => {
    j = await startJourney();
    // Application 1 has no title date-down after it: TITLE_DATE_DOWN (BLOCKING, subject currency).
    const finding = findingId(j.projectId, 'TITLE_DATE_DOWN', j.drawId, 'currency');
    const body = { resolution: 'Date-down ordered; lender accepts the gap', resolved_on: '2026-06-03' };
    const other = await j.svc.key('Second Street Capital');
    expect((await j.post(`/api/findings/${finding}/resolve`, body, other)).status).to.equal(404);
    const resolved = await j.post(`/api/findings/${finding}/resolve`, body);
    expect(resolved.status, JSON.stringify(resolved.body)).to.equal(201);
  });

  it('opens a finding on the date its condition arose, not on the day someone scanned (issue 14)', async () => {
    j = await startJourney({ project: GL_REQUIRED, insuredThrough: null });
    await j.insureGc('2026-07-10');
    await j.fixDocuments();
    j.svc.clock.set('2026-07-20T15:00:00Z');
    // Nobody scanned: certification scans on its own and records what it found.
    const certified = await j.post('/api/certification', { action: 'issue', project_id: j.projectId });
    expect(certified.status, JSON.stringify(certified.body)).to.equal(201);
    // A BLOCKING finding is open, so the certificate is a D at best (DOMAIN §11 cap), scan or no scan.
    expect(certified.body.certification.score).to.be.at.most(64);
    expect(certified.body.certification.scan_id).to.match(/^SCN-/);
    const findings = Object.values(serviceOf(j.svc.app).runtime.state(governance).findings);
    const lapse = findings.find((f) => f.code === 'INSURANCE_EXPIRY');
    expect(lapse).to.deep.include({
      severity: 'BLOCKING',
      opened_on: '2026-07-11',
      detected_on: '2026-07-20',
    });
    const stale = findings.find((f) => f.code === 'INSPECTION_FRESHNESS');
    expect(stale).to.deep.include({ opened_on: '2026-07-03', detected_on: '2026-07-20' });
  });

  it('never certifies an unscanned project as clean: a BLOCKING contract-sum mismatch caps it at 64', async () => {
    j = await startJourney({ project: { contract_sum: D(1_100_000) } });
    const certified = await j.post('/api/certification', { action: 'issue', project_id: j.projectId });
    expect(certified.status, JSON.stringify(certified.body)).to.equal(201);
    expect(certified.body.certification.score).to.be.at.most(64);
    expect(['D', 'F']).to.include(certified.body.certification.grade);
    const open = Object.values(serviceOf(j.svc.app).runtime.state(governance).findings).filter(
      (f) => f.status === 'OPEN' && f.code === 'CONTRACT_SUM_MISMATCH',
    );
    expect(open.map((f) => f.severity)).to.include('BLOCKING');
  });
  describe('a resolution covers the finding as it was resolved', () => {
    /** Line 1's variance finding, resolved while it was a WARNING (claimed 25 %, inspected 19 %). */
    async function resolvedWarning(): Promise<{ finding: string; waiver: string }> {
      const waiver = await j.fixDocuments({ inspectedLine1Pct: 19 });
      const scan = await j.post('/api/kernel-core', { action: 'full_scan', project_id: j.projectId });
      const variance = (
        scan.body.contradictions.items as { id: string; code: string; severity: string }[]
      ).find((f) => f.code === 'INSPECTION_VARIANCE');
      expect(variance, JSON.stringify(scan.body)).to.include({ severity: 'WARNING' });
      const resolved = await j.post(`/api/findings/${variance!.id}/resolve`, {
        resolution: 'The architect confirms 25 % in place',
        resolved_on: '2026-06-03',
      });
      expect(resolved.status, JSON.stringify(resolved.body)).to.equal(201);
      expect((await j.compile()).body.compilation.draw_verdict).to.equal('FUNDABLE');
      return { finding: variance!.id, waiver };
    }

    it('opens it again, BLOCKING, when a later inspection finds the line far short: REDUCED, not paid in full', async () => {
      // The WARNING resolved once silenced the same id for good: a second inspection at 2 % (23
      // points, BLOCKING) left the draw FUNDABLE and the push paid its whole line 8 ($135,000).
      j = await startJourney();
      const { finding, waiver } = await resolvedWarning();
      await j.reinspect(2);
      const compiled = await j.compile();
      expect(compiled.body.compilation.draw_verdict, JSON.stringify(compiled.body)).to.equal('REDUCED');
      expect(compiled.body.compilation.fundable_amount).to.be.lessThan(D(135_000));
      await j.signAll();
      await j.notarize(waiver);
      const push = await j.post('/api/payment-push', { draw_id: j.drawId, rail: 'ESCROW' });
      expect(push.status, JSON.stringify(push.body)).to.equal(422);
      const verdict = (push.body.gates as { gate: string; passed: boolean; detail: string }[]).find(
        (g) => g.gate === 'verdict_fundable',
      );
      expect(verdict).to.include({ passed: false });
      expect(verdict!.detail).to.match(/^at the head the draw is REDUCED /);
      const overview = await request(j.svc.app)
        .get(`/api/projects/${j.projectId}/governance`)
        .set('Authorization', `Bearer ${j.lender.key}`);
      const reopened = (
        overview.body.findings as { id: string; severity: string; cure: { status: string } }[]
      ).find((f) => f.id === finding);
      expect(reopened?.severity).to.equal('BLOCKING');
      expect(reopened?.cure.status).to.equal('OPEN');
      // Open again, it can be resolved again (once) — a 409 'already resolved' would leave the
      // lender no way to record the cure of a reopened finding.
      const again = { resolution: 'Re-inspected: 25 % in place after all', resolved_on: '2026-06-03' };
      const resolvedAgain = await j.post(`/api/findings/${finding}/resolve`, again);
      expect(resolvedAgain.status, JSON.stringify(resolvedAgain.body)).to.equal(201);
      expect((await j.post(`/api/findings/${finding}/resolve`, again)).status).to.equal(409);
      expect((await j.compile()).body.compilation.draw_verdict).to.equal('FUNDABLE');
    });

    it('opens it again when the policy whose expiry was resolved lapses: HOLD, not FUNDABLE', async () => {
      j = await startJourney({ project: GL_REQUIRED, insuredThrough: null });
      await j.insureGc('2026-07-01');
      await j.fixDocuments();
      const scan = await j.post('/api/kernel-core', { action: 'full_scan', project_id: j.projectId });
      const expiring = (scan.body.temporal.items as { id: string; code: string; severity: string }[]).find(
        (f) => f.code === 'INSURANCE_EXPIRY',
      );
      expect(expiring, JSON.stringify(scan.body)).to.include({ severity: 'WARNING' });
      const today = j.svc.clock.now().toISOString().slice(0, 10);
      const resolved = await j.post(`/api/findings/${expiring!.id}/resolve`, {
        resolution: 'Renewal promised by the broker',
        resolved_on: today,
      });
      expect(resolved.status, JSON.stringify(resolved.body)).to.equal(201);
      expect((await j.compile()).body.compilation.draw_verdict).to.equal('FUNDABLE');
      j.svc.clock.set('2026-07-02T15:00:00Z');
      expect((await j.compile()).body.compilation.draw_verdict).to.equal('HOLD');
    });

    it('opens it again on a fact the resolver did not see, at the same severity; stays resolved on the same facts', async () => {
      j = await startJourney();
      await resolvedWarning();
      // A second inspection at 18 %: still a WARNING, but on a report nobody resolved anything on.
      await j.reinspect(18);
      const compiled = await j.compile();
      expect(compiled.body.compilation.draw_verdict).to.equal('FUNDABLE_WITH_CONDITIONS');
    });
  });
});
