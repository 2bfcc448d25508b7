/**
 * DOMAIN §2 contradictions about an application's own figures: CONTRACT_SUM_MISMATCH,
 * ROLL_FORWARD_MISMATCH, RETAINAGE_MISCALCULATED. Each spec starts from the clean project and
 * changes one fact.
 */
import { expect } from 'chai';
import { cleanWorld, findingsFor, severities, GC } from '../../support/governance-fixtures.js';

describe('CONTRACT_SUM_MISMATCH (DOMAIN §2)', () => {
  it('finds nothing when the SOV sums to the contract and every draw carries it', () => {
    expect(findingsFor(cleanWorld().w, 'CONTRACT_SUM_MISMATCH')).to.deep.equal([]);
  });

  it('blocks at project level when the contract sum is one cent off Σ scheduled values', () => {
    // given
    const { w } = cleanWorld();
    w.project.contract_sum += 1;
    // when
    const found = findingsFor(w, 'CONTRACT_SUM_MISMATCH');
    // then
    expect(found).to.have.length(1);
    expect(found[0]).to.include({
      severity: 'BLOCKING',
      draw_id: null,
      entity_id: GC,
      curable_by_documents: false,
    });
    expect(found[0]!.detail).to.contain('difference -$0.01');
  });

  it('accepts an executed change order whose amount equals Σ its deltas, blocks one a cent off', () => {
    const exact = cleanWorld().w;
    exact.changeOrder({ id: 'CO-1', lines: [{ line: 3, delta: 1_000_000 }], executed_on: '2026-04-01' });
    expect(findingsFor(exact, 'CONTRACT_SUM_MISMATCH')).to.deep.equal([]);

    const off = cleanWorld().w;
    off.changeOrder({
      id: 'CO-1',
      lines: [{ line: 3, delta: 1_000_000 }],
      amount: 1_000_001,
      executed_on: '2026-04-01',
    });
    const found = findingsFor(off, 'CONTRACT_SUM_MISMATCH');
    expect(found.map((f) => [f.severity, f.draw_id])).to.deep.equal([['BLOCKING', null]]);
    expect(found[0]!.evidence).to.deep.include({ kind: 'change_order', id: 'CO-1' });
  });

  it('ignores a mismatched change order that is not executed', () => {
    const { w } = cleanWorld();
    w.changeOrder({ id: 'CO-1', lines: [{ line: 3, delta: 1_000_000 }], amount: 9, executed_on: null });
    expect(findingsFor(w, 'CONTRACT_SUM_MISMATCH')).to.deep.equal([]);
  });

  it('blocks the draw whose column C misses a change order executed within its period', () => {
    // given a change order executed 2026-03-20 (inside application 2's March period), recorded after it
    const { w } = cleanWorld();
    w.changeOrder({ id: 'CO-2', lines: [{ line: 3, delta: 2_000_000 }], executed_on: '2026-03-20' });
    // when
    const found = findingsFor(w, 'CONTRACT_SUM_MISMATCH');
    // then only application 2 (application 1's February period predates the execution)
    expect(found.map((f) => [f.severity, f.draw_id])).to.deep.equal([['BLOCKING', 'DRW-2']]);
    expect(found[0]!.detail).to.contain('line 3');
    expect(found[0]!.evidence).to.deep.include({ kind: 'sov_line', id: '3' });
  });
});

describe('ROLL_FORWARD_MISMATCH (DOMAIN §2)', () => {
  it("finds nothing when each line's previous equals the prior funded draw's D+E+F", () => {
    expect(findingsFor(cleanWorld().w, 'ROLL_FORWARD_MISMATCH')).to.deep.equal([]);
  });

  it("blocks a draw whose line 1 previous is one cent short of application 1's G", () => {
    const { w, d2 } = cleanWorld();
    d2.lines[0]!.previous -= 1;
    const found = findingsFor(w, 'ROLL_FORWARD_MISMATCH');
    expect(found.map((f) => [f.severity, f.draw_id])).to.deep.equal([['BLOCKING', 'DRW-2']]);
    expect(found[0]!.evidence).to.deep.include({ kind: 'draw', id: 'DRW-1' });
    expect(found[0]!.curable_by_documents).to.equal(false);
  });

  it('blocks a first draw that claims previous work', () => {
    const { w, d1 } = cleanWorld();
    d1.lines[1]!.previous = 1;
    const found = findingsFor(w, 'ROLL_FORWARD_MISMATCH');
    expect(found.map((f) => f.draw_id)).to.deep.equal(['DRW-1']);
    expect(found[0]!.detail).to.contain('no prior funded draw');
  });

  it('blocks previous certificates one cent off Σ funded, and accepts them equal', () => {
    const { w, d2 } = cleanWorld();
    expect(d2.previous_certificates_total).to.equal(36_000_000);
    d2.previous_certificates_total = 36_000_001;
    const found = findingsFor(w, 'ROLL_FORWARD_MISMATCH');
    expect(found).to.have.length(1);
    expect(found[0]!.title).to.contain('previous certificates');
  });

  it('blocks an unpaid application once a later one was paid first from zero: that work is paid already', () => {
    // given application 1 still unpaid, and application 2 claiming from zero (no draw was funded
    // when it was submitted) paid first
    const { w, d1, d2 } = cleanWorld();
    d1.status = 'COMPILED';
    d1.funded_amount = null;
    for (const l of d2.lines) l.previous = 0;
    d2.previous_certificates_total = 0;
    d2.status = 'FUNDED';
    d2.funded_amount = d2.requested_amount;
    // then application 1 no longer starts where the last paid one ended: paying it would pay twice
    const found = findingsFor(w, 'ROLL_FORWARD_MISMATCH');
    expect(found.map((f) => [f.severity, f.draw_id])).to.deep.equal([
      ['BLOCKING', 'DRW-1'],
      ['BLOCKING', 'DRW-1'],
    ]);
    expect(found.map((f) => f.title)).to.deep.equal([
      'Application 1: previous work does not roll forward',
      'Application 1: previous certificates do not match funded draws',
    ]);
    expect(found[0]!.evidence).to.deep.include({ kind: 'draw', id: 'DRW-2' });
  });

  it('resolves once the predecessor is funded: Σ funded is read as of the scan', () => {
    // given application 2 states application 1's certificate while application 1 is still unfunded
    const { w, d1 } = cleanWorld();
    d1.status = 'COMPILED';
    const funded = d1.funded_amount;
    d1.funded_amount = null;
    expect(findingsFor(w, 'ROLL_FORWARD_MISMATCH').map((f) => f.draw_id)).to.include('DRW-2');
    // when application 1 is funded
    d1.status = 'FUNDED';
    d1.funded_amount = funded;
    // then
    expect(findingsFor(w, 'ROLL_FORWARD_MISMATCH')).to.deep.equal([]);
  });
});

