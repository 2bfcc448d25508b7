/**
 * DOMAIN §2 contradictions between an application and its documents: INSPECTION_VARIANCE,
 * LIEN_WAIVER_MISMATCH, DUPLICATE_OR_UNSUPPORTED_COST, STORED_MATERIALS_UNSUPPORTED.
 */
import { expect } from 'chai';
import {
  cleanWorld,
  findingsFor,
  severities,
  without,
  ELECTRICIAN,
  GC,
  SUPPLIER,
} from '../../support/governance-fixtures.js';

describe('INSPECTION_VARIANCE (DOMAIN §2)', () => {
  // Application 2 claims 40.00 % on line 1.
  const inspectedLine1 = (pct: number) => {
    const { w, inspection2 } = cleanWorld();
    inspection2.lines[0]!.percent_complete = pct;
    return findingsFor(w, 'INSPECTION_VARIANCE');
  };

  it('finds nothing at exactly 5.00 points over the inspector', () => {
    expect(inspectedLine1(35)).to.deep.equal([]);
  });

  it('warns at 5.01 points', () => {
    const found = inspectedLine1(34.99);
    expect(found.map((f) => [f.severity, f.draw_id, f.entity_id])).to.deep.equal([['WARNING', 'DRW-2', GC]]);
    expect(found[0]!.evidence).to.deep.include({ kind: 'sov_line', id: '1' });
  });

  it('still warns at exactly 10.00 points and blocks at 10.01', () => {
    expect(severities(inspectedLine1(30))).to.deep.equal(['WARNING']);
    expect(severities(inspectedLine1(29.99))).to.deep.equal(['BLOCKING']);
  });

  it('does not count a contractor claiming less than the inspector saw', () => {
    expect(inspectedLine1(60)).to.deep.equal([]);
  });

  it('compares against the latest inspection of the draw', () => {
    // given a stale report that disagrees and a newer site inspection that agrees
    const { w, d2, inspection2 } = cleanWorld();
    inspection2.lines[0]!.percent_complete = 20;
    w.inspection({
      id: 'INSP-site',
      draw_id: null,
      inspected_on: '2026-04-08',
      lines: d2.lines.map((l) => ({ line: l.line, percent_complete: l.percent_complete })),
    });
    expect(findingsFor(w, 'INSPECTION_VARIANCE')).to.deep.equal([]);
  });
});

