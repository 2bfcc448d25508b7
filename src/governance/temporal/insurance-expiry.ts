/**
 * INSURANCE_EXPIRY (DOMAIN §3): a required coverage (the project's `required_coverages`, held by
 * the GC) missing, below its limit or expired on `now` → BLOCKING; expiring within 30 days →
 * WARNING.
 *
 * Interpretations:
 * - Project level (no draw). One finding per required coverage type (subject `coverage:<type>`),
 *   whose severity follows the coverage's state; attributed to the GC as the insured.
 * - A certificate is in force from `effective_on` through `expires_on` inclusive, so one expiring
 *   today is still in force (0 days left → WARNING) and one expired yesterday is BLOCKING. A
 *   certificate not yet effective does not cover today.
 * - Each certificate must meet the limit on its own (no stacking). Renewals on file count: cover
 *   runs through the last expiry reachable by certificates each effective no later than the day
 *   after the previous one ends, so a renewal already delivered removes the WARNING.
 * - "within 30 days": 30 days left fires, 31 does not. Curable by documents (a certificate).
 * - `additional_insured` is not part of §3's condition and is not checked here.
 */
import type { InsuranceCertificate, IsoDate, RequiredCoverage } from '../../projects/facts.js';
import type { FindingDraft, Severity } from '../findings.js';
import { INSURANCE_EXPIRY_WARNING_DAYS } from '../constants.js';
import { isoDate } from '../../platform/clock.js';
import type { ScanEngine, ScanInput } from '../scan-input.js';
import { documentEvidence, documentsOfType, findingsOf, projectEvidence } from '../scan-input.js';
import { addDays, daysBetween, usd } from '../units.js';

export const insuranceExpiry: ScanEngine = (input, now) => {
  const today = isoDate(now);
  return findingsOf(
    input,
    now,
    input.project.required_coverages.map((c) => coverageDraft(input, c, today)),
  );
};

/** The last day `certs` cover without a gap starting today, or null when nothing covers today. */
export function coveredThrough(certs: readonly InsuranceCertificate[], today: IsoDate): IsoDate | null {
  let through: IsoDate | null = null;
  for (const c of certs) {
    if (c.effective_on <= today && c.expires_on >= today && (through === null || c.expires_on > through)) {
      through = c.expires_on;
    }
  }
  if (through === null) return null;
  for (let extended = true; extended;) {
    extended = false;
    for (const c of certs) {
      if (c.effective_on <= addDays(through, 1) && c.expires_on > through) {
        through = c.expires_on;
        extended = true;
      }
    }
  }
  return through;
}

function coverageDraft(input: ScanInput, required: RequiredCoverage, today: IsoDate): FindingDraft | null {
  const gc = input.project.general_contractor;
  const certs = documentsOfType(input, 'INSURANCE_CERTIFICATE').filter(
    (c) => c.insured === gc && c.coverage_type === required.type,
  );
  const through = coveredThrough(
    certs.filter((c) => c.limit >= required.min_limit),
    today,
  );
  if (through === null) {
    const blocking = draft(input, required, certs, 'BLOCKING', blockingReason(certs, required, today));
    // Lapsed cover: the condition arose the day after the last certificate expired.
    const last = certs
      .map((c) => c.expires_on)
      .sort()
      .at(-1);
    return last !== undefined && last < today ? { ...blocking, arose_on: addDays(last, 1) } : blocking;
  }
  const left = daysBetween(today, through);
  if (left > INSURANCE_EXPIRY_WARNING_DAYS) return null;
  return {
    ...draft(input, required, certs, 'WARNING', `${required.type} cover ends ${through} (${left} days).`),
    // Expiring: the condition arose when the cover came within the warning window.
    arose_on: addDays(through, -INSURANCE_EXPIRY_WARNING_DAYS),
  };
}

function blockingReason(
  certs: readonly InsuranceCertificate[],
  required: RequiredCoverage,
  today: IsoDate,
): string {
  if (certs.length === 0) return `No ${required.type} certificate held by the general contractor.`;
  const inForce = certs.filter((c) => c.effective_on <= today && c.expires_on >= today);
  if (inForce.length > 0) {
    const best = Math.max(...inForce.map((c) => c.limit));
    return `${required.type} limit ${usd(best)} is below the required ${usd(required.min_limit)}.`;
  }
  const last =
    certs
      .map((c) => c.expires_on)
      .sort()
      .at(-1) ?? '';
  return last < today
    ? `${required.type} cover expired ${last}.`
    : `${required.type} cover is not yet in force on ${today}.`;
}

function draft(
  input: ScanInput,
  required: RequiredCoverage,
  certs: readonly InsuranceCertificate[],
  severity: Severity,
  detail: string,
): FindingDraft {
  return {
    code: 'INSURANCE_EXPIRY',
    severity,
    draw_id: null,
    entity_id: input.project.general_contractor,
    subject: `coverage:${required.type}`,
    title:
      severity === 'BLOCKING'
        ? `Required ${required.type} coverage not in force`
        : `Required ${required.type} coverage expires within ${INSURANCE_EXPIRY_WARNING_DAYS} days`,
    detail,
    evidence: [projectEvidence(input.project), ...certs.map(documentEvidence)],
    curable_by_documents: true,
  };
}
