import { expect } from 'chai';
import type { AdequacyVector, DrawVerdict } from '../../../src/governance/compile/index.js';
import type { Finding } from '../../../src/governance/findings.js';
import {
  expectedLoss,
  fundedBasis,
  interestCarry,
  simulateDraw,
  type SimulationInput,
} from '../../../src/governance/simulate.js';
import { aDraw, aFinding, aFundedFirstDraw, aProject } from '../compile/fixtures.js';

/** An adequacy vector with the given overall and compliance scores (grades per the DOMAIN preamble). */
function adequacy(overall: number, compliance = 100): AdequacyVector {
  const g = (score: number) =>
    ({
      score,
      grade: score >= 90 ? 'A' : score >= 80 ? 'B' : score >= 65 ? 'C' : score >= 50 ? 'D' : 'F',
    }) as const;
  return {
    overall: g(overall),
    vector: {
      lender: g(100),
      contractor: g(70),
      project: g(100),
      cashflow: g(100),
      compliance: g(compliance),
      risk: g(70),
    },
  };
}

/**
 * Loan 950k, equity 50k, contingency 10k, 7.5 %; draw 1 funded 90k (equity 50k + loan 40k),
 * draw 2 asks 144k; on 2026-04-15 the project is 28.57 % through its schedule and 26 % done.
 */
function input(
  draw_verdict: DrawVerdict,
  open: Finding[],
  overall = 85,
  compliance = 100,
  elsewhere: Finding[] = [],
): SimulationInput {
  return {
    project: aProject({ loan_amount: 950_000_00, equity: 50_000_00, contingency: 10_000_00 }),
    draw: aDraw(),
    disbursed: 90_000_00,
    retainage_held: 10_000_00,
    open_findings: open,
    project_findings: [...open, ...elsewhere],
    adequacy: adequacy(overall, compliance),
    draw_verdict,
    gc_excluded: false,
    today: '2026-04-15',
  };
}

