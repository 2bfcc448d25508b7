/**
 * Certification terms (DOMAIN §11): the score is the project's adequacy overall, capped at 64 (a
 * D) while any BLOCKING finding is open; valid 90 days; a newer certification of the project
 * supersedes the older one.
 */
import type { IsoDate } from '../projects/facts.js';
import { gradeFor, type Grade } from '../governance/constants.js';
import { addDays } from '../governance/units.js';

/** Highest score a project can be certified at while a BLOCKING finding is open (DOMAIN §11: 64, a D). */
export const CERTIFICATION_BLOCKING_CAP = 64;

/** Days a certification stays valid after its issue date (DOMAIN §11). */
export const CERTIFICATION_VALID_DAYS = 90;

export interface CertificationBasis {
  /** The adequacy overall score, 0–100. */
  adequacy_overall: number;
  /** Open BLOCKING findings of the project. */
  open_blocking: number;
  issued_on: IsoDate;
}

export interface CertificationTerms {
  score: number;
  grade: Grade;
  /** Whether the BLOCKING cap lowered the score. */
  capped: boolean;
  issued_on: IsoDate;
  /** Last day the certification is VALID: issued_on + 90 days, inclusive. */
  valid_until: IsoDate;
}

export function certify(basis: CertificationBasis): CertificationTerms {
  const capped = basis.open_blocking > 0 && basis.adequacy_overall > CERTIFICATION_BLOCKING_CAP;
  const score = capped ? CERTIFICATION_BLOCKING_CAP : basis.adequacy_overall;
  return {
    score,
    grade: gradeFor(score),
    capped,
    issued_on: basis.issued_on,
    valid_until: addDays(basis.issued_on, CERTIFICATION_VALID_DAYS),
  };
}

export type BadgeStatus = 'VALID' | 'EXPIRED' | 'SUPERSEDED';

/**
 * The status a badge shows on `today`. SUPERSEDED wins over EXPIRED: "a newer one exists" is the
 * more useful thing to tell whoever follows an old badge link.
 */
export function badgeStatus(
  cert: { id: string; valid_until: IsoDate },
  latestCertIdForProject: string | null,
  today: IsoDate,
): BadgeStatus {
  if (latestCertIdForProject !== null && latestCertIdForProject !== cert.id) return 'SUPERSEDED';
  return today > cert.valid_until ? 'EXPIRED' : 'VALID';
}

/** SPEC §6 `badge_url`: `{PUBLIC_BASE_URL}/api/certification?action=badge&cert=<id>`. */
export function badgeUrl(publicBaseUrl: string, certId: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/api/certification?action=badge&cert=${encodeURIComponent(certId)}`;
}
