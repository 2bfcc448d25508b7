/**
 * `scan_all` (SPEC §7): every rail over the same facts at the same `now`, combined into one
 * governance posture and composite score by the rule below — the rule DOMAIN §4 `risk` reuses.
 */
import { sha256Hex } from '../platform/crypto/hash.js';
import { canonicalJson } from '../platform/ledger/canonical.js';
import type { RailFinding } from './findings.js';
import type { Posture, Rail, RailFacts, RailName } from './rail.js';
import { RAILS } from './registry.js';
import { RAIL_MAX_SCORE, worstPosture } from './scoring.js';

/** The combination, in words, for the methodology page. */
export const COMPOSITE_RULE =
  'composite_score = arithmetic mean of the rail scores, rounded half up to an integer; ' +
  'governance_posture = the worst rail posture (CRITICAL > ELEVATED > NOMINAL)';

export interface RailSummary {
  name: RailName;
  posture: Posture;
  score: number;
  findings: RailFinding[];
}

export interface ScanAll {
  governance_posture: Posture;
  composite_score: number;
  rails: RailSummary[];
  total_findings: number;
}

export interface ScanAllResult extends ScanAll {
  as_of: string;
  /** SHA-256 hex of the JCS of the response without `provenance_hash`. */
  provenance_hash: string;
}

/**
 * Mean, not minimum: one bad rail already sets the posture, so the score keeps telling how
 * broad the trouble is. No rails → a perfect score, as a rail with no findings has.
 */
export function compositeScore(scores: readonly number[]): number {
  if (scores.length === 0) return RAIL_MAX_SCORE;
  return Math.round(scores.reduce((sum, s) => sum + s, 0) / scores.length);
}

export function governancePosture(postures: readonly Posture[]): Posture {
  return worstPosture(postures);
}

export function scanAll(facts: RailFacts, now: Date, rails: readonly Rail[] = RAILS): ScanAll {
  const summaries = rails.map((rail) => ({ name: rail.name, ...rail.evaluate(facts, now) }));
  return {
    governance_posture: governancePosture(summaries.map((r) => r.posture)),
    composite_score: compositeScore(summaries.map((r) => r.score)),
    rails: summaries,
    total_findings: summaries.reduce((sum, r) => sum + r.findings.length, 0),
  };
}

/** The SPEC §7 scan_all response: the scan plus `as_of` and its provenance hash. */
export function scanAllResult(facts: RailFacts, now: Date): ScanAllResult {
  const payload = { ...scanAll(facts, now), as_of: now.toISOString() };
  return { ...payload, provenance_hash: sha256Hex(canonicalJson(payload)) };
}
