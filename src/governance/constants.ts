/**
 * Every threshold the governance kernel applies (DOMAIN §2 contradictions, §3 temporal rules,
 * §4 capital adequacy), named so the methodology page can print them and tests can pin their
 * boundaries. Percentages are numbers 0–100, money integer cents, ages whole days.
 */

// ---------------------------------------------------------------------------------------------
// Grades (DOMAIN preamble: "Grades everywhere")
// ---------------------------------------------------------------------------------------------

export type Grade = 'A' | 'B' | 'C' | 'D' | 'F';

/** Lowest score of each grade, best first (DOMAIN preamble: A ≥ 90, B ≥ 80, C ≥ 65, D ≥ 50, F < 50). */
export const GRADE_FLOORS: readonly (readonly [Grade, number])[] = [
  ['A', 90],
  ['B', 80],
  ['C', 65],
  ['D', 50],
];

/** The grade of a 0–100 score; shared by adequacy, certification and credit. */
export function gradeFor(score: number): Grade {
  for (const [grade, floor] of GRADE_FLOORS) if (score >= floor) return grade;
  return 'F';
}

// ---------------------------------------------------------------------------------------------
// §2 contradictions
// ---------------------------------------------------------------------------------------------

/** Claimed H − inspected % strictly above this → WARNING (DOMAIN §2 INSPECTION_VARIANCE "> 5 points"). */
export const INSPECTION_VARIANCE_WARNING_POINTS = 5;
/** Claimed H − inspected % strictly above this → BLOCKING (DOMAIN §2 INSPECTION_VARIANCE "> 10 points"). */
export const INSPECTION_VARIANCE_BLOCKING_POINTS = 10;

/** Σ invoices below this share of the amount requested → WARNING (DOMAIN §2 DUPLICATE_OR_UNSUPPORTED_COST). */
export const INVOICE_SUPPORT_MIN_PCT = 90;

/** Withheld vs expected retainage may differ by up to this (DOMAIN §2 RETAINAGE_MISCALCULATED "within $1"). */
export const RETAINAGE_TOLERANCE_CENTS = 100;
/** Retainage may be released only at or above this percent complete (DOMAIN §2 RETAINAGE_MISCALCULATED). */
export const RETAINAGE_RELEASE_MIN_PCT = 95;

/**
 * Percent complete at which a project counts as substantially complete for final lien waivers
 * (DOMAIN §2 LIEN_WAIVER_MISMATCH). DOMAIN does not define substantial completion; this reuses
 * the §2 retainage-release threshold, the only completion threshold DOMAIN names.
 */
export const SUBSTANTIAL_COMPLETION_PCT = RETAINAGE_RELEASE_MIN_PCT;
/** A project milestone with this name (case-insensitive) also marks substantial completion. */
export const SUBSTANTIAL_COMPLETION_MILESTONE = 'substantial completion';

// ---------------------------------------------------------------------------------------------
// §3 temporal rules
// ---------------------------------------------------------------------------------------------

/** A required coverage expiring within this many days → WARNING (DOMAIN §3 INSURANCE_EXPIRY). */
export const INSURANCE_EXPIRY_WARNING_DAYS = 30;
/** An inspection older than this many days on `now` → WARNING (DOMAIN §3 INSPECTION_FRESHNESS). */
export const INSPECTION_MAX_AGE_DAYS = 30;
/** A title date-down older than this many days on `now` → WARNING (DOMAIN §3 TITLE_DATE_DOWN). */
export const TITLE_DATE_DOWN_MAX_AGE_DAYS = 10;
/** Change orders of at least this amount need lender approval before billing (DOMAIN §3 CHANGE_ORDER_PRECEDENCE, $50,000). */
export const CO_LENDER_APPROVAL_THRESHOLD_CENTS = 5_000_000;

// ---------------------------------------------------------------------------------------------
// §4 capital adequacy
// ---------------------------------------------------------------------------------------------

/** lender: undisbursed ÷ cost to complete at or above this → 100 (DOMAIN §4). */
export const LENDER_FULL_RATIO = 1.0;
/** lender: … linear down to 0 at this ratio (DOMAIN §4). */
export const LENDER_ZERO_RATIO = 0.5;
/** lender: points taken off when the project is out of balance (DOMAIN §4). */
export const LENDER_OUT_OF_BALANCE_PENALTY = 20;

/** project: points per point of schedule lag, time elapsed % − work complete % (DOMAIN §4). */
export const PROJECT_PACE_LAG_WEIGHT = 2;
/** project: points per percent of budget overrun (DOMAIN §4). */
export const PROJECT_OVERRUN_WEIGHT = 1;

/** cashflow: sources ÷ uses at or above this → 100 (DOMAIN §4). */
export const CASHFLOW_FULL_RATIO = 1.05;
/** cashflow: … at or below this → 0, linear between (DOMAIN §4). */
export const CASHFLOW_ZERO_RATIO = 0.85;
/** The in-balance test passes when sources ÷ uses is at least this (sources cover uses). */
export const IN_BALANCE_MIN_RATIO = 1.0;

/** compliance: points per open BLOCKING finding (DOMAIN §4). */
export const COMPLIANCE_BLOCKING_PENALTY = 25;
/** compliance: points per open WARNING finding (DOMAIN §4). */
export const COMPLIANCE_WARNING_PENALTY = 8;

/**
 * Score used for the contractor and risk members when their capability has no score to give
 * (credit has not scored the GC, no rail composite): DOMAIN §5's neutral prior for a dimension
 * without enough data.
 */
export const NEUTRAL_PRIOR_SCORE = 70;

/** Weights of the overall adequacy score, in percent; they sum to 100 (DOMAIN §4). */
export const ADEQUACY_WEIGHTS_PCT = {
  lender: 20,
  contractor: 20,
  project: 15,
  cashflow: 20,
  compliance: 15,
  risk: 10,
} as const;