describe('LIEN_WAIVER_MISMATCH (DOMAIN §2)', () => {
  it('blocks when the unconditional waiver for the previous funded draw is missing', () => {
    const { w } = cleanWorld();
    const found = findingsFor(without(w, 'WAIV-u1'), 'LIEN_WAIVER_MISMATCH');
    expect(found.map((f) => [f.severity, f.draw_id, f.entity_id])).to.deep.equal([['BLOCKING', 'DRW-2', GC]]);
    expect(found[0]!.title).to.contain('missing');
  });

  it('blocks an unconditional waiver one cent below the amount paid, accepts it equal', () => {
    const { w, unconditional1 } = cleanWorld();
    unconditional1.amount = 35_999_999;
    expect(severities(findingsFor(w, 'LIEN_WAIVER_MISMATCH'))).to.deep.equal(['BLOCKING']);
    unconditional1.amount = 36_000_000;
    expect(findingsFor(w, 'LIEN_WAIVER_MISMATCH')).to.deep.equal([]);
  });

  it('does not count an unconditional waiver that is not executed', () => {
    const { w, unconditional1 } = cleanWorld();
    unconditional1.executed = false;
    expect(severities(findingsFor(w, 'LIEN_WAIVER_MISMATCH'))).to.deep.equal(['BLOCKING']);
  });

  it("warns when the GC's conditional waiver is one cent off the requested amount", () => {
    const { w, conditional2 } = cleanWorld();
    conditional2.amount += 1;
    const found = findingsFor(w, 'LIEN_WAIVER_MISMATCH');
    expect(found.map((f) => [f.severity, f.entity_id])).to.deep.equal([['WARNING', GC]]);
    expect(found[0]!.curable_by_documents).to.equal(true);
  });

  it("matches a subcontractor's conditional waiver to its lines' E + F net of retainage", () => {
    // the electrician's line 2 bills $50,000 this period; net of 10 % retainage $45,000
    const exact = cleanWorld();
    exact.w.waiver({ id: 'WAIV-e', draw_id: 'DRW-2', claimant: ELECTRICIAN, amount: 4_500_000 });
    expect(findingsFor(exact.w, 'LIEN_WAIVER_MISMATCH')).to.deep.equal([]);

    const off = cleanWorld();
    off.w.waiver({ id: 'WAIV-e', draw_id: 'DRW-2', claimant: ELECTRICIAN, amount: 4_500_001 });
    const found = findingsFor(off.w, 'LIEN_WAIVER_MISMATCH');
    expect(found.map((f) => [f.severity, f.entity_id])).to.deep.equal([['WARNING', ELECTRICIAN]]);
  });

  it('warns on a waiver with exceptions', () => {
    const { w, conditional2 } = cleanWorld();
    conditional2.exceptions = [{ description: 'disputed extra', amount: 120_000 }];
    const found = findingsFor(w, 'LIEN_WAIVER_MISMATCH');
    expect(severities(found)).to.deep.equal(['WARNING']);
    expect(found[0]!.detail).to.contain('disputed extra ($1,200.00)');
  });

  it('cures on a corrected waiver of the same claimant and type', () => {
    const { w, d2, conditional2 } = cleanWorld();
    conditional2.exceptions = [{ description: 'disputed extra', amount: null }];
    w.waiver({ id: 'WAIV-c2b', draw_id: d2.id, amount: d2.requested_amount });
    expect(findingsFor(w, 'LIEN_WAIVER_MISMATCH')).to.deep.equal([]);
  });

  it('warns on a final waiver before substantial completion, not after the milestone', () => {
    const { w, d2 } = cleanWorld();
    w.waiver({
      id: 'WAIV-f',
      draw_id: d2.id,
      claimant: SUPPLIER,
      waiver_type: 'UNCONDITIONAL_FINAL',
      amount: 0,
      signed_on: '2026-04-12',
    });
    const found = findingsFor(w, 'LIEN_WAIVER_MISMATCH').filter((f) => f.title.includes('substantial'));
    expect(found.map((f) => [f.severity, f.entity_id, f.curable_by_documents])).to.deep.equal([
      ['WARNING', SUPPLIER, false],
    ]);
    w.project.milestones = [
      { name: 'Substantial Completion', due_on: '2026-04-10', completed_on: '2026-04-11' },
    ];
    expect(
      findingsFor(w, 'LIEN_WAIVER_MISMATCH').filter((f) => f.title.includes('substantial')),
    ).to.deep.equal([]);
  });
});

