/**
 * The behavioral decider: from the stored state, the facts and `now`, the `BehavioralStateChanged`
 * events still due (DOMAIN §5). Pure; a scheduled evaluator (and the `score` action) appends them.
 */
import type { EventInput } from '../platform/ledger/index.js';
import { behavioralStateChanged, type BehavioralStateChangedData } from './events.js';
import { MAX_TRANSITIONS_PER_ASSESSMENT } from './constants.js';
import { dayOf } from './dates.js';
import { evaluateBehavior } from './behavior.js';
import type { EntityFacts } from './inputs.js';
import { dropTriggersOf, type CreditState } from './read-model.js';
import { scoreEntity } from './score.js';
import {
  initialBehavior,
  recordTransition,
  type BehaviorRecord,
  type BehaviorTransition,
} from './state-machine.js';
import { behaviorFactsWithDrops, type BehaviorFacts } from './triggers.js';

export interface BehaviorAssessment {
  /**
   * The state after the transitions: a copy when any was due, else the stored record itself (or a
   * fresh PROVISIONAL one) — read-only either way, it may be the read model's own.
   */
  record: BehaviorRecord;
  transitions: BehaviorTransition[];
}

/**
 * Loops `evaluateBehavior` one step at a time until nothing more is due by today. The stored record
 * is copied only when a transition is due: most assessments find none, and copying the record with
 * its transition history on every score was a measurable part of the call.
 */
export function assessBehavior(stored: BehaviorRecord | null, facts: BehaviorFacts): BehaviorAssessment {
  let record = stored ?? initialBehavior(facts.first_seen);
  let owned = stored === null;
  const transitions: BehaviorTransition[] = [];
  for (let step = 0; step < MAX_TRANSITIONS_PER_ASSESSMENT; step += 1) {
    const next = evaluateBehavior(record, facts);
    if (next === null) break;
    if (!owned) {
      record = structuredClone(record);
      owned = true;
    }
    recordTransition(record, next);
    transitions.push(next);
  }
  return { record, transitions };
}

export type BehavioralStateChangedEvent = EventInput<'BehavioralStateChanged', BehavioralStateChangedData> & {
  id: string;
  schema: number;
};

/**
 * The behavior events due for one entity and the state they lead to. `currentComposite` is its
 * composite as of `now` (the drop rule compares it with the recorded reports); pass it when known.
 */
export function planBehavior(
  credit: CreditState,
  facts: EntityFacts,
  now: Date,
  currentComposite: number = scoreEntity(facts, now).composite_score,
): { events: BehavioralStateChangedEvent[]; record: BehaviorRecord } {
  const entry = credit.entities[facts.entity_id];
  const drops = dropTriggersOf(credit, facts.entity_id, {
    on: dayOf(now),
    composite_score: currentComposite,
  });
  const { record, transitions } = assessBehavior(
    entry?.behavior ?? null,
    behaviorFactsWithDrops(facts, drops, now),
  );
  const offset = entry?.behavior?.transitions.length ?? 0;
  return {
    events: transitions.map((t, i) => behavioralStateChanged(facts.entity_id, t, offset + i)),
    record,
  };
}

/** The `BehavioralStateChanged` events due for one entity by `now`, in order (empty when none). */
export function decideBehavior(
  credit: CreditState,
  facts: EntityFacts,
  now: Date,
): BehavioralStateChangedEvent[] {
  return planBehavior(credit, facts, now).events;
}
