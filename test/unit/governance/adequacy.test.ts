/**
 * Capital adequacy (DOMAIN §4). The clean project on 2026-04-15: $360,000 disbursed (all from
 * equity), so $2,400,000 loan undisbursed, $240,000 equity unspent and $150,000 contingency:
 * sources $2,790,000 against a cost to complete of $2,640,000.
 */
import { expect } from 'chai';
import { assessAdequacy, linearScore, type AdequacyInput } from '../../../src/governance/adequacy.js';
import { NEUTRAL_PRIOR_SCORE, gradeFor } from '../../../src/governance/constants.js';
import { toFinding, type Finding, type Severity } from '../../../src/governance/findings.js';
import { cleanWorld, on, NOW, PROJECT_ID, GC } from '../../support/governance-fixtures.js';
import type { GovernanceWorld } from '../../support/governance-fixtures.js';

function inputOf(w: GovernanceWorld, overrides: Partial<AdequacyInput> = {}): AdequacyInput {
  return {
    project: w.project,
    draws: w.draws,
    change_orders: w.change_orders,
    findings: [],
    contractor_score: null,
    gc_excluded: false,
    rail_composite: null,
    ...overrides,
  };
}

const finding = (severity: Severity, n: number): Finding =>
  toFinding(PROJECT_ID, '2026-04-15', {
    code: 'TITLE_DATE_DOWN',
    severity,
    draw_id: null,
    entity_id: GC,
    subject: `s${n}`,
    title: 't',
    detail: 'd',
    evidence: [],
    curable_by_documents: true,
  });

/** The clean project with one change order of `amount` executed before the scan. */
function withExecutedChange(amount: number): GovernanceWorld {
  const { w } = cleanWorld();
  w.changeOrder({ id: 'CO-1', lines: [{ line: 3, delta: amount }], executed_on: '2026-04-10' });
  return w;
}

