/**
 * The behavioral state machine's vocabulary and its fold (DOMAIN §5). Deciding and replaying share
 * `recordTransition`, so the state the `credit` projection rebuilds from `BehavioralStateChanged`
 * events is, by construction, the state the decider reasoned about.
 */
import type { Evidence } from '../governance/findings.js';
import type { IsoDate } from '../projects/facts.js';

export const BEHAVIORAL_STATES = [
  'PROVISIONAL',
  'GOOD_STANDING',
  'WATCH',
  'PROBATION',
  'RESTRICTED',
  'SUSPENDED',
] as const;
export type BehavioralState = (typeof BEHAVIORAL_STATES)[number];

/**
 * How adverse a state is. Event-driven rules only ever move to a worse state ("any → PROBATION"
 * never lifts a RESTRICTED entity); PROVISIONAL is new, not adverse, so it ranks with GOOD_STANDING.
 */
export const STATE_SEVERITY: Readonly<Record<BehavioralState, number>> = {
  PROVISIONAL: 0,
  GOOD_STANDING: 0,
  WATCH: 1,
  PROBATION: 2,
  RESTRICTED: 3,
  SUSPENDED: 4,
};

/** One step back up after a quiet period (DOMAIN §5: RESTRICTED → PROBATION → WATCH → GOOD_STANDING). */
export const STEP_UP: Readonly<Partial<Record<BehavioralState, BehavioralState>>> = {
  RESTRICTED: 'PROBATION',
  PROBATION: 'WATCH',
  WATCH: 'GOOD_STANDING',
};

/** Why a transition happened, one code per DOMAIN §5 clause. */
export const TRANSITION_CAUSES = [
  'CLEAN_FUNDED_DRAWS',
  'WARNING_OPEN',
  'COMPOSITE_DROP',
  'BLOCKING_FINDING',
  'INSURANCE_LAPSE',
  'SERIOUS_CITATION',
  'SECOND_BLOCKING_FINDING',
  'REMEDIATION_NON_RESPONSIVE',
  'REGISTRY_EXCLUSION',
  'EXCLUSION_TERMINATED',
  'QUIET_PERIOD',
] as const;
export type TransitionCauseCode = (typeof TRANSITION_CAUSES)[number];

export interface TransitionCause {
  code: TransitionCauseCode;
  detail: string;
  /** The facts that caused it; the first item identifies the trigger. */
  evidence: Evidence[];
}

export interface BehaviorTransition {
  from: BehavioralState;
  to: BehavioralState;
  cause: TransitionCause;
  /** The day the cause occurred (not the day it was recorded), so late assessments stay faithful. */
  effective_on: IsoDate;
}

/** An entity's behavioral state and how it got there. */
export interface BehaviorRecord {
  state: BehavioralState;
  since: IsoDate;
  previous_state: BehavioralState | null;
  transitions: BehaviorTransition[];
}

/** A new entity: PROVISIONAL since it was first seen (DOMAIN §5 "PROVISIONAL (new)"). */
export function initialBehavior(firstSeen: IsoDate): BehaviorRecord {
  return { state: 'PROVISIONAL', since: firstSeen, previous_state: null, transitions: [] };
}

/** Applies one transition in place (the projection owns its state; the decider works on a copy). */
export function recordTransition(record: BehaviorRecord, transition: BehaviorTransition): BehaviorRecord {
  record.previous_state = transition.from;
  record.state = transition.to;
  record.since = transition.effective_on;
  record.transitions.push(transition);
  return record;
}

/** SPEC §4 `behavioral`. */
export interface BehaviorSnapshot {
  state: BehavioralState;
  last_assessed: string;
  since: IsoDate;
  previous_state: BehavioralState | null;
}

export function behaviorSnapshot(record: BehaviorRecord, assessedAt: Date): BehaviorSnapshot {
  return {
    state: record.state,
    last_assessed: assessedAt.toISOString(),
    since: record.since,
    previous_state: record.previous_state,
  };
}
