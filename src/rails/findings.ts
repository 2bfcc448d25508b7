/**
 * The rail finding vocabulary (DOMAIN §8, SPEC §7): every code, the severities it may carry and
 * the score penalty of each. One table so the methodology page can print exactly what scores.
 */
import type { EntityId, IsoDate } from '../projects/facts.js';

/**
 * The score of a rail that holds none of the facts it reads. DOMAIN §8 gives no figure; it must
 * sit in the ELEVATED band (§8: 50–79) so no data never reads as NOMINAL, yet above 50 because an
 * absence is not a CRITICAL finding. 60 = 100 − the `INSUFFICIENT_DATA` penalty below.
 */
export const RAIL_NO_EVIDENCE_SCORE = 60;

/** SPEC §7 finding severities. */
export type Severity = 'INFO' | 'WARNING' | 'CRITICAL';

/**
 * Penalty per finding code and severity (DOMAIN §8: score = 100 − Σ penalties). The severity a
 * code may carry is the set of keys of its entry; CRITICAL is kept for conditions under which a
 * lender should stop funding (they also fail the construction "no CRITICAL rail" gate, §12).
 */
export const FINDING_PENALTIES = {
  // Any rail holding none of the facts it reads (issue 14: missing evidence is itself a risk)
  INSUFFICIENT_DATA: { WARNING: 40 },
  // SYSTEM_RISK
  SYSTEM_RAIL_STALE: { WARNING: 5 },
  // WORKFORCE
  WORKFORCE_PAYROLL_MISSING: { WARNING: 10 },
  WORKFORCE_WAGE_VIOLATION: { WARNING: 20 },
  WORKFORCE_HEADCOUNT_SWING: { WARNING: 10 },
  // SCHEDULE
  SCHEDULE_SLIPPAGE: { WARNING: 15 },
  SCHEDULE_PACE_LAG: { WARNING: 15 },
  SCHEDULE_OVERDUE: { CRITICAL: 30 },
  // SAFETY: serious → WARNING; willful/repeat → CRITICAL while unabated, WARNING once abated
  SAFETY_SERIOUS_CITATION: { WARNING: 15, CRITICAL: 30 },
  SAFETY_ABATEMENT_PAST_DUE: { WARNING: 15 },
  SAFETY_TRIR_HIGH: { WARNING: 15 },
  // INSURANCE: missing, expired, under-limit mirror DOMAIN §3 INSURANCE_EXPIRY's BLOCKING cases
  INSURANCE_MISSING: { CRITICAL: 30 },
  INSURANCE_EXPIRED: { CRITICAL: 30 },
  INSURANCE_LIMIT_LOW: { CRITICAL: 25 },
  INSURANCE_EXPIRING: { WARNING: 10 },
  // ENVIRONMENTAL
  ENV_OVER_BUDGET: { WARNING: 10 },
  ENV_VIOLATION_OPEN: { WARNING: 20 },
  // PROCUREMENT: billed stored materials a delivery record contradicts → CRITICAL; no record → WARNING
  PROCUREMENT_LATE_CRITICAL: { WARNING: 15 },
  PROCUREMENT_UNDELIVERED_STORED: { WARNING: 15, CRITICAL: 30 },
  // EQUIPMENT
  EQUIPMENT_MAINTENANCE_OVERDUE: { WARNING: 10 },
  EQUIPMENT_FAILURE_RISK: { WARNING: 20 },
  EQUIPMENT_LOW_UTILIZATION: { INFO: 2 },
  // WEATHER
  WEATHER_LOST_DAYS: { WARNING: 10 },
  WEATHER_HEAT: { WARNING: 10 },
  WEATHER_COLD_POUR: { WARNING: 15 },
  // COUNTERPARTY
  COUNTERPARTY_GC_CONCENTRATION: { WARNING: 15 },
  COUNTERPARTY_HHI: { WARNING: 10 },
  COUNTERPARTY_DISTRESSED_GC: { CRITICAL: 30 },
  // MARKET
  MARKET_CO_VELOCITY: { WARNING: 15 },
  MARKET_COST_ESCALATION: { WARNING: 10 },
} as const satisfies Record<string, Partial<Record<Severity, number>>>;

export type FindingCode = keyof typeof FINDING_PENALTIES;
export const FINDING_CODES = Object.keys(FINDING_PENALTIES) as FindingCode[];

/** The severities `code` may carry. */
export type SeverityOf<C extends FindingCode> = Extract<keyof (typeof FINDING_PENALTIES)[C], Severity>;

/** What a finding rests on; `id` is the fact's id (a rail name for `rail`, a seq for `ledger`). */
export type EvidenceKind =
  'project' | 'draw' | 'change_order' | 'document' | 'observation' | 'entity' | 'ledger' | 'rail';

export interface Evidence {
  kind: EvidenceKind;
  id: string;
}

/** A rail finding, exactly the SPEC §7 shape. */
export interface RailFinding {
  code: FindingCode;
  severity: Severity;
  project_id: string | null;
  entity_id: EntityId | null;
  title: string;
  detail: string;
  evidence: Evidence[];
  /**
   * The day the condition was observed: the date of the latest fact it rests on, or the
   * evaluation day when the condition exists only because time passed (expired, overdue, stale).
   */
  observed_on: IsoDate;
}

export type FindingFields = Omit<RailFinding, 'code' | 'severity'>;

/** Builds a finding; the type system only accepts a severity the code's penalty table lists. */
export function finding<C extends FindingCode>(
  code: C,
  severity: SeverityOf<C>,
  fields: FindingFields,
): RailFinding {
  return { code, severity, ...fields };
}

/** The score penalty of one finding (FINDING_PENALTIES). */
export function penaltyOf(f: Pick<RailFinding, 'code' | 'severity'>): number {
  const bySeverity: Partial<Record<Severity, number>> = FINDING_PENALTIES[f.code];
  const penalty = bySeverity[f.severity];
  // Only reachable by a hand-built finding that bypassed `finding()`: fail loudly, never score 0.
  if (penalty === undefined) throw new TypeError(`${f.code} has no ${f.severity} penalty`);
  return penalty;
}
