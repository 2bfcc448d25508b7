/**
 * The behavioral state machine's vocabulary and its fold (DOMAIN §5). Deciding and replaying share
 * `recordTransition`, so the state the `credit` projection rebuilds from `BehavioralStateChanged`
 * events is, by construction, the state the decider reasoned about.
 */
import type { Evidence } from '../governance/findings.js';
import { sha256Hex } from '../platform/crypto/hash.js';
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

/**
 * A cause as the ledger keeps it: tenant-neutral (OWASP API3). The entity's subjects are every
 * lender's, but the facts behind a transition (draws, findings and their text) belong to the lender
 * whose project they are on; the event names each only by SHA-256 of `kind:id`, so that lender can
 * match its own evidence and nobody else can read it. The detail stays in the owner's own events.
 */
export interface RecordedCause {
  code: TransitionCauseCode;
  evidence_count: number;
  /** sha256(`${kind}:${id}`) of each evidence item, in order. */
  evidence_sha256: string[];
}

/** A transition as recorded (event data from schema 2 on, and the read model for every schema). */
export interface RecordedTransition {
  from: BehavioralState;
  to: BehavioralState;
  cause: RecordedCause;
  effective_on: IsoDate;
}

/** The tenant-neutral digest of one evidence item (also how a trigger is recognized, see isFresh). */
export function evidenceDigest(kind: string, id: string): string {
  return sha256Hex(`${kind}:${id}`);
}

/** The recorded, tenant-neutral form of a cause (schema 1 events carried the full cause). */
export function recordedCause(cause: TransitionCause | RecordedCause): RecordedCause {
  if ('evidence_sha256' in cause)
    return {
      code: cause.code,
      evidence_count: cause.evidence_count,
      evidence_sha256: [...cause.evidence_sha256],
    };
  return {
    code: cause.code,
    evidence_count: cause.evidence.length,
    evidence_sha256: cause.evidence.map((e) => evidenceDigest(e.kind, e.id)),
  };
}

export function recordedTransition(t: BehaviorTransition | RecordedTransition): RecordedTransition {
  return { from: t.from, to: t.to, cause: recordedCause(t.cause), effective_on: t.effective_on };
}

/** An entity's behavioral state and how it got there. */
export interface BehaviorRecord {
  state: BehavioralState;
  since: IsoDate;
  previous_state: BehavioralState | null;
  transitions: RecordedTransition[];
}

/** A new entity: PROVISIONAL since it was first seen (DOMAIN §5 "PROVISIONAL (new)"). */
export function initialBehavior(firstSeen: IsoDate): BehaviorRecord {
  return { state: 'PROVISIONAL', since: firstSeen, previous_state: null, transitions: [] };
}

/**
 * Applies one transition in place (the projection owns its state; the decider works on a copy),
 * keeping it in its recorded form, so the decider's record equals the replayed one whatever
 * schema the event was written in.
 */
export function recordTransition(
  record: BehaviorRecord,
  transition: BehaviorTransition | RecordedTransition,
): BehaviorRecord {
  record.previous_state = transition.from;
  record.state = transition.to;
  record.since = transition.effective_on;
  record.transitions.push(recordedTransition(transition));
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
