/**
 * The methodology the compliance-methodology page prints (SPEC §8), assembled from the constants
 * and tables the scoring code itself uses, so the page cannot drift from the rules it describes.
 */
import { ADVERSE_IMPACT_THRESHOLD, BIAS_MIN_GROUP_SIZE } from './bias.js';
import { SAM_BUSINESS_TYPE_GROUPS } from './business-types.js';
import * as C from './constants.js';
import { EXCLUSION_CONFLICT_CODE } from './conflicts.js';
import { PRAL_BY_GRADE, PRAL_BY_STATE, PRAL_TERMS } from './eligibility.js';
import { IMPROVEMENT_DIMENSIONS } from './improvement.js';
import { MEASURED_FROM_FACTS, factorsOf } from './reason-codes.js';
import { BEHAVIORAL_STATES, type BehavioralState, type TransitionCauseCode } from './state-machine.js';

interface TransitionRule {
  from: readonly (BehavioralState | 'any')[];
  to: BehavioralState;
  cause: TransitionCauseCode;
  rule: string;
}

/** Every transition of DOMAIN §5, with the cause code its event carries. */
export const TRANSITION_RULES: readonly TransitionRule[] = [
  {
    from: ['PROVISIONAL'],
    to: 'GOOD_STANDING',
    cause: 'CLEAN_FUNDED_DRAWS',
    rule: `${C.GOOD_STANDING_FUNDED_DRAWS} funded draws it billed on without a BLOCKING finding`,
  },
  {
    from: ['any'],
    to: 'WATCH',
    cause: 'WARNING_OPEN',
    rule: `a WARNING finding open more than ${C.WARNING_OPEN_LIMIT_DAYS} days`,
  },
  {
    from: ['any'],
    to: 'WATCH',
    cause: 'COMPOSITE_DROP',
    rule: `composite drop of ${C.COMPOSITE_DROP_POINTS}+ points within ${C.COMPOSITE_DROP_WINDOW_DAYS} days`,
  },
  { from: ['any'], to: 'PROBATION', cause: 'BLOCKING_FINDING', rule: 'a BLOCKING finding' },
  {
    from: ['any'],
    to: 'PROBATION',
    cause: 'INSURANCE_LAPSE',
    rule: 'a required coverage not in force on a project it is GC of',
  },
  { from: ['any'], to: 'PROBATION', cause: 'SERIOUS_CITATION', rule: 'a serious or willful OSHA citation' },
  {
    from: ['PROBATION'],
    to: 'RESTRICTED',
    cause: 'SECOND_BLOCKING_FINDING',
    rule: `a second BLOCKING finding within ${C.SECOND_BLOCKING_WINDOW_DAYS} days`,
  },
  {
    from: ['PROBATION'],
    to: 'RESTRICTED',
    cause: 'REMEDIATION_NON_RESPONSIVE',
    rule: `remediation NON_RESPONSIVE, judged from day ${C.PROBATION_REMEDIATION_GRACE_DAYS} of the probation`,
  },
  {
    from: ['any'],
    to: 'SUSPENDED',
    cause: 'REGISTRY_EXCLUSION',
    rule: 'an active federal registry exclusion',
  },
  { from: ['SUSPENDED'], to: 'PROBATION', cause: 'EXCLUSION_TERMINATED', rule: 'the exclusion terminates' },
  {
    from: ['RESTRICTED'],
    to: 'PROBATION',
    cause: 'QUIET_PERIOD',
    rule: `${C.QUIET_PERIOD_DAYS} days without a new finding`,
  },
  {
    from: ['PROBATION'],
    to: 'WATCH',
    cause: 'QUIET_PERIOD',
    rule: `${C.QUIET_PERIOD_DAYS} days without a new finding`,
  },
  {
    from: ['WATCH'],
    to: 'GOOD_STANDING',
    cause: 'QUIET_PERIOD',
    rule: `${C.QUIET_PERIOD_DAYS} days without a new finding`,
  },
];

