import { expect } from 'chai';
import { gatherSignals, recencyWeight } from '../../../src/credit/index.js';
import type {
  HoursWorked,
  Incident,
  InsuranceCertificate,
  OshaCitation,
  Project,
} from '../../../src/projects/facts.js';
import { GC, NOW, SUB, TODAY, World, dimension } from './fixtures.js';

describe('compliance_standing', () => {
  function covered(expires = '2026-12-31'): { w: World; p: Project } {
    const w = new World();
    const p = w.project('prj_a', { required_coverages: [{ type: 'GL', min_limit: 1_000_000_00 }] });
    w.document<InsuranceCertificate>({
      id: 'COI-1',
      project_id: p.id,
      type: 'INSURANCE_CERTIFICATE',
      insured: GC,
      coverage_type: 'GL',
      limit: 2_000_000_00,
      effective_on: '2025-06-01',
      expires_on: expires,
      additional_insured: true,
    });
    return { w, p };
  }

  it('scores 100 with an active registration, no exclusion and continuous coverage', () => {
    expect(dimension(covered().w, 'compliance_standing')).to.include({ score: 100, signals: 3 });
  });

  it('is lowered by the share of days without coverage: 152 of 366 days × 40', () => {
    const { w } = covered('2025-12-31');
    expect(dimension(w, 'compliance_standing').score).to.equal(83.4);
  });

  it('is raised back to 100 by a renewal certificate that closes the gap', () => {
    const { w, p } = covered('2025-12-31');
    w.document<InsuranceCertificate>({
      id: 'COI-2',
      project_id: p.id,
      type: 'INSURANCE_CERTIFICATE',
      insured: GC,
      coverage_type: 'GL',
      limit: 1_000_000_00,
      effective_on: '2026-01-01',
      expires_on: '2026-12-31',
      additional_insured: true,
    });
    expect(dimension(w, 'compliance_standing').score).to.equal(100);
  });

  it('ignores a certificate below the required limit', () => {
    const { w } = covered();
    const coi = w.projects.documents['COI-1']!;
    if (coi.type === 'INSURANCE_CERTIFICATE') coi.limit = 999_999_99;
    expect(dimension(w, 'compliance_standing').score).to.equal(60);
  });

  it('takes 20 points for an inactive registration', () => {
    const { w } = covered();
    w.registry = { ...w.registry, registration: 'inactive' };
    expect(dimension(w, 'compliance_standing').score).to.equal(80);
  });

  it('takes 4 points for a WARNING temporal finding opened today, none for INSURANCE_EXPIRY', () => {
    const { w } = covered();
    w.finding({
      id: 'FND-1',
      code: 'INSURANCE_EXPIRY',
      category: 'temporal',
      severity: 'BLOCKING',
      opened_on: TODAY,
    });
    expect(dimension(w, 'compliance_standing').score).to.equal(100);
    w.finding({
      id: 'FND-2',
      code: 'TITLE_DATE_DOWN',
      category: 'temporal',
      severity: 'WARNING',
      opened_on: TODAY,
    });
    expect(dimension(w, 'compliance_standing').score).to.equal(96);
  });
});