describe('capital adequacy (DOMAIN §4)', () => {
  it('reads the money equity first and counts retainage inside the cost to complete', () => {
    const { figures, in_balance } = assessAdequacy(inputOf(cleanWorld().w), NOW);
    expect(figures).to.deep.equal({
      disbursed: 36_000_000,
      undisbursed_loan: 240_000_000,
      unspent_equity: 24_000_000,
      remaining_contingency: 15_000_000,
      contract_sum_to_date: 300_000_000,
      cost_to_complete: 264_000_000,
      sources: 279_000_000,
      uses: 264_000_000,
      in_balance_ratio: 1.0568,
      lender_coverage_ratio: 0.9091,
      time_elapsed_pct: 28.57,
      work_complete_pct: 31.67,
      budget_overrun_pct: 0,
    });
    expect(in_balance).to.equal(true);
  });

  describe('in-balance test', () => {
    it('is in balance when sources exactly cover uses', () => {
      const result = assessAdequacy(inputOf(withExecutedChange(15_000_000)), NOW);
      expect([result.in_balance, result.figures.in_balance_ratio]).to.deep.equal([true, 1]);
    });

    it('is out of balance one cent beyond, which costs the lender member 20 points', () => {
      const balanced = assessAdequacy(inputOf(withExecutedChange(15_000_000)), NOW);
      const short = assessAdequacy(inputOf(withExecutedChange(15_000_001)), NOW);
      expect(short.in_balance).to.equal(false);
      expect(balanced.vector.lender.score).to.equal(72);
      expect(short.vector.lender.score).to.equal(52);
    });

    it('scores lender and cashflow 100 when nothing is left to pay', () => {
      const { w } = cleanWorld();
      w.project.contract_sum = 36_000_000;
      const result = assessAdequacy(inputOf(w), NOW);
      expect(result.figures).to.deep.include({
        cost_to_complete: 0,
        in_balance_ratio: null,
        lender_coverage_ratio: null,
      });
      expect([result.vector.lender.score, result.vector.cashflow.score]).to.deep.equal([100, 100]);
    });
  });

  it('lender: coverage 1.0 → 100, linear to 0 at 0.5', () => {
    expect([
      linearScore(1.2, 0.5, 1),
      linearScore(1, 0.5, 1),
      linearScore(0.75, 0.5, 1),
      linearScore(0.5, 0.5, 1),
    ]).to.deep.equal([100, 100, 50, 0]);
    // the clean project covers 0.9091 of its cost to complete
    expect(assessAdequacy(inputOf(cleanWorld().w), NOW).vector.lender).to.deep.equal({
      score: 82,
      grade: 'B',
    });
  });

  it("contractor: the GC's composite, or the neutral prior when credit has none", () => {
    const w = cleanWorld().w;
    expect(assessAdequacy(inputOf(w, { contractor_score: 93 }), NOW).vector.contractor).to.deep.equal({
      score: 93,
      grade: 'A',
    });
    expect(assessAdequacy(inputOf(w), NOW).vector.contractor.score).to.equal(NEUTRAL_PRIOR_SCORE);
  });

  it('project: 2 points per point of pace lag and 1 per percent of overrun', () => {
    // 2026-07-01: 49.73 % of the schedule elapsed, 31.67 % of the work done → lag 18.06
    expect(assessAdequacy(inputOf(cleanWorld().w), on('2026-07-01')).vector.project.score).to.equal(64);
    // an executed +$300,000 change order is a 10 % overrun
    expect(assessAdequacy(inputOf(withExecutedChange(30_000_000)), NOW).vector.project.score).to.equal(90);
    // ahead of schedule is not rewarded
    expect(assessAdequacy(inputOf(cleanWorld().w), NOW).vector.project.score).to.equal(100);
  });

  it('cashflow: sources ÷ uses 1.05 → 100, 0.85 → 0, linear between', () => {
    expect(linearScore(1.05, 0.85, 1.05)).to.equal(100);
    expect(linearScore(0.95, 0.85, 1.05)).to.equal(50);
    expect(linearScore(0.85, 0.85, 1.05)).to.equal(0);
    // +$450,000 executed: uses $3,090,000 against sources $2,790,000 → 0.9029
    expect(assessAdequacy(inputOf(withExecutedChange(45_000_000)), NOW).vector.cashflow.score).to.equal(26);
  });

  it('compliance: −25 per open BLOCKING, −8 per open WARNING, floor 0; GC exclusion → 0', () => {
    const w = cleanWorld().w;
    const two = [finding('BLOCKING', 1), finding('BLOCKING', 2), finding('WARNING', 3)];
    expect(assessAdequacy(inputOf(w, { findings: two }), NOW).vector.compliance.score).to.equal(42);
    const many = [1, 2, 3, 4].map((n) => finding('BLOCKING', n)).concat(finding('WARNING', 5));
    expect(assessAdequacy(inputOf(w, { findings: many }), NOW).vector.compliance.score).to.equal(0);
    expect(assessAdequacy(inputOf(w, { gc_excluded: true }), NOW).vector.compliance).to.deep.equal({
      score: 0,
      grade: 'F',
    });
  });

  it("risk: the project's rail composite, or the neutral prior", () => {
    const w = cleanWorld().w;
    expect(assessAdequacy(inputOf(w, { rail_composite: 55 }), NOW).vector.risk).to.deep.equal({
      score: 55,
      grade: 'D',
    });
    expect(assessAdequacy(inputOf(w), NOW).vector.risk.score).to.equal(NEUTRAL_PRIOR_SCORE);
  });

  it('overall: the weighted mean .20/.20/.15/.20/.15/.10', () => {
    // lender 82, contractor 70, project 100, cashflow 100, compliance 100, risk 70 → 87.4
    const result = assessAdequacy(inputOf(cleanWorld().w), NOW);
    expect(result.overall).to.deep.equal({ score: 87, grade: 'B' });
  });

  it('grades A ≥ 90, B ≥ 80, C ≥ 65, D ≥ 50, F below', () => {
    expect([100, 90, 89, 80, 79, 65, 64, 50, 49, 0].map(gradeFor)).to.deep.equal([
      'A',
      'A',
      'B',
      'B',
      'C',
      'C',
      'D',
      'D',
      'F',
      'F',
    ]);
  });
});
