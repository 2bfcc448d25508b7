/**
 * SYSTEM_RISK rail (DOMAIN §8): is the evidence behind every other answer fresh — each rail's
 * newest fact against the day evaluated. It reads ledger facts only (the slice and the ledger
 * head), never the chain verifier's watermark or the read models' lag: those are process state a
 * replay cannot reproduce, and /readyz and /metrics already report them (ARCHITECTURE §3.4). So a
 * recorded SYSTEM_RISK result replays: the ledger to `provenance.ledger.seq`, evaluated at `as_of`.
 */
import { evaluateWith, type FactCheck } from './coverage.js';
import { daysBetween, dayOf } from './dates.js';
import { finding, type RailFinding } from './findings.js';
import { RAIL_NAMES, RAIL_PATHS, type PlatformFacts, type Rail, type RailFacts } from './rail.js';

/** DOMAIN §8: a rail whose newest fact is older than this many days is stale. */
export const SYSTEM_RAIL_STALE_DAYS = 30;

/** SYSTEM_RISK's facts: some rail was ever fed (the freshness it judges). */
export const SYSTEM_RISK_FACTS: readonly FactCheck[] = [
  {
    name: 'rail_data_last_observed',
    present: (facts) => RAIL_NAMES.some((rail) => facts.platform.rail_data_last_observed[rail] !== null),
  },
];
/** A rail that was never fed is not stale: there is no data to have gone old. */
function staleFindings(platform: PlatformFacts, today: string): RailFinding[] {
  return RAIL_NAMES.flatMap((rail) => {
    const last = platform.rail_data_last_observed[rail];
    if (last === null) return [];
    const age = daysBetween(last, today);
    if (age <= SYSTEM_RAIL_STALE_DAYS) return [];
    return [
      finding('SYSTEM_RAIL_STALE', 'WARNING', {
        project_id: null,
        entity_id: null,
        title: `${rail} rail data is stale`,
        detail: `Newest ${rail} fact observed on ${last}, ${age} days ago (limit ${SYSTEM_RAIL_STALE_DAYS}).`,
        evidence: [{ kind: 'rail', id: rail }],
        observed_on: today,
      }),
    ];
  });
}

export function systemRiskFindings(facts: RailFacts, now: Date): RailFinding[] {
  return staleFindings(facts.platform, dayOf(now));
}

export const SYSTEM_RISK_RAIL: Rail = {
  name: 'SYSTEM_RISK',
  path: RAIL_PATHS.SYSTEM_RISK,
  evaluate: evaluateWith('SYSTEM_RISK', SYSTEM_RISK_FACTS, systemRiskFindings),
};
