/**
 * What a rail had to go on (issue 14, "no data is not good news"): each rail names the facts it
 * reads, every evaluation reports which of them the slice holds (`coverage`), and a rail that holds
 * none of them answers ELEVATED with an `INSUFFICIENT_DATA` finding — never NOMINAL 100.
 */
import type { ObservationKind } from '../projects/facts.js';
import { dayOf } from './dates.js';
import { finding, type RailFinding } from './findings.js';
import type { RailEvaluation, RailFacts, RailName } from './rail.js';
import { evaluation } from './scoring.js';

/** SPEC §7 `coverage` of every rail result: the facts the rail reads, split by whether it had them. */
export interface Coverage {
  facts_present: string[];
  facts_missing: string[];
}

/** One kind of fact a rail reads, and whether the slice holds any. */
export interface FactCheck {
  name: string;
  present(facts: RailFacts): boolean;
}

/** A rail fact that is an observation kind (DOMAIN §8 table). */
export const observed = (kind: ObservationKind): FactCheck => ({
  name: kind,
  present: (facts) => facts.observations.some((o) => o.kind === kind),
});

export function coverageOf(checks: readonly FactCheck[], facts: RailFacts): Coverage {
  const facts_present: string[] = [];
  const facts_missing: string[] = [];
  for (const check of checks) (check.present(facts) ? facts_present : facts_missing).push(check.name);
  return { facts_present, facts_missing };
}

/** True when the rail had none of its facts: its findings say nothing either way. */
export const hasNoEvidence = (coverage: Coverage): boolean => coverage.facts_present.length === 0;

function insufficientData(rail: RailName, coverage: Coverage, facts: RailFacts, now: Date): RailFinding {
  const scope = facts.project_id === null ? `org ${facts.org_id}` : `project ${facts.project_id}`;
  return finding('INSUFFICIENT_DATA', 'WARNING', {
    project_id: facts.project_id,
    entity_id: null,
    title: `${rail} rail has no facts to judge`,
    detail: `No ${coverage.facts_missing.join(', ')} recorded for ${scope}: missing evidence is itself a risk.`,
    evidence: [{ kind: 'rail', id: rail }],
    observed_on: dayOf(now),
  });
}

/**
 * A rail's `evaluate`: its findings over the slice, plus `INSUFFICIENT_DATA` when the slice holds
 * none of the facts it reads (which scores it RAIL_NO_EVIDENCE_SCORE, ELEVATED), and its coverage.
 */
export function evaluateWith(
  rail: RailName,
  checks: readonly FactCheck[],
  findingsOf: (facts: RailFacts, now: Date) => RailFinding[],
): (facts: RailFacts, now: Date) => RailEvaluation {
  return (facts, now) => {
    const coverage = coverageOf(checks, facts);
    const findings = findingsOf(facts, now);
    if (hasNoEvidence(coverage)) findings.push(insufficientData(rail, coverage, facts, now));
    return { ...evaluation(findings), coverage };
  };
}
