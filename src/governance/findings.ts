/**
 * The governance finding vocabulary (DOMAIN §2 contradictions, §3 temporal rules). Scans, the
 * governance projection, credit scoring (§5) and the compile/payment engines (§9–§10) all speak it.
 */

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
  /** Whether a document can cure it (DOMAIN §9 HOLD vs NOT_FUNDABLE, §10 DELAY). */
  curable_by_documents: boolean;
}

/** A finding as the governance projection tracks it over its life. */
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
