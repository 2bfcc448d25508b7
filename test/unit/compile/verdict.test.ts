import { expect } from 'chai';
import {
  decideDrawVerdict,
  reducedAmount,
  type PralVerdict,
  type VerdictFacts,
} from '../../../src/governance/compile/index.js';
import type { Finding } from '../../../src/governance/findings.js';
import type { InspectionReport } from '../../../src/projects/facts.js';
import { aDraw, aFinding, anInspection, drawLine } from './fixtures.js';

const RELEASE: PralVerdict = { pral: 'RELEASE', contractor_pral: 'RELEASE', excluded: false, rationale: [] };

/** An open BLOCKING INSPECTION_VARIANCE on `line`, measured on `report` (as the scan records it). */
function variance(line: number, report: InspectionReport): Finding {
  return aFinding('INSPECTION_VARIANCE', 'BLOCKING', {
    id: `FND-variance-line-${line}`,
    evidence: [
      { kind: 'draw', id: 'DRW-secondsecondseco' },
      { kind: 'document', id: report.id },
      { kind: 'sov_line', id: String(line) },
    ],
  });
}

function facts(open: Finding[], overrides: Partial<VerdictFacts> = {}): VerdictFacts {
  return { draw: aDraw(), documents: [], open, pral: RELEASE, in_balance: true, ...overrides };
}