describe('safety_record', () => {
  function site(): { w: World; p: Project } {
    const w = new World();
    const p = w.project('prj_a');
    w.observe<HoursWorked>({
      id: 'OBS-h1',
      kind: 'hours_worked',
      project_id: p.id,
      entity_id: GC,
      observed_on: TODAY,
      hours: 400_000,
    });
    w.observe<Incident>({
      id: 'OBS-i1',
      kind: 'incident',
      project_id: p.id,
      entity_id: GC,
      observed_on: TODAY,
      recordable: true,
      lost_time: false,
    });
    return { w, p };
  }
  function cite(
    w: World,
    p: Project,
    type: OshaCitation['type'],
    observed_on = TODAY,
    abate_by = '2026-07-01',
  ): void {
    w.observe<OshaCitation>({
      id: `OBS-c-${type}-${observed_on}`,
      kind: 'osha_citation',
      project_id: p.id,
      entity_id: GC,
      observed_on,
      activity_nr: '123',
      type,
      penalty: 1_000_00,
      abate_by,
      abated_on: null,
    });
  }

  it('scores 100 − 10 (serious) − 5 (TRIR 0.5) = 85', () => {
    const { w, p } = site();
    cite(w, p, 'S');
    expect(dimension(w, 'safety_record')).to.include({ score: 85, signals: 3 });
  });

  it('is raised by more hours worked for the same incident (TRIR 0.25)', () => {
    const { w, p } = site();
    cite(w, p, 'S');
    w.observe<HoursWorked>({
      id: 'OBS-h2',
      kind: 'hours_worked',
      project_id: p.id,
      entity_id: GC,
      observed_on: TODAY,
      hours: 400_000,
    });
    expect(dimension(w, 'safety_record').score).to.equal(87.5);
  });

  it('is lowered 25 by a willful citation and 2 by an other-than-serious one', () => {
    const a = site();
    cite(a.w, a.p, 'W');
    expect(dimension(a.w, 'safety_record').score).to.equal(70);
    const b = site();
    cite(b.w, b.p, 'O');
    expect(dimension(b.w, 'safety_record').score).to.equal(93);
  });

  it('halves a citation 180 days old and adds 10 while its abatement is past due', () => {
    const { w, p } = site();
    cite(w, p, 'S', '2025-12-03', '2026-05-01');
    expect(dimension(w, 'safety_record').score).to.equal(100 - 5 - 5 - 10);
  });

  describe('one OSHA activity furnished more than once', () => {
    function citation(w: World, id: string, project: string, overrides: Partial<OshaCitation> = {}): void {
      w.observe<OshaCitation>({
        id,
        kind: 'osha_citation',
        project_id: project,
        entity_id: GC,
        observed_on: TODAY,
        activity_nr: '1234567',
        type: 'W',
        penalty: 10_000_00,
        abate_by: '2026-05-20',
        abated_on: null,
        ...overrides,
      });
    }

    it('counts once when another project furnishes it again and again', () => {
      const once = site();
      citation(once.w, 'OBS-w1', once.p.id);
      const replayed = site();
      replayed.w.project('prj_b');
      citation(replayed.w, 'OBS-w1', replayed.p.id);
      for (const id of ['OBS-w2', 'OBS-w3', 'OBS-w4'])
        citation(replayed.w, id, 'prj_b', { activity_nr: '1234 567' });
      expect(dimension(once.w, 'safety_record').score).to.equal(100 - 25 - 10 - 5);
      expect(dimension(replayed.w, 'safety_record')).to.deep.equal(dimension(once.w, 'safety_record'));
    });

    it("takes its own project's later record (the abatement) instead of the first", () => {
      const { w, p } = site();
      citation(w, 'OBS-w1', p.id);
      citation(w, 'OBS-w2', p.id, { abated_on: '2026-05-19' });
      expect(dimension(w, 'safety_record').score).to.equal(100 - 25 - 5);
    });

    it('is not abated or downgraded by a copy furnished on another project', () => {
      const { w, p } = site();
      w.project('prj_b');
      citation(w, 'OBS-w1', p.id);
      citation(w, 'OBS-w2', 'prj_b', { type: 'O', abated_on: '2026-05-19' });
      expect(dimension(w, 'safety_record').score).to.equal(100 - 25 - 10 - 5);
    });

    // Owning an activity by furnishing it first let a lender shield a firm: a public willful
    // citation furnished first as "other" and abated, and the lender who saw the real one counted nothing.
    it('is not shielded by a milder or abated copy furnished first on another project', () => {
      const real = site();
      citation(real.w, 'OBS-w1', real.p.id);
      const shielded = site();
      shielded.w.project('prj_b');
      citation(shielded.w, 'OBS-w0', 'prj_b', { type: 'O', abated_on: '2026-05-01' });
      citation(shielded.w, 'OBS-w1', shielded.p.id);
      expect(dimension(shielded.w, 'safety_record').score).to.equal(100 - 25 - 10 - 5);
      const abatedFirst = site();
      abatedFirst.w.project('prj_b');
      citation(abatedFirst.w, 'OBS-w0', 'prj_b', { abated_on: '2026-05-01' });
      citation(abatedFirst.w, 'OBS-w1', abatedFirst.p.id);
      expect(dimension(abatedFirst.w, 'safety_record').score).to.equal(100 - 25 - 10 - 5);
      expect(dimension(real.w, 'safety_record').score).to.equal(100 - 25 - 10 - 5);
    });
  });

  it('charges a site observation naming nobody to the GC, not to a subcontractor', () => {
    const { w, p } = site();
    w.observe<OshaCitation>({
      id: 'OBS-site',
      kind: 'osha_citation',
      project_id: p.id,
      entity_id: null,
      observed_on: TODAY,
      activity_nr: '9',
      type: 'S',
      penalty: 0,
      abate_by: '2026-07-01',
      abated_on: null,
    });
    expect(gatherSignals(w.facts(GC), NOW).some((s) => s.code === 'SR01')).to.equal(true);
    expect(gatherSignals(w.facts(SUB), NOW).some((s) => s.code === 'SR01')).to.equal(false);
  });
});