describe('draw simulation (DOMAIN §10, SPEC §6 simulate)', () => {
  describe('scenarios', () => {
    const { scenarios } = simulateDraw(input('HOLD', [aFinding('LIEN_WAIVER_MISMATCH', 'BLOCKING')], 85, 75));
    const [approve, delay, reject] = scenarios;

    it('names the three scenarios in order', () => {
      expect(scenarios.map((s) => s.name)).to.deep.equal(['Approve Now', 'Delay 30 Days', 'Reject']);
    });

    it('Approve Now funds the requested amount today: equity first, then loan', () => {
      expect(approve!.capital).to.deep.equal({
        disbursed_after: 184_000_00,
        undisbursed_after: 766_000_00,
        cost_to_complete: 766_000_00,
        in_balance_gap: 0,
        interest_carry: 0,
        retainage_held: 26_000_00,
      });
      expect(approve!.risk).to.deep.equal({
        score: 85,
        posture: 'ELEVATED',
        open_blocking: 1,
        expected_loss: 1_840_00,
      });
    });

    it('Delay 30 Days carries 30 days of interest on the loan out, cures document findings and slips the schedule', () => {
      // interest: 40,000.00 × 7.5 % × 30 / 365 = 246.5753… → 246.58
      expect(delay!.capital).to.include({
        disbursed_after: 184_000_00,
        interest_carry: 246_58,
        in_balance_gap: 0,
      });
      // 85 + compliance 75 → 100 (×.15 = +3.75) − pace lag 2.57 → 10.81 points (×2 ×.15 = −2.47) = 86.28 → 86
      expect(delay!.risk).to.deep.equal({
        score: 86,
        posture: 'NOMINAL',
        open_blocking: 0,
        expected_loss: 1_840_00,
      });
    });

    it('Reject funds nothing: exposure stays at the loan out, findings stay open, the schedule slips', () => {
      expect(reject!.capital).to.deep.equal({
        disbursed_after: 40_000_00,
        undisbursed_after: 910_000_00,
        cost_to_complete: 910_000_00,
        in_balance_gap: 0,
        interest_carry: 246_58,
        retainage_held: 10_000_00,
      });
      expect(reject!.risk).to.deep.equal({
        score: 83,
        posture: 'ELEVATED',
        open_blocking: 1,
        expected_loss: 400_00,
      });
    });

    it('Delay 30 Days cures only this draw’s findings: the project’s others still count against compliance', () => {
      // Adequacy's compliance (92) counts a WARNING no document cures on the funded first draw.
      // Delaying this draw cures nothing, so Delay is Approve Now less the pace lag (−2.47): 82.53 → 83.
      const funded = aFinding('WAIVER_SEQUENCE', 'WARNING', {
        id: 'FND-firstdrawwarning',
        draw_id: 'DRW-firstfirstfirstf',
        curable_by_documents: false,
      });
      const [, quiet] = simulateDraw(input('FUNDABLE', [], 85, 92, [funded])).scenarios;
      expect(quiet!.risk.score).to.equal(83);
      // With this draw's curable BLOCKING (compliance 67): Delay cures it, not the other: 67 → 92 (+3.75).
      const blocking = aFinding('LIEN_WAIVER_MISMATCH', 'BLOCKING');
      const [, cured] = simulateDraw(input('HOLD', [blocking], 85, 67, [funded])).scenarios;
      expect(cured!.risk.score).to.equal(86);
    });

    it('counts interest carry as a use: a budget balanced to the cent goes CRITICAL when funding waits', () => {
      const tight = {
        ...input('FUNDABLE', []),
        project: aProject({ loan_amount: 950_000_00, equity: 50_000_00, contingency: 0 }),
      };
      const [now, later] = simulateDraw(tight).scenarios;
      expect(now!.capital.in_balance_gap).to.equal(0);
      expect(later!.capital.in_balance_gap).to.equal(246_58);
      expect(later!.risk.posture).to.equal('CRITICAL');
    });
    it('counts a payment beyond every source as a gap: Approve Now of an overbilled request is CRITICAL, not APPROVE', () => {
      // $1,010,000 of sources, $90,000 of it spent; the draw asks $5,000,000: $4,080,000 overdrawn.
      const over = { ...input('FUNDABLE', []), draw: { ...aDraw(), requested_amount: 5_000_000_00 } };
      const { scenarios, recommendation } = simulateDraw(over);
      expect(scenarios[0]!.capital).to.include({
        disbursed_after: 950_000_00,
        undisbursed_after: 0,
        cost_to_complete: 0,
        in_balance_gap: 4_080_000_00,
      });
      expect(scenarios[0]!.risk.posture).to.equal('CRITICAL');
      expect(recommendation).to.equal('REVIEW');
    });
  });

  describe('recommendation', () => {
    it('is APPROVE when the draw is fundable and Approve Now is not CRITICAL', () => {
      expect(simulateDraw(input('FUNDABLE', [])).recommendation).to.equal('APPROVE');
      expect(
        simulateDraw(input('FUNDABLE_WITH_CONDITIONS', [aFinding('WAIVER_SEQUENCE', 'WARNING')]))
          .recommendation,
      ).to.equal('APPROVE');
    });

    it('is REVIEW when the draw is fundable but Approve Now is CRITICAL (score below 50)', () => {
      const result = simulateDraw(input('FUNDABLE', [], 45));
      expect(result.scenarios[0]!.risk.posture).to.equal('CRITICAL');
      expect(result.recommendation).to.equal('REVIEW');
    });

    it('is DELAY when the draw is held only by BLOCKING findings documents can cure', () => {
      const open = [
        aFinding('LIEN_WAIVER_MISMATCH', 'BLOCKING'),
        aFinding('TITLE_DATE_DOWN', 'BLOCKING', { category: 'temporal' }),
      ];
      expect(simulateDraw(input('HOLD', open)).recommendation).to.equal('DELAY');
    });

    it('is REVIEW when a BLOCKING finding no document cures is open', () => {
      const open = [
        aFinding('LIEN_WAIVER_MISMATCH', 'BLOCKING'),
        aFinding('PAY_PERIOD_SEQUENCE', 'BLOCKING', { curable_by_documents: false }),
      ];
      expect(simulateDraw(input('NOT_FUNDABLE', open)).recommendation).to.equal('REVIEW');
    });

    it('is REVIEW when the draw is not fundable for a reason a delay cannot cure (out of balance, no findings)', () => {
      expect(simulateDraw(input('NOT_FUNDABLE', [])).recommendation).to.equal('REVIEW');
    });
  });

  describe('money rules', () => {
    it('computes interest carry exactly and rounds half-up once', () => {
      expect(interestCarry(40_000_00, 7.5, 30)).to.equal(246_58);
      // 73,000.00 × 10 % × 1 / 365 = 20.00 exactly; 36,500.50 × 10 % × 1/365 = 10.000137 → 10.00
      expect(interestCarry(73_000_00, 10, 1)).to.equal(20_00);
      expect(interestCarry(36_500_50, 10, 1)).to.equal(10_00);
      // 6,661.25 × 10 % × 1 / 365 = 1.825 exactly → 1.83 half-up (no binary-float wobble at the half)
      expect(interestCarry(666_125, 10, 1)).to.equal(1_83);
      expect(interestCarry(0, 7.5, 30)).to.equal(0);
    });

    it('prices expected loss at the DOMAIN §10 PD of the score’s grade', () => {
      const exposure = 1_000_000_00;
      expect([95, 85, 70, 55, 30].map((s) => expectedLoss(s, exposure))).to.deep.equal([
        5_000_00, 10_000_00, 30_000_00, 80_000_00, 200_000_00,
      ]);
    });

    it('takes the funded basis from FUNDED draws only, retainage from the latest one', () => {
      const basis = fundedBasis([aFundedFirstDraw(), aDraw()], 'prj_harborloftsaaaaa');
      expect(basis).to.deep.equal({ disbursed: 90_000_00, retainage_held: 10_000_00 });
    });
  });
});