export const METHODOLOGY = {
  grades: C.GRADE_FLOORS,
  dimensions: C.DIMENSIONS.map((name) => ({
    name,
    weight: C.DIMENSION_WEIGHTS[name],
    factors: factorsOf(name).map(({ code, description, signal, penalty, action }) => ({
      code,
      description,
      signal,
      penalty,
      action,
    })),
  })),
  scoring: {
    dimension_score: '100 − Σ factor penalties, clamped to 0–100, one decimal',
    composite: 'weighted mean of the six dimension scores (weights in percent)',
    recency_weight: `0.5^(age_days / ${C.RECENCY_HALF_LIFE_DAYS})`,
    recency_half_life_days: C.RECENCY_HALF_LIFE_DAYS,
    min_signals_per_dimension: C.MIN_SIGNALS_PER_DIMENSION,
    neutral_prior_score: C.NEUTRAL_PRIOR_SCORE,
    exclusion_composite_cap: C.EXCLUSION_COMPOSITE_CAP,
    confidence: {
      HIGH: { min_signals: C.CONFIDENCE_HIGH_MIN_SIGNALS, min_projects: C.CONFIDENCE_HIGH_MIN_PROJECTS },
      MEDIUM: { min_signals: C.CONFIDENCE_MEDIUM_MIN_SIGNALS },
    },
    reason_codes: `the ${C.REASON_CODE_COUNT} factors costing the composite most (impact × weight), most adverse first`,
    findings_measured_from_facts: MEASURED_FROM_FACTS,
  },
  thresholds: {
    citation_points: C.CITATION_POINTS,
    waiver_on_time_days: C.WAIVER_ON_TIME_DAYS,
    waiver_fully_late_days: C.WAIVER_FULLY_LATE_DAYS,
    lien_claim_points: C.LIEN_CLAIM_POINTS,
    finding_severity_share: C.FINDING_SEVERITY_SHARE,
    inspection_variance_free_points: C.INSPECTION_VARIANCE_FREE_POINTS,
    inspection_variance_full_points: C.INSPECTION_VARIANCE_FULL_POINTS,
    temporal_finding_points: C.TEMPORAL_FINDING_POINTS,
    registration_inactive_points: C.REGISTRATION_INACTIVE_POINTS,
    exclusion_points: C.EXCLUSION_POINTS,
    trir_hours_base: C.TRIR_HOURS_BASE,
    trir_points_per_unit: C.TRIR_POINTS_PER_UNIT,
    open_abatement_points: C.OPEN_ABATEMENT_POINTS,
    milestone_full_slip_days: C.MILESTONE_FULL_SLIP_DAYS,
    pace_lag_full_points: C.PACE_LAG_FULL_POINTS,
    cure_on_time_days: C.CURE_ON_TIME_DAYS,
    cure_fully_slow_days: C.CURE_FULLY_SLOW_DAYS,
  },
  state_machine: {
    states: BEHAVIORAL_STATES,
    transitions: TRANSITION_RULES,
    ordering:
      'transitions take effect on the day of their cause; one step at a time, earliest first, the more adverse rule first on the same day',
  },
  remediation_velocity: {
    window_days: C.REMEDIATION_WINDOW_DAYS,
    RESPONSIVE: {
      min_resolved_share: C.RESPONSIVE_MIN_RESOLVED_SHARE,
      max_median_cure_days: C.RESPONSIVE_MAX_MEDIAN_CURE_DAYS,
      no_blocking_open_over_days: C.BLOCKING_OPEN_LIMIT_DAYS,
    },
    NON_RESPONSIVE: {
      max_resolved_share: C.NON_RESPONSIVE_MAX_RESOLVED_SHARE,
      blocking_open_over_days: C.BLOCKING_OPEN_LIMIT_DAYS,
    },
  },
  conflicts: {
    counts: ['open BLOCKING contradiction findings attributed to the entity', EXCLUSION_CONFLICT_CODE],
  },
  eligibility: {
    pral_by_grade: PRAL_BY_GRADE,
    pral_by_state: PRAL_BY_STATE,
    terms: PRAL_TERMS,
    rule: 'the worse of the grade and state columns wins; an active exclusion is DENY',
    credit_improvement: `the ${IMPROVEMENT_DIMENSIONS} weakest dimensions with an adverse factor; gain = composite re-scored with that factor's signals clean`,
  },
  bias_analysis: {
    min_group_size: BIAS_MIN_GROUP_SIZE,
    adverse_impact_threshold: ADVERSE_IMPACT_THRESHOLD,
    business_type_groups: SAM_BUSINESS_TYPE_GROUPS,
  },
} as const;
