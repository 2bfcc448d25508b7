/**
 * Scoring (DOMAIN §5): signals → six dimension scores → composite, grade, confidence and reason
 * codes. A pure function of the signal list, so "the score without factor X" is just the same
 * function over the list without X's signals (credit improvement, DOMAIN §6).
 */
import {
  CONFIDENCE_HIGH_MIN_PROJECTS,
  CONFIDENCE_HIGH_MIN_SIGNALS,
  CONFIDENCE_MEDIUM_MIN_SIGNALS,
  DIMENSIONS,
  DIMENSION_WEIGHTS,
  EXCLUSION_COMPOSITE_CAP,
  MIN_SIGNALS_PER_DIMENSION,
  NEUTRAL_PRIOR_SCORE,
  REASON_CODE_COUNT,
  TRIR_HOURS_BASE,
  TRIR_POINTS_PER_UNIT,
  gradeFor,
  type Dimension,
  type Grade,
} from './constants.js';
import { clamp, dayOf } from './dates.js';
import { dimensionSignals } from './gather.js';
import { derived, DERIVATION, type EntityFacts } from './inputs.js';
import { FACTORS, factorsOf, type FactorDefinition, type ReasonCode } from './reason-codes.js';
import type { Signal } from './signals.js';

/** One factor of a dimension: its code, its effect on the dimension score (≤ 0), and what it is. */
export interface Factor {
  code: ReasonCode;
  impact: number;
  description: string;
}

/** SPEC §4 `credit.dimensions.<name>`. */
export interface DimensionScore {
  score: number;
  grade: Grade;
  weight: number;
  /** How many signals fed it. */
  signals: number;
  /**
   * How many distinct furnishers (lenders, the platform operator, the SAM registry) those signals
   * came from: one lender's facts alone are visible as such to every reader (OWASP API6).
   */
  furnishers: number;
  insufficient_data: boolean;
  /** Empty when insufficient: the prior, not the signals, made the score. */
  factors: Factor[];
}

