/**
 * The factor table: every factor a dimension score is made of, with its STABLE reason code, the
 * sentence a report prints, the action that removes it (credit improvement, DOMAIN §6) and how its
 * signals turn into a penalty. Codes never change meaning; a new factor gets a new code.
 *
 * Penalty kinds (a dimension scores 100 − Σ penalties of its factors, clamped to 0–100):
 * - `share`:  max_penalty × recency-weighted mean of the signals' adverse share (0–1). Good
 *             observations (share 0) dilute bad ones, so the factor is a rate, fair to large firms.
 * - `points`: Σ recency weight × points. Events that are adverse in themselves (citations, liens).
 * - `trir`:   max_penalty-capped TRIR_POINTS_PER_UNIT × TRIR over weighted hours and recordables.
 */
import type { FindingCode, Severity } from '../governance/findings.js';
import type { Dimension } from './constants.js';

export const REASON_CODES = [
  'PI01',
  'PI02',
  'PI03',
  'DA01',
  'DA02',
  'DA03',
  'CS01',
  'CS02',
  'CS03',
  'CS04',
  'SR01',
  'SR02',
  'SR03',
  'SP01',
  'SP02',
  'RR01',
  'RR02',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

export type FactorKind =
  { kind: 'share'; max_penalty: number } | { kind: 'points' } | { kind: 'trir'; max_penalty: number };

export interface FactorDefinition {
  code: ReasonCode;
  dimension: Dimension;
  /** What the report prints next to the code. */
  description: string;
  /** What removes the factor (DOMAIN §6 credit improvement). */
  action: string;
  /** Which signals feed it, in words (methodology page). */
  signal: string;
  penalty: FactorKind;
}

/** The full reason-code table, in code order (DOMAIN §5 dimensions and signals). */
export const FACTORS: Readonly<Record<ReasonCode, FactorDefinition>> = {
  PI01: {
    code: 'PI01',
    dimension: 'payment_integrity',
    description: 'Unconditional waivers delivered late or missing',
    action: 'Deliver each unconditional lien waiver within 15 days of the draw being funded',
    signal: 'per funded draw the entity billed on: days from funding to its executed unconditional waiver',
    penalty: { kind: 'share', max_penalty: 40 },
  },
  PI02: {
    code: 'PI02',
    dimension: 'payment_integrity',
    description: 'Lien waivers not matching payments',
    action: 'Issue unconditional waivers for the full amount paid, without exceptions',
    signal: 'per executed unconditional waiver: released less than paid, or carved out exceptions',
    penalty: { kind: 'share', max_penalty: 30 },
  },
  PI03: {
    code: 'PI03',
    dimension: 'payment_integrity',
    description: 'Lien claims recorded on its projects',
    action: 'Pay subcontractors and suppliers so liens are released and none are recorded',
    signal: 'per lien a title date-down finds on a project it is GC of (claimant not itself)',
    penalty: { kind: 'points' },
  },
  DA01: {
    code: 'DA01',
    dimension: 'draw_accuracy',
    description: 'Contradiction findings on its draws',
    action: 'Reconcile the schedule of values, roll-forward and retainage before submitting a draw',
    signal: 'per draw: contradiction findings attributed to it (BLOCKING 1, WARNING 0.3, at most 1)',
    penalty: { kind: 'share', max_penalty: 40 },
  },
  DA02: {
    code: 'DA02',
    dimension: 'draw_accuracy',
    description: 'Claimed progress above inspected progress',
    action: 'Bill percent complete no higher than the inspector will verify',
    signal: 'per inspected draw: the largest claimed H − inspected % over its lines',
    penalty: { kind: 'share', max_penalty: 30 },
  },
  DA03: {
    code: 'DA03',
    dimension: 'draw_accuracy',
    description: 'Invoices billed twice',
    action: 'Bill each vendor invoice in one draw only',
    signal: 'per invoice billed: same vendor and invoice number already billed in an earlier draw',
    penalty: { kind: 'share', max_penalty: 40 },
  },
  CS01: {
    code: 'CS01',
    dimension: 'compliance_standing',
    description: 'Federal contractor registration inactive',
    action: 'Renew the SAM.gov registration',
    signal: 'the contractor registry check: registration active or inactive',
    penalty: { kind: 'points' },
  },
  CS02: {
    code: 'CS02',
    dimension: 'compliance_standing',
    description: 'Active federal exclusion',
    action: 'Resolve the exclusion with the excluding agency',
    signal: 'the contractor registry check: an exclusion active today (also caps the composite at 49)',
    penalty: { kind: 'points' },
  },
  CS03: {
    code: 'CS03',
    dimension: 'compliance_standing',
    description: 'Gaps in required insurance coverage',
    action: 'Keep every required coverage in force at its limit for the whole project',
    signal: 'per project and required coverage: share of the days so far without a valid certificate',
    penalty: { kind: 'share', max_penalty: 40 },
  },
  CS04: {
    code: 'CS04',
    dimension: 'compliance_standing',
    description: 'Temporal governance findings',
    action: 'Keep inspections, title date-downs, change orders and pay periods in sequence',
    signal: 'per temporal finding attributed to it (BLOCKING 10, WARNING 4 points)',
    penalty: { kind: 'points' },
  },
  SR01: {
    code: 'SR01',
    dimension: 'safety_record',
    description: 'OSHA citations',
    action: 'Correct the cited hazards and prevent repeat citations',
    signal: 'per citation: serious 10, willful or repeat 25, other 2 points',
    penalty: { kind: 'points' },
  },
  SR02: {
    code: 'SR02',
    dimension: 'safety_record',
    description: 'Recordable incident rate',
    action: 'Lower the recordable incident rate (TRIR)',
    signal: 'hours worked and incidents: 10 points per TRIR unit, at most 40',
    penalty: { kind: 'trir', max_penalty: 40 },
  },
  SR03: {
    code: 'SR03',
    dimension: 'safety_record',
    description: 'Citation abatements past due',
    action: 'Abate every cited hazard and record the abatement',
    signal: 'per citation still unabated after its abate-by date: 10 points',
    penalty: { kind: 'points' },
  },
  SP01: {
    code: 'SP01',
    dimension: 'schedule_performance',
    description: 'Milestones completed late',
    action: 'Meet milestone dates, or re-baseline the schedule through a change order',
    signal: 'per milestone due or completed: days late, full at 60',
    penalty: { kind: 'share', max_penalty: 40 },
  },
  SP02: {
    code: 'SP02',
    dimension: 'schedule_performance',
    description: 'Work lagging elapsed time',
    action: 'Bring work complete in line with time elapsed on its projects',
    signal: 'per draw: time-elapsed % − work-complete %, full at 30 points',
    penalty: { kind: 'share', max_penalty: 40 },
  },
  RR01: {
    code: 'RR01',
    dimension: 'remediation_responsiveness',
    description: 'Findings left uncured',
    action: 'Cure open governance findings',
    signal: 'per finding attributed to it: still open',
    penalty: { kind: 'share', max_penalty: 50 },
  },
  RR02: {
    code: 'RR02',
    dimension: 'remediation_responsiveness',
    description: 'Findings cured slowly',
    action: 'Cure findings within 14 days',
    signal: 'per cured finding: days to cure beyond 14, full at 60',
    penalty: { kind: 'share', max_penalty: 30 },
  },
};

/** The factors of one dimension, in code order. */
export function factorsOf(dimension: Dimension): FactorDefinition[] {
  return REASON_CODES.map((code) => FACTORS[code]).filter((f) => f.dimension === dimension);
}

/**
 * Findings that flag a condition some factor already measures from the facts themselves. A fact is
 * counted once: these findings feed remediation and the state machine, not their dimension again.
 */
export const MEASURED_FROM_FACTS: readonly {
  code: FindingCode;
  severity: Severity | 'ANY';
  by: readonly ReasonCode[];
}[] = [
  { code: 'INSPECTION_VARIANCE', severity: 'ANY', by: ['DA02'] },
  { code: 'LIEN_WAIVER_MISMATCH', severity: 'ANY', by: ['PI01', 'PI02'] },
  { code: 'DUPLICATE_OR_UNSUPPORTED_COST', severity: 'BLOCKING', by: ['DA03'] },
  { code: 'INSURANCE_EXPIRY', severity: 'ANY', by: ['CS03'] },
];

/** Whether a finding's condition is measured from facts by another factor (see MEASURED_FROM_FACTS). */
export function measuredFromFacts(finding: { code: FindingCode; severity: Severity }): boolean {
  return MEASURED_FROM_FACTS.some(
    (m) => m.code === finding.code && (m.severity === 'ANY' || m.severity === finding.severity),
  );
}