describe('draw verdict (DOMAIN §9)', () => {
  it('is FUNDABLE at the requested amount with no open finding', () => {
    expect(decideDrawVerdict(facts([]))).to.deep.equal({
      draw_verdict: 'FUNDABLE',
      reasons: [],
      open_blocking: 0,
      open_warning: 0,
      requested_amount: 144_000_00,
      fundable_amount: 144_000_00,
    });
  });

  it('is FUNDABLE_WITH_CONDITIONS when only WARNINGs are open, naming them', () => {
    const verdict = decideDrawVerdict(facts([aFinding('RETAINAGE_MISCALCULATED', 'WARNING')]));
    expect(verdict).to.include({
      draw_verdict: 'FUNDABLE_WITH_CONDITIONS',
      open_warning: 1,
      fundable_amount: 144_000_00,
    });
    expect(verdict.reasons).to.deep.equal(['WARNING: RETAINAGE_MISCALCULATED']);
  });

  it('is REDUCED to the inspected amounts when INSPECTION_VARIANCE is the only BLOCKING finding', () => {
    // given line 1 claimed at 50 % but inspected at 35 % (15 points > 10); line 2 within tolerance
    const inspection = anInspection([
      { line: 1, percent_complete: 35 },
      { line: 2, percent_complete: 8 },
    ]);
    const verdict = decideDrawVerdict(
      facts([variance(1, inspection), aFinding('RETAINAGE_MISCALCULATED', 'WARNING')], {
        documents: [inspection],
      }),
    );
    // then line 1's G is cut from 200k to 140k; the 60k cut less 10 % retainage (54k) comes off 144k
    expect(verdict).to.include({ draw_verdict: 'REDUCED', fundable_amount: 90_000_00, open_blocking: 1 });
  });

  it('cuts the REDUCED amount from G702 line 8, not from the requested figure (an inflated request lifts nothing)', () => {
    // line 8 is 144k; the application asks 300k. Line 1 inspected at 35 %: 60k cut, 54k net of retainage.
    const inspection = anInspection([
      { line: 1, percent_complete: 35 },
      { line: 2, percent_complete: 8 },
    ]);
    const verdict = decideDrawVerdict(
      facts([variance(1, inspection), aFinding('DUPLICATE_OR_UNSUPPORTED_COST', 'WARNING')], {
        draw: aDraw({ requested_amount: 300_000_00 }),
        documents: [inspection],
      }),
    );
    expect(verdict).to.include({ draw_verdict: 'REDUCED', fundable_amount: 90_000_00 });
  });

  it('makes G702 line 8 fundable, whatever the application requested (what a payment pays)', () => {
    const asked = (requested_amount: number) =>
      decideDrawVerdict(
        facts([aFinding('DUPLICATE_OR_UNSUPPORTED_COST', 'WARNING')], { draw: aDraw({ requested_amount }) }),
      ).fundable_amount;
    expect(asked(300_000_00)).to.equal(144_000_00);
    expect(asked(100_000_00)).to.equal(144_000_00);
  });

  it('rounds the inspected value of a line half-up to whole cents', () => {
    // 33.333 % of 400,000.00 = 133,332.00; cut 66,668.00; retainage 6,666.80; net 60,001.20
    const inspection = anInspection([{ line: 1, percent_complete: 33.333 }]);
    expect(reducedAmount(aDraw(), [inspection], [variance(1, inspection)])).to.equal(144_000_00 - 60_001_20);
  });

  it('cuts only the lines a BLOCKING variance names, at the report it was measured on', () => {
    // Line 1 claims 50 %, line 2 20 % (120k of 600k). The report the BLOCKING variance on line 1 was
    // found on saw line 1 at 35 % and line 2 at 9.996 %: 10.004 points, 1,000 hundredths — a
    // WARNING, not cut (it was: 60,024 more off the draw). An earlier report naming the draw saw
    // no variance at all; the cut is not taken from it (it was: nothing cut, the whole line 8 paid).
    const draw = aDraw({
      lines: [drawLine(1, 400_000_00, 100_000_00, 100_000_00, 0), drawLine(2, 600_000_00, 0, 120_000_00, 0)],
    });
    const earlier = anInspection(
      [
        { line: 1, percent_complete: 50 },
        { line: 2, percent_complete: 20 },
      ],
      { id: 'INSP-earlierearlierea', inspected_on: '2026-03-01' },
    );
    const site = anInspection(
      [
        { line: 1, percent_complete: 35 },
        { line: 2, percent_complete: 9.996 },
      ],
      { id: 'INSP-sitereportsitere', draw_id: null },
    );
    const warning = aFinding('INSPECTION_VARIANCE', 'WARNING', {
      evidence: [
        { kind: 'document', id: site.id },
        { kind: 'sov_line', id: '2' },
      ],
    });
    const verdict = decideDrawVerdict(
      facts([variance(1, site), warning], { draw, documents: [earlier, site] }),
    );
    // line 1: G 200k cut to 140k; the 60k cut less 10 % retainage comes off line 8 (144k).
    expect(verdict).to.include({ draw_verdict: 'REDUCED', fundable_amount: 90_000_00 });
  });

  it('is HOLD when the other BLOCKING findings are all curable by documents', () => {
    const verdict = decideDrawVerdict(
      facts([aFinding('LIEN_WAIVER_MISMATCH', 'BLOCKING'), aFinding('INSPECTION_VARIANCE', 'BLOCKING')]),
    );
    expect(verdict).to.include({ draw_verdict: 'HOLD', fundable_amount: 0 });
    expect(verdict.reasons).to.deep.equal(['BLOCKING: LIEN_WAIVER_MISMATCH']);
  });

  it('is NOT_FUNDABLE when a BLOCKING finding no document can cure is open', () => {
    const verdict = decideDrawVerdict(
      facts([
        aFinding('LIEN_WAIVER_MISMATCH', 'BLOCKING'),
        aFinding('DUPLICATE_OR_UNSUPPORTED_COST', 'BLOCKING', { curable_by_documents: false }),
      ]),
    );
    expect(verdict.draw_verdict).to.equal('NOT_FUNDABLE');
    expect(verdict.reasons).to.deep.equal(['BLOCKING (no document cures): DUPLICATE_OR_UNSUPPORTED_COST']);
  });

  it('is NOT_FUNDABLE on a registry exclusion, a DENY, or out of balance, even with no finding open', () => {
    expect(
      decideDrawVerdict(facts([], { pral: { ...RELEASE, pral: 'DENY', excluded: true } })).reasons,
    ).to.deep.equal(['GC has an active registry exclusion']);
    expect(decideDrawVerdict(facts([], { pral: { ...RELEASE, pral: 'DENY' } })).reasons).to.deep.equal([
      'PRAL is DENY',
    ]);
    const outOfBalance = decideDrawVerdict(
      facts([aFinding('INSPECTION_VARIANCE', 'BLOCKING')], { in_balance: false }),
    );
    expect(outOfBalance).to.include({ draw_verdict: 'NOT_FUNDABLE', fundable_amount: 0 });
    expect(outOfBalance.reasons).to.deep.equal(['project is out of balance']);
  });

  it('does not let PRAL HOLD alone stop a clean draw (only DENY does, DOMAIN §9)', () => {
    expect(decideDrawVerdict(facts([], { pral: { ...RELEASE, pral: 'HOLD' } })).draw_verdict).to.equal(
      'FUNDABLE',
    );
  });
});
