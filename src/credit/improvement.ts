/**
 * Credit improvement (DOMAIN §6): for the two weakest dimensions, the factor that costs the most,
 * the action that removes it, and the composite gain if it were removed — recomputed by scoring the
 * same signals again with that factor's observations clean (share 0, no points, no recordables).
 *
 * "Clean" rather than "deleted": the observations still happened (the draw was funded, the waiver
 * delivered), only their adverse part goes, so removing a factor can never push a dimension below
 * three signals back to the prior and show a negative "gain".
 */
import { DIMENSIONS, DIMENSION_WEIGHTS, type Dimension } from './constants.js';
import { round1 } from './dates.js';
import { FACTORS, type ReasonCode } from './reason-codes.js';
import { exclusionActive, scoreSignals, type CreditScore, type Factor } from './score.js';
import type { Signal } from './signals.js';

/** How many dimensions credit improvement looks at (DOMAIN §6 "the two weakest"). */
export const IMPROVEMENT_DIMENSIONS = 2;

export interface CreditImprovement {
  dimension: Dimension;
  /** The factor removed (additive to SPEC §4's `{dimension, action, expected_gain}`). */
  factor: ReasonCode;
  action: string;
  /** Composite points gained, recomputed. */
  expected_gain: number;
}

/** The signals with one factor's adverse part removed. */
export function withoutFactor(signals: readonly Signal[], code: ReasonCode): Signal[] {
  return signals.map((s) => (s.code === code && s.unit !== 'hours' ? { ...s, value: 0 } : s));
}

function worstFactor(factors: readonly Factor[]): ReasonCode | undefined {
  return [...factors]
    .filter((f) => f.impact < 0)
    .sort((a, b) => a.impact - b.impact || a.code.localeCompare(b.code))[0]?.code;
}

/**
 * The weakest scored dimensions that have an adverse factor, lowest score first (ties: the heavier
 * weight, then report order). A dimension on the prior has no factor to act on, so it is skipped —
 * except that an active exclusion always comes first: it caps the composite whatever else is done.
 */
function weakest(
  signals: readonly Signal[],
  score: CreditScore,
): { dimension: Dimension; factor: ReasonCode }[] {
  const lead = exclusionActive(signals)
    ? [{ dimension: 'compliance_standing' as const, factor: 'CS02' as const }]
    : [];
  const ranked = DIMENSIONS.filter((d) => lead.every((l) => l.dimension !== d))
    .flatMap((dimension) => {
      const factor = worstFactor(score.dimensions[dimension].factors);
      return factor === undefined ? [] : [{ dimension, factor }];
    })
    .sort(
      (a, b) =>
        score.dimensions[a.dimension].score - score.dimensions[b.dimension].score ||
        DIMENSION_WEIGHTS[b.dimension] - DIMENSION_WEIGHTS[a.dimension],
    );
  return [...lead, ...ranked].slice(0, IMPROVEMENT_DIMENSIONS);
}

export function creditImprovement(
  signals: readonly Signal[],
  score: CreditScore = scoreSignals(signals),
): CreditImprovement[] {
  return weakest(signals, score).map(({ dimension, factor }) => ({
    dimension,
    factor,
    action: FACTORS[factor].action,
    expected_gain: round1(
      scoreSignals(withoutFactor(signals, factor)).composite_score - score.composite_score,
    ),
  }));
}