describe('DUPLICATE_OR_UNSUPPORTED_COST (DOMAIN §2)', () => {
  it('blocks an invoice number of the same vendor billed in an earlier draw (case and spaces ignored)', () => {
    const { w, d2 } = cleanWorld();
    w.invoice({ id: 'INV-dup', number: ' g-1 ', amount: 1_000 });
    d2.invoices.push('INV-dup');
    const found = findingsFor(w, 'DUPLICATE_OR_UNSUPPORTED_COST');
    expect(found.map((f) => [f.severity, f.draw_id, f.entity_id])).to.deep.equal([['BLOCKING', 'DRW-2', GC]]);
    expect(found[0]!.evidence).to.deep.include({ kind: 'draw', id: 'DRW-1' });
  });

  it('lets another vendor use the same invoice number', () => {
    const { w, d2 } = cleanWorld();
    w.invoice({ id: 'INV-other', number: 'G-1', amount: 1_000, vendor: SUPPLIER });
    d2.invoices.push('INV-other');
    expect(findingsFor(w, 'DUPLICATE_OR_UNSUPPORTED_COST')).to.deep.equal([]);
  });

  it('accepts invoices at exactly 90 % of the request and warns one cent below', () => {
    // application 2 requests $495,000; 90 % is $445,500
    const support = (amount: number) => {
      const { w } = cleanWorld();
      const invoice = w.documents.find((d) => d.id === 'INV-2');
      if (invoice?.type !== 'INVOICE') throw new Error('fixture');
      invoice.amount = amount;
      return findingsFor(w, 'DUPLICATE_OR_UNSUPPORTED_COST');
    };
    expect(support(44_550_000)).to.deep.equal([]);
    const found = support(44_549_999);
    expect(found.map((f) => [f.severity, f.draw_id, f.curable_by_documents])).to.deep.equal([
      ['WARNING', 'DRW-2', true],
    ]);
  });

  it('counts an invoice listed twice in the same draw (same vendor and number) once toward support', () => {
    // application 2 requests $495,000 (90 %: $445,500); G-2 for $250,000 uploaded twice and both listed
    const { w, d2 } = cleanWorld();
    const invoice = w.documents.find((d) => d.id === 'INV-2');
    if (invoice?.type !== 'INVOICE') throw new Error('fixture');
    invoice.amount = 25_000_000;
    w.invoice({ id: 'INV-2b', number: 'g-2 ', amount: 25_000_000 });
    d2.invoices.push('INV-2b');
    const found = findingsFor(w, 'DUPLICATE_OR_UNSUPPORTED_COST');
    expect(found.map((f) => [f.severity, f.draw_id, f.title])).to.deep.equal([
      ['WARNING', 'DRW-2', 'Application 2: invoices do not support the request'],
    ]);
    expect(found[0]!.detail).to.contain('$250,000.00');
  });

  it('does not count a duplicated invoice as support', () => {
    const { w, d2 } = cleanWorld();
    d2.invoices = ['INV-1'];
    expect(severities(findingsFor(w, 'DUPLICATE_OR_UNSUPPORTED_COST'))).to.deep.equal([
      'BLOCKING',
      'WARNING',
    ]);
  });
});

describe('STORED_MATERIALS_UNSUPPORTED (DOMAIN §2)', () => {
  // application 2 stores $20,000 of framing on line 3
  const stored = () =>
    cleanWorld({
      draw2: {
        lines: {
          1: { this_period: 20_000_000 },
          2: { this_period: 5_000_000 },
          3: { this_period: 30_000_000, stored_materials: 2_000_000 },
        },
      },
    }).w;

  it('blocks stored materials without a bill of sale', () => {
    const found = findingsFor(stored(), 'STORED_MATERIALS_UNSUPPORTED');
    expect(found.map((f) => [f.severity, f.draw_id, f.curable_by_documents])).to.deep.equal([
      ['BLOCKING', 'DRW-2', true],
    ]);
    expect(found[0]!.evidence).to.deep.include({ kind: 'sov_line', id: '3' });
  });

  it('accepts an insured bill of sale covering the amount, blocks one a cent short', () => {
    const covered = stored();
    covered.billOfSale({
      id: 'BOS-1',
      draw_id: 'DRW-2',
      lines: [{ line: 3, description: 'studs', amount: 2_000_000 }],
    });
    expect(findingsFor(covered, 'STORED_MATERIALS_UNSUPPORTED')).to.deep.equal([]);

    const short = stored();
    short.billOfSale({
      id: 'BOS-1',
      draw_id: 'DRW-2',
      lines: [{ line: 3, description: 'studs', amount: 1_999_999 }],
    });
    expect(severities(findingsFor(short, 'STORED_MATERIALS_UNSUPPORTED'))).to.deep.equal(['BLOCKING']);
  });

  it('blocks a covering bill of sale whose materials are not insured', () => {
    const w = stored();
    w.billOfSale({
      id: 'BOS-1',
      draw_id: 'DRW-2',
      insured: false,
      lines: [{ line: 3, description: 'studs', amount: 2_000_000 }],
    });
    const found = findingsFor(w, 'STORED_MATERIALS_UNSUPPORTED');
    expect(found[0]!.detail).to.contain('uninsured bills a further $20,000.00');
  });

  it("does not let another draw's bill of sale cover this one", () => {
    const w = stored();
    w.billOfSale({
      id: 'BOS-1',
      draw_id: 'DRW-1',
      lines: [{ line: 3, description: 'studs', amount: 2_000_000 }],
    });
    expect(severities(findingsFor(w, 'STORED_MATERIALS_UNSUPPORTED'))).to.deep.equal(['BLOCKING']);
  });
});
