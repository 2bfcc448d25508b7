/**
 * The governance finding vocabulary (DOMAIN §2 contradictions, §3 temporal rules). Scans, the
 * governance projection, credit scoring (§5) and the compile/payment engines (§9–§10) all speak it.
 */
import { derivedEventId, idFromUuid } from '../platform/ids.js';

export type Severity = 'WARNING' | 'BLOCKING';

/** DOMAIN §2: contradictions between facts. */
export const CONTRADICTION_CODES = [
  'CONTRACT_SUM_MISMATCH',
  'ROLL_FORWARD_MISMATCH',
  'INSPECTION_VARIANCE',
  'LIEN_WAIVER_MISMATCH',
  'DUPLICATE_OR_UNSUPPORTED_COST',
  'RETAINAGE_MISCALCULATED',
  'STORED_MATERIALS_UNSUPPORTED',
] as const;

/** DOMAIN §3: rules about dates and order. */
export const TEMPORAL_CODES = [
  'INSURANCE_EXPIRY',
  'WAIVER_SEQUENCE',
  'INSPECTION_FRESHNESS',
  'TITLE_DATE_DOWN',
  'CHANGE_ORDER_PRECEDENCE',
  'PAY_PERIOD_SEQUENCE',
] as const;

export type ContradictionCode = (typeof CONTRADICTION_CODES)[number];
export type TemporalCode = (typeof TEMPORAL_CODES)[number];
export type FindingCode = ContradictionCode | TemporalCode;

/** A fact a finding rests on. kind: 'draw' | 'document' | 'change_order' | 'project' | 'entity' | 'sov_line' … */
export interface Evidence {
  kind: string;
  id: string;
}

export interface Finding {
  /**
   * 'FND-' + idFromUuid of derivedEventId(`${project_id}|${code}|${draw_id ?? '-'}|${subject}`):
   * stable across re-scans so the open → resolved lifecycle can match findings.
   */
  id: string;
  code: FindingCode;
  category: 'contradiction' | 'temporal';
  severity: Severity;
  project_id: string;
  draw_id: string | null;
  /**
   * The entity the finding is attributed to: the GC for draw-level issues, the claimant for
   * waivers, the vendor for invoices, the insured for certificates.
   */
  entity_id: string | null;
  title: string;
  detail: string;
  evidence: Evidence[];
  /** YYYY-MM-DD */
  detected_on: string;
  /**
   * The date its condition arose (issue 14): the newest fact it rests on, or the day time brought
   * the condition on (a coverage expiring, an inspection going stale); never after `detected_on`.
   * A finding opens on this date, not on the day someone scanned.
   */
  arose_on: string;
  /** Whether a document can cure it (DOMAIN §9 HOLD vs NOT_FUNDABLE, §10 DELAY). */
  curable_by_documents: boolean;
}

/** A finding as the governance projection tracks it over its life. */
/**
 * What an explicit resolution resolved: the finding's severity and the facts it rested on when the
 * lender resolved it. Both are absent on resolutions recorded before they were kept.
 */
export interface ResolvedAs {
  severity?: Severity | undefined;
  evidence?: readonly Evidence[] | undefined;
}

/**
 * Whether an explicit resolution still leaves the finding out of the open set (DOMAIN §2 "or by an
 * explicit resolution"). It covers the finding as it was resolved: found no graver, on no fact the
 * resolver did not see. The id is stable across re-scans, so without this a WARNING resolved once
 * (a 6-point inspection variance, a policy about to expire) silenced the same finding for good —
 * found BLOCKING on a later inspection at 23 points, or on the policy's lapse — and the draw was
 * paid in full as FUNDABLE. A resolution recorded before severity and evidence were kept covers
 * its finding as it always did.
 */
export function resolutionCovers(
  resolution: ResolvedAs | undefined,
  finding: { severity: Severity; evidence: readonly Evidence[] },
): boolean {
  if (resolution === undefined) return false;
  if (resolution.severity === 'WARNING' && finding.severity === 'BLOCKING') return false;
  if (resolution.evidence === undefined) return true;
  const seen = new Set(resolution.evidence.map((e) => `${e.kind}:${e.id}`));
  return finding.evidence.every((e) => seen.has(`${e.kind}:${e.id}`));
}

export interface FindingRecord extends Finding {
  org_id: string;
  status: 'OPEN' | 'RESOLVED';
  opened_on: string;
  opened_seq: number;
  resolved_on: string | null;
  resolved_seq: number | null;
  resolved_by: 'rescan' | 'resolution' | null;
  last_scan_id: string;
}

export interface ScanResult {
  project_id: string;
  scan_verdict: 'CLEAN' | 'WARNING' | 'BLOCKED';
  contradictions: Finding[];
  temporal: Finding[];
}

/** Whether a code is one of the §2 contradictions or one of the §3 temporal rules. */
export function categoryOf(code: FindingCode): Finding['category'] {
  return (CONTRADICTION_CODES as readonly string[]).includes(code) ? 'contradiction' : 'temporal';
}

/**
 * The finding id: a function of what was found (project, code, draw, and the rule's subject such
 * as a line, a document or a coverage), never of when, so every re-scan that still finds the
 * condition names the same finding and the lifecycle can match it.
 */
export function findingId(
  project_id: string,
  code: FindingCode,
  draw_id: string | null,
  subject: string,
): string {
  return idFromUuid('FND-', derivedEventId(`${project_id}|${code}|${draw_id ?? '-'}|${subject}`));
}

/** What an engine states about one finding; id, category and project come from the context. */
export interface FindingDraft {
  code: FindingCode;
  severity: Severity;
  draw_id: string | null;
  entity_id: string | null;
  /** What distinguishes this finding from others of the same code and draw (part of the id). */
  subject: string;
  title: string;
  detail: string;
  evidence: Evidence[];
  curable_by_documents: boolean;
  /** For a condition time brings on: the day it came on (else the newest evidence fact's date). */
  arose_on?: string;
}

/** Builds a finding of `project_id` detected on `detected_on` (YYYY-MM-DD). */
export function toFinding(
  project_id: string,
  detected_on: string,
  draft: FindingDraft,
  evidence_on: string | null = null,
): Finding {
  const arose = draft.arose_on ?? evidence_on ?? detected_on;
  return {
    id: findingId(project_id, draft.code, draft.draw_id, draft.subject),
    code: draft.code,
    category: categoryOf(draft.code),
    severity: draft.severity,
    project_id,
    draw_id: draft.draw_id,
    entity_id: draft.entity_id,
    title: draft.title,
    detail: draft.detail,
    evidence: draft.evidence,
    detected_on,
    arose_on: arose < detected_on ? arose : detected_on,
    curable_by_documents: draft.curable_by_documents,
  };
}