describe('DUPLICATE_OR_UNSUPPORTED_COST: a request that disagrees with G702 line 8 (issue 14)', () => {
  it('warns, attributed to the GC, when the requested amount is not line 8; says nothing when it is', () => {
    expect(findingsFor(cleanWorld().w, 'DUPLICATE_OR_UNSUPPORTED_COST')).to.deep.equal([]);
    const { w } = cleanWorld({ draw2: { requested_amount: 85_500_000 + 100 } });
    const found = findingsFor(w, 'DUPLICATE_OR_UNSUPPORTED_COST').filter((f) => f.title.includes('line 8'));
    expect(found.map((f) => [f.severity, f.draw_id, f.entity_id, f.curable_by_documents])).to.deep.equal([
      ['WARNING', 'DRW-2', GC, false],
    ]);
    expect(found[0]!.detail).to.match(
      /^Requested \$855,001\.00; line 8 \(current payment due\) is \$[\d,.]+, which is what a payment pays\.$/,
    );
  });
});

describe('RETAINAGE_MISCALCULATED (DOMAIN §2)', () => {
  // Application 2: Σ G $950,000 at 10 % → $95,000 expected.
  const withheld = (cents: number) => cleanWorld({ draw2: { retainage_withheld: cents } }).w;

  it('accepts retainage exactly $1.00 off and warns at $1.01', () => {
    expect(findingsFor(withheld(9_500_100), 'RETAINAGE_MISCALCULATED')).to.deep.equal([]);
    expect(findingsFor(withheld(9_499_900), 'RETAINAGE_MISCALCULATED')).to.deep.equal([]);
    const found = findingsFor(withheld(9_500_101), 'RETAINAGE_MISCALCULATED');
    expect(found.map((f) => [f.severity, f.draw_id])).to.deep.equal([['WARNING', 'DRW-2']]);
    expect(severities(findingsFor(withheld(9_499_899), 'RETAINAGE_MISCALCULATED'))).to.deep.equal([
      'WARNING',
    ]);
  });

  it('blocks a rate below the contractual retainage before 95 % complete', () => {
    const { w } = cleanWorld({ draw2: { retainage_pct: 5 } });
    const found = findingsFor(w, 'RETAINAGE_MISCALCULATED');
    expect(found.map((f) => [f.severity, f.draw_id])).to.deep.equal([['BLOCKING', 'DRW-2']]);
    expect(found[0]!.detail).to.contain('below the contractual 10%');
  });

  it('blocks withholding more than $1 less than the previous funded draw held', () => {
    // application 1 held $40,000
    const found = findingsFor(withheld(4_000_000 - 101), 'RETAINAGE_MISCALCULATED');
    expect(found.map((f) => f.severity).sort()).to.deep.equal(['BLOCKING', 'WARNING']);
    const within = findingsFor(withheld(4_000_000 - 100), 'RETAINAGE_MISCALCULATED');
    expect(severities(within)).to.deep.equal(['WARNING']);
  });

  describe('release at the 95 % boundary', () => {
    // Σ C $3,000,000; line 3's this-period sets Σ G to $2,850,000 (95.00 %) or one cent less.
    const atCompletion = (line3ThisPeriod: number) =>
      cleanWorld({
        draw2: {
          retainage_pct: 5,
          lines: {
            1: { this_period: 80_000_000 },
            2: { this_period: 45_000_000 },
            3: { this_period: line3ThisPeriod },
          },
        },
      }).w;

    it('allows a reduced rate at exactly 95.00 % complete', () => {
      expect(findingsFor(atCompletion(120_000_000), 'RETAINAGE_MISCALCULATED')).to.deep.equal([]);
    });

    it('blocks the reduced rate one cent below 95 %', () => {
      expect(severities(findingsFor(atCompletion(119_999_999), 'RETAINAGE_MISCALCULATED'))).to.deep.equal([
        'BLOCKING',
      ]);
    });
  });
});
