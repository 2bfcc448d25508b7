/**
 * Every number the credit rules use, named once with its DOMAIN source. The methodology page
 * prints these same objects (see `METHODOLOGY`), so the published rules cannot drift from the code.
 * Where DOMAIN names a signal but not a threshold, the constant says so ("Plumbline choice").
 */

/** The six dimensions, in report order (DOMAIN §5 table). */
export const DIMENSIONS = [
  'payment_integrity',
  'draw_accuracy',
  'compliance_standing',
  'safety_record',
  'schedule_performance',
  'remediation_responsiveness',
] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** Composite weights in percent; they sum to 100 (DOMAIN §5 table, "weight" column). */
export const DIMENSION_WEIGHTS: Readonly<Record<Dimension, number>> = {
  payment_integrity: 25,
  draw_accuracy: 20,
  compliance_standing: 15,
  safety_record: 15,
  schedule_performance: 15,
  remediation_responsiveness: 10,
};

/** Signal recency half-life in days: weight = 0.5^(age_days / 180) (DOMAIN §5). */
export const RECENCY_HALF_LIFE_DAYS = 180;

/** A dimension with fewer signals than this is `insufficient_data` (DOMAIN §5). */
export const MIN_SIGNALS_PER_DIMENSION = 3;

/** The neutral prior an insufficient dimension scores (DOMAIN §5). */
export const NEUTRAL_PRIOR_SCORE = 70;

/** An active registry exclusion caps the composite here: F (DOMAIN §5 compliance_standing row). */
export const EXCLUSION_COMPOSITE_CAP = 49;

/** Confidence thresholds (DOMAIN §5 `confidence`). */
export const CONFIDENCE_HIGH_MIN_SIGNALS = 20;
export const CONFIDENCE_HIGH_MIN_PROJECTS = 2;
export const CONFIDENCE_MEDIUM_MIN_SIGNALS = 5;

/** How many reason codes a report carries (DOMAIN §5 "the four factors"). */
export const REASON_CODE_COUNT = 4;

/** Grade floors, best first (DOMAIN preamble: A ≥ 90, B ≥ 80, C ≥ 65, D ≥ 50, F < 50). */
export const GRADE_FLOORS = [
  { grade: 'A', min: 90 },
  { grade: 'B', min: 80 },
  { grade: 'C', min: 65 },
  { grade: 'D', min: 50 },
  { grade: 'F', min: 0 },
] as const;
export type Grade = (typeof GRADE_FLOORS)[number]['grade'];

/** The grade of a 0–100 score (DOMAIN preamble). */
export function gradeFor(score: number): Grade {
  for (const floor of GRADE_FLOORS) if (score >= floor.min) return floor.grade;
  return 'F';
}

// ---------------------------------------------------------------------------------------------
// Signal thresholds. DOMAIN §5 names the signals; where it gives no number, these are Plumbline
// choices anchored on the nearest DOMAIN threshold, and the methodology page prints them.
// ---------------------------------------------------------------------------------------------

/** OSHA citation points per type: serious 10, willful/repeat 25, other 2 (DOMAIN §5 safety_record). */
export const CITATION_POINTS = { S: 10, W: 25, R: 25, O: 2 } as const;

/**
 * Unconditional waiver timeliness (payment_integrity, "days from funding to unconditional
 * waiver"): on time within 15 days of funding, fully late at 60 (Plumbline choice).
 */
export const WAIVER_ON_TIME_DAYS = 15;
export const WAIVER_FULLY_LATE_DAYS = 60;

/** Points per lien claim recorded on a project the entity is GC of (payment_integrity; Plumbline choice). */
export const LIEN_CLAIM_POINTS = 15;

/**
 * How much one contradiction finding counts on a draw: BLOCKING a whole bad draw, WARNING 0.3 of
 * one — the 25 : 8 ratio DOMAIN §4 compliance uses for the same severities.
 */
