/**
 * DOMAIN §3 rules about documents in time: INSURANCE_EXPIRY, WAIVER_SEQUENCE,
 * INSPECTION_FRESHNESS, TITLE_DATE_DOWN. `NOW` is 2026-04-15; `on(day)` moves the scan day.
 */
import { expect } from 'chai';
import type { InsuranceCertificate } from '../../../src/projects/facts.js';
import {
  cleanWorld,
  findingsFor,
  on,
  severities,
  without,
  GC,
  OWNER,
} from '../../support/governance-fixtures.js';

describe('INSURANCE_EXPIRY (DOMAIN §3)', () => {
  const gl = (w: ReturnType<typeof cleanWorld>['w']): InsuranceCertificate => {
    const c = w.documents.find((d) => d.id === 'COI-gl');
    if (c?.type !== 'INSURANCE_CERTIFICATE') throw new Error('fixture');
    return c;
  };
  const withGl = (change: Partial<InsuranceCertificate>) => {
    const { w } = cleanWorld();
    Object.assign(gl(w), change);
    return findingsFor(w, 'INSURANCE_EXPIRY');
  };

  it('blocks a required coverage the GC holds no certificate for', () => {
    const found = findingsFor(without(cleanWorld().w, 'COI-gl'), 'INSURANCE_EXPIRY');
    expect(found.map((f) => [f.severity, f.draw_id, f.entity_id])).to.deep.equal([['BLOCKING', null, GC]]);
    expect(found[0]!.detail).to.contain('No GL certificate');
  });

  it("does not count another party's certificate", () => {
    expect(severities(withGl({ insured: OWNER }))).to.deep.equal(['BLOCKING']);
  });

  it('blocks a limit one cent below the requirement and accepts it equal', () => {
    expect(withGl({ limit: 100_000_000 })).to.deep.equal([]);
    const found = withGl({ limit: 99_999_999 });
    expect(severities(found)).to.deep.equal(['BLOCKING']);
    expect(found[0]!.detail).to.contain('below the required');
  });

  it('blocks cover that expired yesterday and warns on cover ending today', () => {
    expect(withGl({ expires_on: '2026-04-14' })[0]!.detail).to.contain('expired 2026-04-14');
    expect(severities(withGl({ expires_on: '2026-04-15' }))).to.deep.equal(['WARNING']);
  });

  it('warns 30 days before expiry and not 31', () => {
    expect(severities(withGl({ expires_on: '2026-05-15' }))).to.deep.equal(['WARNING']);
    expect(withGl({ expires_on: '2026-05-16' })).to.deep.equal([]);
  });

  it('blocks a certificate that is not yet in force', () => {
    expect(withGl({ effective_on: '2026-04-16' })[0]!.detail).to.contain('not yet in force');
  });

  it('counts a renewal on file that starts the day after, not one that leaves a gap', () => {
    const renewed = (effective_on: string) => {
      const { w } = cleanWorld();
      gl(w).expires_on = '2026-05-01';
      w.certificate({ id: 'COI-gl2', coverage_type: 'GL', effective_on, expires_on: '2027-05-01' });
      return findingsFor(w, 'INSURANCE_EXPIRY');
    };
    expect(renewed('2026-05-02')).to.deep.equal([]);
    expect(severities(renewed('2026-05-03'))).to.deep.equal(['WARNING']);
  });
});

describe('WAIVER_SEQUENCE (DOMAIN §3)', () => {
  it('warns on an unconditional waiver signed the day before its payment was funded', () => {
    // application 1 was funded 2026-03-10
    const { w, unconditional1 } = cleanWorld();
    unconditional1.signed_on = '2026-03-09';
    const found = findingsFor(w, 'WAIVER_SEQUENCE');
    expect(found.map((f) => [f.severity, f.draw_id, f.entity_id])).to.deep.equal([['WARNING', 'DRW-1', GC]]);
  });

  it('accepts signing on the funding day', () => {
    const { w, unconditional1 } = cleanWorld();
    unconditional1.signed_on = '2026-03-10';
    expect(findingsFor(w, 'WAIVER_SEQUENCE')).to.deep.equal([]);
  });

  it('warns on a signed unconditional waiver for a draw not yet funded', () => {
    const { w, d2 } = cleanWorld();
    w.waiver({
      id: 'WAIV-u2',
      draw_id: d2.id,
      waiver_type: 'UNCONDITIONAL_PROGRESS',
      amount: 1,
      signed_on: '2026-04-04',
    });
    const found = findingsFor(w, 'WAIVER_SEQUENCE');
    expect(found.map((f) => f.draw_id)).to.deep.equal(['DRW-2']);
    expect(found[0]!.detail).to.contain('not yet funded');
  });

  it('warns on a through date one day before the period end it releases, not on the day', () => {
    const { w, unconditional1 } = cleanWorld();
    unconditional1.through_date = '2026-02-27';
    expect(severities(findingsFor(w, 'WAIVER_SEQUENCE'))).to.deep.equal(['WARNING']);
    unconditional1.through_date = '2026-02-28';
    expect(findingsFor(w, 'WAIVER_SEQUENCE')).to.deep.equal([]);
  });
});

