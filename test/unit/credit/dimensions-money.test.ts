import { expect } from 'chai';
import { gatherSignals, recencyWeight } from '../../../src/credit/index.js';
import type {
  InspectionReport,
  Invoice,
  OshaCitation,
  Project,
  TitleDateDown,
} from '../../../src/projects/facts.js';
import { GC, NOW, SUB, TODAY, World, dimension, fundedWithWaivers } from './fixtures.js';

describe('credit signals: recency weighting (DOMAIN §5)', () => {
  it('weighs a signal 0.5^(age/180): 1 today, ½ at 180 days, ¼ at 360', () => {
    expect(recencyWeight(TODAY, TODAY)).to.equal(1);
    expect(recencyWeight('2025-12-03', TODAY)).to.equal(0.5);
    expect(recencyWeight('2025-06-06', TODAY)).to.equal(0.25);
  });

  it('never turns a fact dated after now into a signal', () => {
    const w = new World();
    const p = w.project('prj_a');
    w.observe<OshaCitation>({
      id: 'OBS-future',
      kind: 'osha_citation',
      project_id: p.id,
      entity_id: GC,
      observed_on: '2026-06-02',
      activity_nr: '1',
      type: 'W',
      penalty: 0,
      abate_by: '2026-07-01',
      abated_on: null,
    });
    expect(gatherSignals(w.facts(), NOW).filter((s) => s.code === 'SR01')).to.have.length(0);
  });
});

describe('payment_integrity', () => {
  /** Three draws funded 2026-04-26 with waivers signed 2026-05-01 (5 days: on time). */
  function onTime(): { w: World; p: Project } {
    const w = new World();
    const p = w.project('prj_a');
    fundedWithWaivers(w, p, ['2026-04-26', '2026-04-26', '2026-04-26'], '2026-05-01');
    return { w, p };
  }

  it('scores 100 when every unconditional waiver arrives on time and matches the payment', () => {
    const { w } = onTime();
    const d = dimension(w, 'payment_integrity');
    expect(d).to.include({ score: 100, signals: 6, insufficient_data: false });
    expect(d.factors.map((f) => [f.code, f.impact])).to.deep.equal([
      ['PI01', 0],
      ['PI02', 0],
    ]);
  });

  it('is lowered by a waiver delivered 60 days after funding: 40 × 1/3 off', () => {
    const { w } = onTime();
    w.projects.draws['DRW-1']!.funded_on = '2026-03-02';
    const d = dimension(w, 'payment_integrity');
    expect(d.score).to.equal(86.7);
    expect(d.factors[0]).to.deep.equal({
      code: 'PI01',
      impact: -13.3,
      description: 'Unconditional waivers delivered late or missing',
    });
  });

  it('counts a waiver still missing 60+ days after funding as fully late', () => {
    const { w } = onTime();
    w.projects.draws['DRW-1']!.funded_on = '2026-03-02';
    delete w.projects.documents['WAIV-1'];
    const pi01 = gatherSignals(w.facts(), NOW).filter((s) => s.code === 'PI01');
    expect(pi01.map((s) => [s.value, s.observed_on])).to.deep.include([1, '2026-05-01']);
    expect(dimension(w, 'payment_integrity').score).to.equal(86.7);
  });

  it('is raised by more on-time waivers diluting a late one (1 late of 6 → 40/6 off)', () => {
    const { w, p } = onTime();
    w.projects.draws['DRW-1']!.funded_on = '2026-03-02';
    fundedWithWaivers(w, p, ['2026-04-26', '2026-04-26', '2026-04-26'], '2026-05-01');
    expect(dimension(w, 'payment_integrity').score).to.equal(93.3);
  });

  it('is lowered by a GC waiver releasing less than was paid (PI02: 30 × 1/3)', () => {
    const { w } = onTime();
    const doc = w.projects.documents['WAIV-1']!;
    if (doc.type === 'LIEN_WAIVER') doc.amount -= 1;
    expect(dimension(w, 'payment_integrity').score).to.equal(90);
  });

  it('is lowered 15 points by a lien claim recorded today on its project, not by its own lien', () => {
    const { w, p } = onTime();
    const lien = (claimant: string | null, name: string) => ({
      claimant_name: name,
      claimant,
      amount: 5_000_00,
      recorded_on: TODAY,
    });
    w.document<TitleDateDown>({
      id: 'TTL-1',
      project_id: p.id,
      type: 'TITLE_DATE_DOWN',
      effective_on: TODAY,
      new_liens: [lien(GC, 'The GC')],
    });
    expect(dimension(w, 'payment_integrity').score).to.equal(100);
    w.document<TitleDateDown>({
      id: 'TTL-2',
      project_id: p.id,
      type: 'TITLE_DATE_DOWN',
      effective_on: TODAY,
      new_liens: [lien(null, 'Acme Supply')],
    });
    w.document<TitleDateDown>({
      id: 'TTL-3',
      project_id: p.id,
      type: 'TITLE_DATE_DOWN',
      effective_on: TODAY,
      new_liens: [lien(null, 'Acme Supply')],
    });
    expect(dimension(w, 'payment_integrity').score).to.equal(85);
  });

  it('expects a waiver from a subcontractor whose line moved on a funded draw', () => {
    const w = new World();
    const p = w.project('prj_a');
    w.draw(p, {
      id: 'DRW-1',
      application_no: 1,
      period_to: '2026-02-20',
      completed: { 2: 100_000_00 },
      funded_on: '2026-03-02',
    });
    const sub = gatherSignals(w.facts(SUB), NOW).filter((s) => s.code === 'PI01');
    expect(sub).to.have.length(1);
    expect(sub[0]).to.include({ value: 1, project_id: 'prj_a' });
  });
});