export const FINDING_SEVERITY_SHARE = { BLOCKING: 1, WARNING: 0.3 } as const;

/**
 * Inspection variance (claimed H − inspected %): no penalty up to 5 points, full at 15 — DOMAIN §2
 * flags > 5 as WARNING and > 10 as BLOCKING, so 10 points is half the factor.
 */
export const INSPECTION_VARIANCE_FREE_POINTS = 5;
export const INSPECTION_VARIANCE_FULL_POINTS = 15;

/** Points per temporal finding attributed to the entity (compliance_standing; Plumbline choice). */
export const TEMPORAL_FINDING_POINTS = { BLOCKING: 10, WARNING: 4 } as const;

/** Points for an inactive federal registration, and for an active exclusion (compliance_standing). */
export const REGISTRATION_INACTIVE_POINTS = 20;
export const EXCLUSION_POINTS = 100;

/**
 * Incident rate: TRIR = recordables × 200,000 / hours (DOMAIN §8 SAFETY). Hours below 200,000 are
 * counted as 200,000 so one incident on a small job is not a rate of 50; each TRIR point costs 10.
 */
export const TRIR_HOURS_BASE = 200_000;
export const TRIR_POINTS_PER_UNIT = 10;

/** Points per citation whose abatement is past due and still open (safety_record; Plumbline choice). */
export const OPEN_ABATEMENT_POINTS = 10;

/** Milestone slippage: full penalty at 60 days late; DOMAIN §8 flags > 30 days, half the factor. */
export const MILESTONE_FULL_SLIP_DAYS = 60;

/** Pace lag (time-elapsed % − work-complete %): full penalty at 30 points; §8 flags > 15, half. */
export const PACE_LAG_FULL_POINTS = 30;

/** Cure time: cures within 14 days are on time (§5 RESPONSIVE), a cure of 60+ days is fully slow. */
export const CURE_ON_TIME_DAYS = 14;
export const CURE_FULLY_SLOW_DAYS = 60;

// ---------------------------------------------------------------------------------------------
// Remediation velocity (DOMAIN §5).
// ---------------------------------------------------------------------------------------------

export const REMEDIATION_WINDOW_DAYS = 365;
export const RESPONSIVE_MIN_RESOLVED_SHARE = 0.8;
export const RESPONSIVE_MAX_MEDIAN_CURE_DAYS = 14;
export const NON_RESPONSIVE_MAX_RESOLVED_SHARE = 0.4;
export const BLOCKING_OPEN_LIMIT_DAYS = 30;

// ---------------------------------------------------------------------------------------------
// Behavioral state machine (DOMAIN §5).
// ---------------------------------------------------------------------------------------------

/** PROVISIONAL → GOOD_STANDING after this many funded draws without a BLOCKING finding. */
export const GOOD_STANDING_FUNDED_DRAWS = 3;
/** any → WATCH when a WARNING has been open longer than this. */
export const WARNING_OPEN_LIMIT_DAYS = 14;
/** any → WATCH on a composite drop of at least this many points … */
export const COMPOSITE_DROP_POINTS = 10;
/** … within this many days. */
export const COMPOSITE_DROP_WINDOW_DAYS = 30;
/** PROBATION → RESTRICTED on a second BLOCKING finding within this many days of the previous one. */
export const SECOND_BLOCKING_WINDOW_DAYS = 90;
/** One step back up after this many days without new findings. */
export const QUIET_PERIOD_DAYS = 90;
/**
 * PROBATION → RESTRICTED on remediation NON_RESPONSIVE is judged no earlier than this many days into
 * the probation: one fresh open finding is "0 % resolved" on its first day, and DOMAIN grants a
 * BLOCKING finding 30 days before its being open counts against the entity (Plumbline reading).
 */
export const PROBATION_REMEDIATION_GRACE_DAYS = 30;
/** Safety valve for one assessment's loop of single steps; the next assessment continues. */
export const MAX_TRANSITIONS_PER_ASSESSMENT = 100;
