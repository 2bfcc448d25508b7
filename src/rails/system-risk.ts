/**
 * SYSTEM_RISK rail (DOMAIN §8): is the machinery behind every other answer trustworthy right now —
 * the hash chain verified up to the head, the read models caught up, each rail's data fresh.
 */
import { daysBetween, dayOf } from './dates.js';
import { finding, type RailFinding } from './findings.js';
import { RAIL_NAMES, RAIL_PATHS, type PlatformFacts, type Rail, type RailFacts } from './rail.js';
import { evaluation } from './scoring.js';

/**
 * Events the chain verifier may trail the head by before the chain counts as unverified. DOMAIN §8
 * "chain unverified" names no figure; the background verifier trails the head by design, so the
 * tolerance is the same 100 events /readyz allows projections (SPEC §10).
 */
export const SYSTEM_MAX_UNVERIFIED_EVENTS = 100;
/** Projection lag, in events, beyond which read models are behind (SPEC §10 /readyz: ≤ 100). */
export const SYSTEM_MAX_PROJECTION_LAG_EVENTS = 100;
/** DOMAIN §8: a rail whose newest fact is older than this many days is stale. */
export const SYSTEM_RAIL_STALE_DAYS = 30;

function chainFindings(platform: PlatformFacts, today: string): RailFinding[] {
  const unverified = platform.ledger_head.seq - platform.verified_through;
  if (unverified <= SYSTEM_MAX_UNVERIFIED_EVENTS) return [];
  return [
    finding('SYSTEM_CHAIN_UNVERIFIED', 'CRITICAL', {
      project_id: null,
      entity_id: null,
      title: 'Ledger hash chain not verified to the head',
      detail:
        `Chain verified through seq ${platform.verified_through} of ${platform.ledger_head.seq}: ` +
        `${unverified} events unverified (tolerance ${SYSTEM_MAX_UNVERIFIED_EVENTS}).`,
      evidence: [
        { kind: 'ledger', id: String(platform.verified_through) },
        { kind: 'ledger', id: String(platform.ledger_head.seq) },
      ],
      observed_on: today,
    }),
  ];
}

function lagFindings(platform: PlatformFacts, today: string): RailFinding[] {
  if (platform.projection_lag <= SYSTEM_MAX_PROJECTION_LAG_EVENTS) return [];
  return [
    finding('SYSTEM_PROJECTION_LAG', 'WARNING', {
      project_id: null,
      entity_id: null,
      title: 'Read models behind the ledger',
      detail: `Projections are ${platform.projection_lag} events behind the head (tolerance ${SYSTEM_MAX_PROJECTION_LAG_EVENTS}).`,
      evidence: [{ kind: 'ledger', id: String(platform.ledger_head.seq) }],
      observed_on: today,
    }),
  ];
}

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
  const today = dayOf(now);
  return [
    ...chainFindings(facts.platform, today),
    ...lagFindings(facts.platform, today),
    ...staleFindings(facts.platform, today),
  ];
}

export const SYSTEM_RISK_RAIL: Rail = {
  name: 'SYSTEM_RISK',
  path: RAIL_PATHS.SYSTEM_RISK,
  evaluate: (facts, now) => evaluation(systemRiskFindings(facts, now)),
};
