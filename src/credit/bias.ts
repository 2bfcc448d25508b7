/**
 * Bias analysis for the methodology page (DOMAIN §7): governed entities grouped by SAM business type
 * flags, each group against everyone outside it. Per group: n, mean composite, share graded A or B,
 * adverse impact ratio (group A/B share ÷ reference A/B share, flagged below 0.8 — the four-fifths
 * screen) and standardized mean difference (Cohen's d with pooled sample SD).
 */
import type { Grade } from './constants.js';
import { BIAS_GROUPS, biasGroupsOf, type BiasGroup } from './business-types.js';

/** Groups (and references) smaller than this are reported as insufficient (DOMAIN §7). */
export const BIAS_MIN_GROUP_SIZE = 5;
/** The four-fifths screen (DOMAIN §7). */
export const ADVERSE_IMPACT_THRESHOLD = 0.8;

/** One scored entity with its SAM business type codes (the analysis's only use of them). */
export interface BiasSubject {
  entity_id: string;
  business_types: readonly string[];
  composite_score: number;
  grade: Grade;
}

export interface BiasGroupResult {
  group: BiasGroup;
  status: 'ANALYZED' | 'INSUFFICIENT';
  n: number;
  reference_n: number;
  mean: number | null;
  reference_mean: number | null;
  share_ab: number | null;
  reference_share_ab: number | null;
  adverse_impact_ratio: number | null;
  /** True when the ratio is below 0.8. */
  adverse_impact_flag: boolean;
  standardized_mean_difference: number | null;
}

export interface BiasAnalysis {
  sample_size: number;
  min_group_size: number;
  adverse_impact_threshold: number;
  groups: BiasGroupResult[];
  /** The plain statements DOMAIN §7 requires next to the numbers. */
  statements: string[];
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000 + 0;
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** Sample variance (n − 1). */
function variance(values: readonly number[]): number {
  const m = mean(values);
  return values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1);
}

function shareAB(subjects: readonly BiasSubject[]): number {
  return subjects.filter((s) => s.grade === 'A' || s.grade === 'B').length / subjects.length;
}

/** (mean_g − mean_r) / pooled SD; 0 when both groups have no spread and equal means. */
export function standardizedMeanDifference(
  group: readonly number[],
  reference: readonly number[],
): number | null {
  const dof = group.length + reference.length - 2;
  if (group.length < 2 || reference.length < 2 || dof <= 0) return null;
  const pooled = Math.sqrt(
    ((group.length - 1) * variance(group) + (reference.length - 1) * variance(reference)) / dof,
  );
  const diff = mean(group) - mean(reference);
  if (pooled === 0) return diff === 0 ? 0 : null;
  return diff / pooled;
}

function analyzeGroup(group: BiasGroup, members: BiasSubject[], reference: BiasSubject[]): BiasGroupResult {
  const base = { group, n: members.length, reference_n: reference.length };
  if (members.length < BIAS_MIN_GROUP_SIZE || reference.length < BIAS_MIN_GROUP_SIZE) {
    return {
      ...base,
      status: 'INSUFFICIENT',
      mean: null,
      reference_mean: null,
      share_ab: null,
      reference_share_ab: null,
      adverse_impact_ratio: null,
      adverse_impact_flag: false,
      standardized_mean_difference: null,
    };
  }
  const share = shareAB(members);
  const refShare = shareAB(reference);
  const ratio = refShare === 0 ? null : share / refShare;
  const smd = standardizedMeanDifference(
    members.map((m) => m.composite_score),
    reference.map((r) => r.composite_score),
  );
  return {
    ...base,
    status: 'ANALYZED',
    mean: round3(mean(members.map((m) => m.composite_score))),
    reference_mean: round3(mean(reference.map((r) => r.composite_score))),
    share_ab: round3(share),
    reference_share_ab: round3(refShare),
    adverse_impact_ratio: ratio === null ? null : round3(ratio),
    adverse_impact_flag: ratio !== null && ratio < ADVERSE_IMPACT_THRESHOLD,
    standardized_mean_difference: smd === null ? null : round3(smd),
  };
}

export function biasAnalysis(subjects: readonly BiasSubject[]): BiasAnalysis {
  const flagged = subjects.map((s) => ({ subject: s, groups: biasGroupsOf(s.business_types) }));
  const groups = BIAS_GROUPS.map((group) =>
    analyzeGroup(
      group,
      flagged.filter((f) => f.groups.has(group)).map((f) => f.subject),
      flagged.filter((f) => !f.groups.has(group)).map((f) => f.subject),
    ),
  );
  return {
    sample_size: subjects.length,
    min_group_size: BIAS_MIN_GROUP_SIZE,
    adverse_impact_threshold: ADVERSE_IMPACT_THRESHOLD,
    groups,
    statements: [
      'SAM business type flags are not inputs to the score: the scoring input type excludes them, and a test holds that changing them changes nothing.',
      `Sample: ${subjects.length} governed entities; each group is compared with every entity outside it, and a group or reference smaller than ${BIAS_MIN_GROUP_SIZE} is reported as insufficient.`,
      `The adverse impact ratio (flagged below ${ADVERSE_IMPACT_THRESHOLD}) and the standardized mean difference are a screen, not proof of bias or of its absence.`,
    ],
  };
}
