/**
 * INSURANCE rail (DOMAIN §8): the GC's certificates of insurance against each project's required
 * coverages — missing, expired, under the required limit, or running out within 30 days. The
 * same reading as DOMAIN §3 INSURANCE_EXPIRY, so the rail and the draw scan never disagree.
 */
import type { InsuranceCertificate, IsoDate, Project, RequiredCoverage } from '../projects/facts.js';
import { addDays, dayOf, daysBetween, latestOf } from './dates.js';
import { finding, type Evidence, type RailFinding } from './findings.js';
import { RAIL_PATHS, type Rail, type RailFacts } from './rail.js';
import { evaluateWith, type FactCheck } from './coverage.js';

/** DOMAIN §8 / §3: continuous coverage ending within 30 days of today is expiring. */
export const INSURANCE_EXPIRING_DAYS = 30;

/** A certificate covers every day from effective_on through expires_on, both included. */
const coversDay = (c: InsuranceCertificate, day: IsoDate): boolean =>
  c.effective_on <= day && day <= c.expires_on;

/** Last day of unbroken coverage from `today`, following renewals; null when not covered today. */
export function coveredThrough(certs: readonly InsuranceCertificate[], today: IsoDate): IsoDate | null {
  let through: IsoDate | null = null;
  let cursor = today;
  for (;;) {
    const end = latestOf(certs.filter((c) => coversDay(c, cursor)).map((c) => c.expires_on));
    if (end === null || (through !== null && end <= through)) return through;
    through = end;
    cursor = addDays(end, 1);
  }
}

interface Subject {
  project: Project;
  required: RequiredCoverage;
  certs: InsuranceCertificate[];
  today: IsoDate;
}

function evidenceOf(s: Subject, certs: readonly InsuranceCertificate[]): Evidence[] {
  return [
    { kind: 'project', id: s.project.id },
    ...certs.map((c) => ({ kind: 'document' as const, id: c.id })),
  ];
}

function common(s: Subject, certs: readonly InsuranceCertificate[], observed_on: IsoDate) {
  return {
    project_id: s.project.id,
    entity_id: s.project.general_contractor,
    evidence: evidenceOf(s, certs),
    observed_on,
  };
}

function notInForce(s: Subject): RailFinding {
  const { required, certs, today } = s;
  const expired = certs.filter((c) => c.expires_on < today);
  if (expired.length === 0) {
    const detail =
      certs.length === 0
        ? `No ${required.type} certificate held by the GC.`
        : `No ${required.type} certificate in force on ${today}; the earliest starts on ${certs.map((c) => c.effective_on).sort()[0]}.`;
    return finding('INSURANCE_MISSING', 'CRITICAL', {
      ...common(s, certs, today),
      title: `${required.type} coverage missing`,
      detail,
    });
  }
  const lapsedOn = latestOf(expired.map((c) => c.expires_on)) ?? today;
  const detail = `${required.type} coverage expired on ${lapsedOn} and no certificate is in force on ${today}.`;
  return finding('INSURANCE_EXPIRED', 'CRITICAL', {
    ...common(s, expired, today),
    title: `${required.type} coverage expired`,
    detail,
  });
}

function inForceFindings(s: Subject, inForce: readonly InsuranceCertificate[]): RailFinding[] {
  const { required, today } = s;
  const out: RailFinding[] = [];
  const limit = Math.max(...inForce.map((c) => c.limit));
  if (limit < required.min_limit) {
    const recorded = latestOf(inForce.map((c) => c.recorded_at.slice(0, 10))) ?? today;
    const detail = `In-force ${required.type} limit ${(limit / 100).toFixed(2)} USD is below the required ${(required.min_limit / 100).toFixed(2)} USD.`;
    out.push(
      finding('INSURANCE_LIMIT_LOW', 'CRITICAL', {
        ...common(s, inForce, recorded),
        title: `${required.type} limit below requirement`,
        detail,
      }),
    );
  }
  // A renewal below the required limit does not continue the cover (DOMAIN §3 reads only
  // certificates that meet it): while the in-force limit is met, only such certificates extend it.
  const counted = limit < required.min_limit ? s.certs : s.certs.filter((c) => c.limit >= required.min_limit);
  const through = coveredThrough(counted, today) ?? today;
  const left = daysBetween(today, through);
  if (left <= INSURANCE_EXPIRING_DAYS) {
    const detail = `${required.type} coverage runs out on ${through}, in ${left} days, with no renewal at the required limit on file (limit ${INSURANCE_EXPIRING_DAYS} days).`;
    out.push(
      finding('INSURANCE_EXPIRING', 'WARNING', {
        ...common(s, inForce, today),
        title: `${required.type} coverage expiring`,
        detail,
      }),
    );
  }
  return out;
}

function coverageFindings(s: Subject): RailFinding[] {
  const inForce = s.certs.filter((c) => coversDay(c, s.today));
  return inForce.length === 0 ? [notInForce(s)] : inForceFindings(s, inForce);
}

export function insuranceFindings(facts: RailFacts, now: Date): RailFinding[] {
  const today = dayOf(now);
  const certificates = facts.documents.filter(
    (d): d is InsuranceCertificate => d.type === 'INSURANCE_CERTIFICATE',
  );
  return facts.projects.flatMap((project) =>
    project.required_coverages.flatMap((required) => {
      const certs = certificates.filter(
        (c) =>
          c.project_id === project.id &&
          c.insured === project.general_contractor &&
          c.coverage_type === required.type,
      );
      return coverageFindings({ project, required, certs, today });
    }),
  );
}

/** The facts the INSURANCE rail reads (DOMAIN §8 table): none of them → INSUFFICIENT_DATA. */
export const INSURANCE_FACTS: readonly FactCheck[] = [
  {
    name: 'required_coverages',
    present: (facts) => facts.projects.some((p) => p.required_coverages.length > 0),
  },
  {
    name: 'insurance_certificates',
    present: (facts) => facts.documents.some((d) => d.type === 'INSURANCE_CERTIFICATE'),
  },
];

export const INSURANCE_RAIL: Rail = {
  name: 'INSURANCE',
  path: RAIL_PATHS.INSURANCE,
  evaluate: evaluateWith('INSURANCE', INSURANCE_FACTS, insuranceFindings),
};