export const CONFIDENCES = ['LOW', 'MEDIUM', 'HIGH'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export interface ReasonCodeEntry {
  code: ReasonCode;
  description: string;
}

/** SPEC §4 `credit`. */
export interface CreditScore {
  composite_score: number;
  grade: Grade;
  confidence: Confidence;
  /**
   * The counts `confidence` was judged on (DOMAIN §5: HIGH with ≥ 20 signals across ≥ 2 projects),
   * so a reader can tell a MEDIUM of 49 signals on one project from one on two.
   */
  confidence_basis: ConfidenceBasis;
  dimensions: Record<Dimension, DimensionScore>;
  reason_codes: ReasonCodeEntry[];
}

/** A number in whole tenths, rounded half up (the one decimal every published credit number carries). */
function tenthsOf(value: number): number {
  return Math.round(value * 10) + 0;
}

/** Penalty points a factor's signals take off its dimension (formulas in reason-codes.ts). */
export function factorPenalty(definition: FactorDefinition, signals: readonly Signal[]): number {
  const weighted = (unit: Signal['unit']): number =>
    signals.filter((s) => s.unit === unit).reduce((sum, s) => sum + s.weight * s.value, 0);
  switch (definition.penalty.kind) {
    case 'share': {
      const total = signals.reduce((sum, s) => sum + s.weight, 0);
      return total === 0 ? 0 : definition.penalty.max_penalty * (weighted('share') / total);
    }
    case 'points':
      return weighted('points');
    case 'trir': {
      const trir = (TRIR_HOURS_BASE * weighted('recordables')) / Math.max(weighted('hours'), TRIR_HOURS_BASE);
      return Math.min(definition.penalty.max_penalty, TRIR_POINTS_PER_UNIT * trir);
    }
    default: {
      const unreachable: never = definition.penalty;
      return unreachable;
    }
  }
}

export function scoreDimension(dimension: Dimension, signals: readonly Signal[]): DimensionScore {
  const mine = signals.filter((s) => s.dimension === dimension);
  const furnishers = new Set(mine.flatMap((s) => (s.furnisher === undefined ? [] : [s.furnisher])));
  const base = { weight: DIMENSION_WEIGHTS[dimension], signals: mine.length, furnishers: furnishers.size };
  if (mine.length < MIN_SIGNALS_PER_DIMENSION) {
    return {
      ...base,
      score: NEUTRAL_PRIOR_SCORE,
      grade: gradeFor(NEUTRAL_PRIOR_SCORE),
      insufficient_data: true,
      factors: [],
    };
  }
  // In whole tenths: the score is 100 plus the impacts as printed, so a reader adding up the
  // report's factors gets the report's score (each impact rounded once, never the sum apart).
  const factors: Factor[] = [];
  let tenths = 1000;
  // The dimension's signals by code, in their order, once (not one pass over them per factor).
  const byCode = new Map<string, Signal[]>();
  for (const s of mine) {
    const own = byCode.get(s.code);
    if (own) own.push(s);
    else byCode.set(s.code, [s]);
  }
  for (const definition of factorsOf(dimension)) {
    const own = byCode.get(definition.code);
    if (own === undefined) continue;
    const impact = tenthsOf(-factorPenalty(definition, own));
    tenths += impact;
    factors.push({ code: definition.code, impact: impact / 10 + 0, description: definition.description });
  }
  const score = clamp(tenths, 0, 1000) / 10;
  return { ...base, score, grade: gradeFor(score), insufficient_data: false, factors };
}

/** Whether the signals carry an active exclusion, which caps the composite (DOMAIN §5). */
export function exclusionActive(signals: readonly Signal[]): boolean {
  return signals.some((s) => s.code === 'CS02' && s.value > 0);
}

/** What `confidence` is judged on: every signal, and the distinct projects they came from. */
export interface ConfidenceBasis {
  signals: number;
  projects: number;
}

export function confidenceBasisOf(signals: readonly Signal[]): ConfidenceBasis {
  const projects = new Set(signals.map((s) => s.project_id).filter((p) => p !== null));
  return { signals: signals.length, projects: projects.size };
}

export function confidenceOf(signals: readonly Signal[]): Confidence {
  return confidenceFrom(confidenceBasisOf(signals));
}

function confidenceFrom(basis: ConfidenceBasis): Confidence {
  if (basis.signals >= CONFIDENCE_HIGH_MIN_SIGNALS && basis.projects >= CONFIDENCE_HIGH_MIN_PROJECTS)
    return 'HIGH';
  if (basis.signals >= CONFIDENCE_MEDIUM_MIN_SIGNALS) return 'MEDIUM';
  return 'LOW';
}

/**
 * The four factors that cost the composite most (dimension impact × weight), most adverse first;
 * ties by code. Under the exclusion cap, CS02 leads: no factor costs more than being capped at F.
 */
export function reasonCodes(
  dimensions: Record<Dimension, DimensionScore>,
  capped: boolean,
): ReasonCodeEntry[] {
  const ranked = DIMENSIONS.flatMap((d) =>
    dimensions[d].factors
      .filter((f) => f.impact < 0)
      .map((f) => ({ code: f.code, cost: (f.impact * dimensions[d].weight) / 100 })),
  ).sort((a, b) => a.cost - b.cost || a.code.localeCompare(b.code));
  const codes = ranked.map((r) => r.code).filter((c) => !capped || c !== 'CS02');
  if (capped) codes.unshift('CS02');
  return codes.slice(0, REASON_CODE_COUNT).map((code) => ({ code, description: FACTORS[code].description }));
}

/**
 * The weighted mean of the dimension scores as printed, to a tenth: Σ weight × score in integer
 * thousandths of a point (weights are whole percents, scores whole tenths), rounded half up to a
 * tenth once, so no binary-fraction error can move a printed x.x5. The composite, unless capped.
 */
export function weightedComposite(
  dimensions: Readonly<Record<Dimension, Pick<DimensionScore, 'weight' | 'score'>>>,
): number {
  const thousandths = DIMENSIONS.reduce(
    (sum, d) => sum + dimensions[d].weight * tenthsOf(dimensions[d].score),
    0,
  );
  return Math.floor((thousandths + 50) / 100) / 10;
}

/** The composite, grade, confidence and reason codes of six dimension scores (DOMAIN §5). */
function assemble(
  dimensions: Record<Dimension, DimensionScore>,
  basis: ConfidenceBasis,
  capped: boolean,
): CreditScore {
  const weighted = weightedComposite(dimensions);
  const composite = capped ? Math.min(weighted, EXCLUSION_COMPOSITE_CAP) : weighted;
  return {
    composite_score: composite,
    grade: gradeFor(composite),
    confidence: confidenceFrom(basis),
    confidence_basis: basis,
    dimensions,
    reason_codes: reasonCodes(dimensions, capped),
  };
}

/** Scores a list of signals (DOMAIN §5). */
export function scoreSignals(signals: readonly Signal[]): CreditScore {
  // Each dimension scored on its own signals, sorted out in one pass (in their order).
  const byDimension = new Map<Dimension, Signal[]>(DIMENSIONS.map((d) => [d, []]));
  for (const s of signals) byDimension.get(s.dimension)?.push(s);
  const dimensions = Object.fromEntries(
    DIMENSIONS.map((d) => [d, scoreDimension(d, byDimension.get(d)!)]),
  ) as Record<Dimension, DimensionScore>;
  return assemble(dimensions, confidenceBasisOf(signals), exclusionActive(signals));
}

/** One dimension's score with what the composite needs of its signals besides. */
interface ScoredDimension {
  score: DimensionScore;
  /** The projects its signals came from. */
  projects: ReadonlySet<string>;
  excluded: boolean;
}

/**
 * The entity's credit score as of `now` (DOMAIN §5): `scoreSignals(gatherSignals(facts, now))`,
 * remembered by the day; each dimension's score is remembered apart too, so a fact that changes one
 * dimension's signals (a site observation: the safety record) rescores that one only.
 */
export function scoreEntity(facts: EntityFacts, now: Date): CreditScore {
  const day = dayOf(now);
  return derived(facts, `${DERIVATION.score}${day}`, () => {
    const lists = dimensionSignals(facts, now);
    const dimensions = {} as Record<Dimension, DimensionScore>;
    const projects = new Set<string>();
    let signals = 0;
    let capped = false;
    for (const d of DIMENSIONS) {
      const list = lists[d];
      const scored = derived(facts, `${DERIVATION.dimension(d)}${day}`, (): ScoredDimension => ({
        score: scoreDimension(d, list),
        projects: new Set(list.map((s) => s.project_id).filter((p) => p !== null)),
        excluded: exclusionActive(list),
      }));
      dimensions[d] = scored.score;
      for (const p of scored.projects) projects.add(p);
      signals += list.length;
      capped ||= scored.excluded;
    }
    return assemble(dimensions, { signals, projects: projects.size }, capped);
  });
}