describe('draw_accuracy', () => {
  function threeDraws(): { w: World; p: Project } {
    const w = new World();
    const p = w.project('prj_a');
    for (const n of [1, 2, 3]) {
      w.draw(p, { id: `DRW-${n}`, application_no: n, period_to: '2026-05-01', completed: { 1: 250_000_00 } });
    }
    return { w, p };
  }

  it('scores 100 on clean draws', () => {
    expect(dimension(threeDraws().w, 'draw_accuracy')).to.include({ score: 100, signals: 3 });
  });

  it('is lowered by a BLOCKING contradiction on one draw of three (40/3 off)', () => {
    const { w } = threeDraws();
    w.finding({
      id: 'FND-1',
      code: 'ROLL_FORWARD_MISMATCH',
      severity: 'BLOCKING',
      draw_id: 'DRW-1',
      opened_on: '2026-05-02',
    });
    expect(dimension(w, 'draw_accuracy').score).to.equal(86.7);
  });

  it('is raised when more clean draws dilute the same finding (40/6 off)', () => {
    const { w, p } = threeDraws();
    w.finding({
      id: 'FND-1',
      code: 'ROLL_FORWARD_MISMATCH',
      severity: 'BLOCKING',
      draw_id: 'DRW-1',
      opened_on: '2026-05-02',
    });
    for (const n of [4, 5, 6])
      w.draw(p, { id: `DRW-${n}`, application_no: n, period_to: '2026-05-01', completed: { 1: 250_000_00 } });
    expect(dimension(w, 'draw_accuracy').score).to.equal(93.3);
  });

  it('does not count an INSPECTION_VARIANCE finding again (the variance is measured from the facts)', () => {
    const { w } = threeDraws();
    w.finding({
      id: 'FND-1',
      code: 'INSPECTION_VARIANCE',
      severity: 'BLOCKING',
      draw_id: 'DRW-1',
      opened_on: '2026-05-02',
    });
    expect(dimension(w, 'draw_accuracy').score).to.equal(100);
  });

  for (const [inspected, score] of [
    [45, 100],
    [40, 85],
    [35, 70],
  ] as const) {
    it(`scores ${score} when a 50 % line is inspected at ${inspected} %`, () => {
      const { w, p } = threeDraws();
      w.document<InspectionReport>({
        id: 'INSP-1',
        project_id: p.id,
        type: 'INSPECTION_REPORT',
        draw_id: 'DRW-1',
        inspector: 'ent_insp',
        inspected_on: '2026-05-03',
        lines: [{ line: 1, percent_complete: inspected }],
        stored_materials_verified: true,
      });
      expect(dimension(w, 'draw_accuracy').score).to.equal(score);
    });
  }

  it('is lowered by an invoice billed again in a later draw (40 × 1/2 off)', () => {
    const { w, p } = threeDraws();
    const invoice = (id: string) =>
      w.document<Invoice>({
        id,
        project_id: p.id,
        type: 'INVOICE',
        vendor: SUB,
        number: '100',
        amount: 1_000_00,
        line: 2,
        draw_id: null,
      });
    invoice('INV-1');
    invoice('INV-2');
    w.projects.draws['DRW-1']!.invoices = ['INV-1'];
    w.projects.draws['DRW-2']!.invoices = ['INV-2'];
    expect(dimension(w, 'draw_accuracy').score).to.equal(80);
    const sub = gatherSignals(w.facts(SUB), NOW).filter((s) => s.code === 'DA03');
    expect(sub.map((s) => s.value)).to.deep.equal([0, 1]);
  });
});
