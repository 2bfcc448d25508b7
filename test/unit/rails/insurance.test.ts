import { expect } from 'chai';
import { coveredThrough, INSURANCE_EXPIRING_DAYS, INSURANCE_RAIL } from '../../../src/rails/insurance.js';
import { certificate, facts, GC, NOW, OTHER_GC, project, railTable, TODAY } from './builders.js';

/** The project requires GL of at least $1,000,000 from its GC. */
const insured = project({ required_coverages: [{ type: 'GL', min_limit: 100_000_000 }] });
const withCerts = (...documents: ReturnType<typeof certificate>[]) =>
  facts({ projects: [insured], documents });

describe('INSURANCE rail (DOMAIN §8)', () => {
  it('uses the documented threshold', () => expect(INSURANCE_EXPIRING_DAYS).to.equal(30));

  railTable(INSURANCE_RAIL, [
    {
      given: 'the GC holds GL in force all year above the required limit',
      facts: withCerts(certificate('COI-1')),
      codes: [],
      posture: 'NOMINAL',
    },
    {
      given: 'no project requires any coverage and no certificate is held (no evidence)',
      facts: facts(),
      codes: ['INSUFFICIENT_DATA'],
      posture: 'ELEVATED',
    },
    {
      given: 'no GL certificate at all',
      facts: withCerts(),
      codes: ['INSURANCE_MISSING'],
      posture: 'CRITICAL',
    },
    {
      given: 'a GL certificate held by someone other than the GC',
      facts: withCerts(certificate('COI-1', { insured: OTHER_GC })),
      codes: ['INSURANCE_MISSING'],
    },
    {
      given: 'only a builders-risk certificate',
      facts: withCerts(certificate('COI-1', { coverage_type: 'BUILDERS_RISK' })),
      codes: ['INSURANCE_MISSING'],
    },
    {
      given: 'a GL certificate that only starts next month',
      facts: withCerts(certificate('COI-1', { effective_on: '2026-07-01' })),
      codes: ['INSURANCE_MISSING'],
    },
    {
      given: 'GL that expired yesterday',
      facts: withCerts(certificate('COI-1', { expires_on: '2026-06-14' })),
      codes: ['INSURANCE_EXPIRED'],
      severities: ['CRITICAL'],
      posture: 'CRITICAL',
    },
    {
      given: 'GL expiring today (still in force, 0 days left)',
      facts: withCerts(certificate('COI-1', { expires_on: TODAY })),
      codes: ['INSURANCE_EXPIRING'],
    },
    {
      given: 'GL expiring in 30 days (just inside the window)',
      facts: withCerts(certificate('COI-1', { expires_on: '2026-07-15' })),
      codes: ['INSURANCE_EXPIRING'],
      posture: 'NOMINAL',
    },
    {
      given: 'GL expiring in 31 days (just outside)',
      facts: withCerts(certificate('COI-1', { expires_on: '2026-07-16' })),
      codes: [],
    },
    {
      given: 'GL expiring in 10 days with the renewal on file from the next day',
      facts: withCerts(
        certificate('COI-1', { expires_on: '2026-06-25' }),
        certificate('COI-2', { effective_on: '2026-06-26', expires_on: '2027-06-25' }),
      ),
      codes: [],
    },
    {
      given: 'GL expiring in 10 days whose renewal from the next day is below the required limit',
      facts: withCerts(
        certificate('COI-1', { expires_on: '2026-06-25' }),
        certificate('COI-2', { effective_on: '2026-06-26', expires_on: '2027-06-25', limit: 50_000_000 }),
      ),
      codes: ['INSURANCE_EXPIRING'],
    },
    {
      given: 'GL at the limit expiring in 10 days beside an under-limit certificate in force all year',
      facts: withCerts(
        certificate('COI-1', { expires_on: '2026-06-25' }),
        certificate('COI-2', { effective_on: '2026-01-01', expires_on: '2027-06-25', limit: 50_000_000 }),
      ),
      codes: ['INSURANCE_EXPIRING'],
    },
    {
      given: 'an in-force limit one cent below the requirement',
      facts: withCerts(certificate('COI-1', { limit: 99_999_999 })),
      codes: ['INSURANCE_LIMIT_LOW'],
      posture: 'CRITICAL',
    },
    {
      given: 'an in-force limit exactly at the requirement',
      facts: withCerts(certificate('COI-1', { limit: 100_000_000 })),
      codes: [],
    },
  ]);

  it('follows renewals to the last day of unbroken coverage', () => {
    const certs = [
      certificate('COI-1', { expires_on: '2026-06-25' }),
      certificate('COI-2', { effective_on: '2026-06-20', expires_on: '2026-09-30' }),
      certificate('COI-3', { effective_on: '2026-10-02', expires_on: '2027-09-30' }),
    ];
    expect(coveredThrough(certs, TODAY)).to.equal('2026-09-30');
    expect(coveredThrough(certs, '2026-10-01')).to.equal(null);
  });

  it('attributes insurance findings to the GC with the project and certificate as evidence', () => {
    const [expired] = INSURANCE_RAIL.evaluate(
      withCerts(certificate('COI-1', { expires_on: '2026-06-14' })),
      NOW,
    ).findings;
    expect(expired?.entity_id).to.equal(GC);
    expect(expired?.evidence).to.deep.equal([
      { kind: 'project', id: insured.id },
      { kind: 'document', id: 'COI-1' },
    ]);
  });
});
