/**
 * Rail score and posture (DOMAIN §8), shared by every rail so the rule is stated once:
 * score = 100 − Σ penalties (floor 0); posture from the score, the CRITICAL findings and how
 * WARNING-heavy the rail is. Findings are put in one deterministic order so equal facts give
 * byte-equal results (and provenance hashes).
 */
import { penaltyOf, type RailFinding } from './findings.js';
import type { Posture, RailEvaluation } from './rail.js';

/** DOMAIN §8: the score a rail starts from before penalties. */
export const RAIL_MAX_SCORE = 100;
/** DOMAIN §8: NOMINAL needs a score ≥ 80 (and no CRITICAL finding). */
export const NOMINAL_MIN_SCORE = 80;
/** DOMAIN §8: below 50 the rail is CRITICAL. */
export const ELEVATED_MIN_SCORE = 50;
/**
 * DOMAIN §8 "WARNING-heavy" (not defined there): at least this many WARNING findings make a rail
 * ELEVATED whatever its score, so many small penalties cannot hide behind a high score.
 */
export const WARNING_HEAVY_MIN_WARNINGS = 3;

export function railScore(findings: readonly RailFinding[]): number {
  const penalties = findings.reduce((sum, f) => sum + penaltyOf(f), 0);
  return Math.max(0, RAIL_MAX_SCORE - penalties);
}

export function isWarningHeavy(findings: readonly RailFinding[]): boolean {
  return findings.filter((f) => f.severity === 'WARNING').length >= WARNING_HEAVY_MIN_WARNINGS;
}

export function railPosture(score: number, findings: readonly RailFinding[]): Posture {
  if (score < ELEVATED_MIN_SCORE || findings.some((f) => f.severity === 'CRITICAL')) return 'CRITICAL';
  if (score < NOMINAL_MIN_SCORE || isWarningHeavy(findings)) return 'ELEVATED';
  return 'NOMINAL';
}

/** Plain code-unit comparison: locale-independent, so the order is the same on every host. */
function compareText(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

function evidenceKey(f: RailFinding): string {
  return f.evidence.map((e) => `${e.kind}:${e.id}`).join('|');
}

/** Order: code, project (org-level first), entity, evidence, observed_on, detail. */
export function compareFindings(a: RailFinding, b: RailFinding): number {
  return (
    compareText(a.code, b.code) ||
    compareText(a.project_id ?? '', b.project_id ?? '') ||
    compareText(a.entity_id ?? '', b.entity_id ?? '') ||
    compareText(evidenceKey(a), evidenceKey(b)) ||
    compareText(a.observed_on, b.observed_on) ||
    compareText(a.detail, b.detail)
  );
}

/** Turns a rail's findings into its evaluation: sorted findings, score, posture. */
export function evaluation(findings: readonly RailFinding[]): Omit<RailEvaluation, 'coverage'> {
  const sorted = [...findings].sort(compareFindings);
  const score = railScore(sorted);
  return { posture: railPosture(score, sorted), score, findings: sorted };
}

/** Rank of a posture, worst highest (exhaustive: a new posture must be ranked here). */
export function postureRank(posture: Posture): number {
  switch (posture) {
    case 'NOMINAL':
      return 0;
    case 'ELEVATED':
      return 1;
    case 'CRITICAL':
      return 2;
    default: {
      const unreachable: never = posture;
      throw new TypeError(`unknown posture ${String(unreachable)}`);
    }
  }
}

/** The worst of several postures; NOMINAL for none. */
export function worstPosture(postures: readonly Posture[]): Posture {
  return postures.reduce<Posture>((worst, p) => (postureRank(p) > postureRank(worst) ? p : worst), 'NOMINAL');
}