describe('schedule_performance', () => {
  function milestones(due: string[]): World {
    const w = new World();
    w.project('prj_a', {
      milestones: due.map((d, i) => ({ name: `M${i}`, due_on: d, completed_on: '2026-03-01' })),
    });
    return w;
  }

  it('scores 100 when milestones complete on their due day', () => {
    expect(
      dimension(milestones(['2026-03-01', '2026-03-01', '2026-03-01']), 'schedule_performance'),
    ).to.include({ score: 100, signals: 3 });
  });

  it('is lowered by a milestone 30 days late: 40 × 0.5 / 3', () => {
    expect(
      dimension(milestones(['2026-01-30', '2026-03-01', '2026-03-01']), 'schedule_performance').score,
    ).to.equal(93.3);
  });

  it('is raised by a milestone completed early (no penalty, one more clean signal)', () => {
    const w = milestones(['2026-01-30', '2026-03-01', '2026-03-01', '2026-04-01']);
    expect(dimension(w, 'schedule_performance').score).to.equal(95);
  });

  it('is lowered by pace lag: a draw at 10 % when half the time has passed', () => {
    const w = new World();
    const p = w.project('prj_a', { start_date: '2025-06-01', completion_date: '2026-06-01' });
    // period end 2025-12-01: 183 of 365 days elapsed (50.1 %); 51 % billed on two draws, 10 % on one.
    w.draw(p, {
      id: 'DRW-1',
      application_no: 1,
      period_to: '2025-12-01',
      completed: { 1: 500_000_00, 2: 10_000_00 },
    });
    w.draw(p, {
      id: 'DRW-2',
      application_no: 2,
      period_to: '2025-12-01',
      completed: { 1: 500_000_00, 2: 10_000_00 },
    });
    w.draw(p, { id: 'DRW-3', application_no: 3, period_to: '2025-12-01', completed: { 1: 100_000_00 } });
    expect(dimension(w, 'schedule_performance').score).to.equal(86.7);
  });
});

describe('remediation_responsiveness', () => {
  function findings(resolved: (string | null)[]): World {
    const w = new World();
    resolved.forEach((r, i) => w.finding({ id: `FND-${i}`, opened_on: '2026-05-01', resolved_on: r }));
    return w;
  }

  it('scores 100 when every finding is cured within 14 days', () => {
    expect(
      dimension(findings(['2026-05-08', '2026-05-08', '2026-05-08']), 'remediation_responsiveness'),
    ).to.include({
      score: 100,
      signals: 6,
    });
  });

  it('is lowered by an uncured finding: 50 × 1/3', () => {
    expect(
      dimension(findings(['2026-05-08', '2026-05-08', null]), 'remediation_responsiveness').score,
    ).to.equal(83.3);
  });

  it('is lowered by a slow cure (30 days): 30 × weighted share of (30 − 14) / 46', () => {
    const w = findings(['2026-05-08', '2026-05-08', '2026-05-31']);
    const fast = recencyWeight('2026-05-08', TODAY);
    const slow = recencyWeight('2026-05-31', TODAY);
    const expected = 100 - (30 * (slow * (16 / 46))) / (2 * fast + slow);
    expect(dimension(w, 'remediation_responsiveness').score).to.equal(Math.round(expected * 10) / 10);
    expect(expected).to.be.lessThan(100);
  });

  it('is raised back to 100 when the open finding is cured within 14 days', () => {
    const w = findings(['2026-05-08', '2026-05-08', null]);
    w.findings[2]!.resolved_on = '2026-05-10';
    expect(dimension(w, 'remediation_responsiveness').score).to.equal(100);
  });
});