describe('INSPECTION_FRESHNESS (DOMAIN §3)', () => {
  it('blocks a draw under review with no inspection', () => {
    const found = findingsFor(without(cleanWorld().w, 'INSP-2'), 'INSPECTION_FRESHNESS');
    expect(found.map((f) => [f.severity, f.draw_id, f.curable_by_documents])).to.deep.equal([
      ['BLOCKING', 'DRW-2', true],
    ]);
  });

  it('blocks when the only inspection predates the period end', () => {
    const { w, inspection2 } = cleanWorld();
    inspection2.inspected_on = '2026-03-30';
    expect(severities(findingsFor(w, 'INSPECTION_FRESHNESS'))).to.deep.equal(['BLOCKING']);
  });

  it('counts a site inspection after the period end', () => {
    const { w, inspection2 } = cleanWorld();
    inspection2.draw_id = null;
    expect(findingsFor(w, 'INSPECTION_FRESHNESS')).to.deep.equal([]);
  });

  it('accepts an inspection 30 days old and warns at 31', () => {
    // the inspection is dated 2026-04-01
    const { w } = cleanWorld();
    expect(findingsFor(w, 'INSPECTION_FRESHNESS', on('2026-05-01'))).to.deep.equal([]);
    const found = findingsFor(w, 'INSPECTION_FRESHNESS', on('2026-05-02'));
    expect(severities(found)).to.deep.equal(['WARNING']);
    expect(found[0]!.detail).to.contain('31 days old');
  });

  it('does not examine a funded draw', () => {
    // application 1 is funded and its inspection is 45 days old on NOW
    const { w, d2 } = cleanWorld();
    d2.status = 'FUNDED';
    expect(findingsFor(w, 'INSPECTION_FRESHNESS', on('2026-09-01'))).to.deep.equal([]);
  });
});

describe('TITLE_DATE_DOWN (DOMAIN §3)', () => {
  it('blocks a draw under review with no date-down since its submission', () => {
    // TTL-1 (2026-03-05) predates application 2's submission on 2026-04-03
    const found = findingsFor(without(cleanWorld().w, 'TTL-2'), 'TITLE_DATE_DOWN');
    expect(found.map((f) => [f.severity, f.draw_id])).to.deep.equal([['BLOCKING', 'DRW-2']]);
  });

  it('counts a date-down effective on the submission day, not the day before', () => {
    const { w, title2 } = cleanWorld();
    title2.effective_on = '2026-04-03';
    expect(findingsFor(w, 'TITLE_DATE_DOWN', on('2026-04-10'))).to.deep.equal([]);
    title2.effective_on = '2026-04-02';
    expect(severities(findingsFor(w, 'TITLE_DATE_DOWN', on('2026-04-10')))).to.deep.equal(['BLOCKING']);
  });

  it('accepts a date-down 10 days old and warns at 11', () => {
    // TTL-2 is effective 2026-04-10
    const { w } = cleanWorld();
    expect(findingsFor(w, 'TITLE_DATE_DOWN', on('2026-04-20'))).to.deep.equal([]);
    expect(severities(findingsFor(w, 'TITLE_DATE_DOWN', on('2026-04-21')))).to.deep.equal(['WARNING']);
  });

  it('blocks a date-down with new liens until a newer clean one supersedes it', () => {
    const { w, title2 } = cleanWorld();
    title2.new_liens = [
      { claimant_name: 'Acme Drywall', claimant: null, amount: 1_250_000, recorded_on: '2026-04-08' },
    ];
    const found = findingsFor(w, 'TITLE_DATE_DOWN');
    expect(found.map((f) => [f.severity, f.curable_by_documents])).to.deep.equal([['BLOCKING', false]]);
    expect(found[0]!.detail).to.contain('Acme Drywall $12,500.00');
    w.titleDateDown({ id: 'TTL-3', effective_on: '2026-04-14' });
    expect(findingsFor(w, 'TITLE_DATE_DOWN')).to.deep.equal([]);
  });
});
