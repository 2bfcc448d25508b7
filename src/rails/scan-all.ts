/**
 * `scan_all` (SPEC §7): every rail over the same facts at the same `now`, combined into one
 * governance posture and composite score by the rule below — the rule DOMAIN §4 `risk` reuses.
 * A rail without evidence (INSUFFICIENT_DATA) counts as ELEVATED, unless the scan is narrowed to a
 * project whose profile makes that rail optional (optional.ts): then it is listed, not counted.
 */
import { sha256Hex } from '../platform/crypto/hash.js';
import { canonicalJson } from '../platform/ledger/canonical.js';
import { hasNoEvidence, type Coverage } from './coverage.js';
import type { RailFinding } from './findings.js';
import { PROFILE_OPTIONAL_RAILS } from './optional.js';
import type { Posture, Rail, RailFacts, RailName } from './rail.js';
import { RAILS } from './registry.js';
import { RAIL_MAX_SCORE, worstPosture } from './scoring.js';

/** The combination, in words, for the methodology page. */
export const COMPOSITE_RULE =
  'composite_score = arithmetic mean of the counted rail scores, rounded half up to an integer; ' +
  'governance_posture = the worst counted rail posture (CRITICAL > ELEVATED > NOMINAL); ' +
  'every rail counts except one without evidence that the project profile makes optional';

export interface RailSummary {
  name: RailName;
  posture: Posture;
  score: number;
  findings: RailFinding[];
  coverage: Coverage;
  /** False only for a rail without evidence that the project's profile makes optional. */
  counted: boolean;
}

export interface ScanAll {
  governance_posture: Posture;
  composite_score: number;
  rails: RailSummary[];
  total_findings: number;
  /** Counted rails that are not NOMINAL: empty means the scan is clear. */
  not_clear: RailName[];
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

/** The rails the slice's profile excuses when they lack evidence: only a project-narrowed slice has one. */
export function optionalRailsOf(facts: RailFacts): readonly RailName[] {
  const project = facts.project_id === null ? undefined : facts.projects[0];
  return project === undefined ? [] : PROFILE_OPTIONAL_RAILS[project.profile];
}

export function scanAll(facts: RailFacts, now: Date, rails: readonly Rail[] = RAILS): ScanAll {
  const optional = new Set(optionalRailsOf(facts));
  const summaries: RailSummary[] = rails.map((rail) => {
    const evaluated = rail.evaluate(facts, now);
    return {
      name: rail.name,
      ...evaluated,
      counted: !(optional.has(rail.name) && hasNoEvidence(evaluated.coverage)),
    };
  });
  const counted = summaries.filter((r) => r.counted);
  return {
    governance_posture: governancePosture(counted.map((r) => r.posture)),
    composite_score: compositeScore(counted.map((r) => r.score)),
    rails: summaries,
    total_findings: summaries.reduce((sum, r) => sum + r.findings.length, 0),
    not_clear: counted.filter((r) => r.posture !== 'NOMINAL').map((r) => r.name),
  };
}

/** The SPEC §7 scan_all response: the scan plus `as_of` and its provenance hash. */
export function scanAllResult(facts: RailFacts, now: Date): ScanAllResult {
  const payload = { ...scanAll(facts, now), as_of: now.toISOString() };
  return { ...payload, provenance_hash: sha256Hex(canonicalJson(payload)) };
}
