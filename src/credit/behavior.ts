/**
 * `evaluateBehavior`: the next transition of the behavioral state machine, one step at a time
 * (DOMAIN §5). Every rule proposes its earliest applicable transition on or after the current
 * state's `since` and no later than today; the earliest wins (ties: the more adverse rule), so an
 * entity assessed late walks through its history in order instead of jumping to today's facts.
 *
 * A trigger counts once: it must be dated after `since`, or on `since` without being the cause of a
 * transition that took effect that day.
 */
import type { FindingRecord } from '../governance/findings.js';
import type { IsoDate } from '../projects/facts.js';
import {
  GOOD_STANDING_FUNDED_DRAWS,
  PROBATION_REMEDIATION_GRACE_DAYS,
  QUIET_PERIOD_DAYS,
  REMEDIATION_WINDOW_DAYS,
  SECOND_BLOCKING_WINDOW_DAYS,
  BLOCKING_OPEN_LIMIT_DAYS,
} from './constants.js';
import { addDays, daysBetween, maxDate, minDate } from './dates.js';
import { remediationVelocity } from './remediation.js';
import {
  evidenceDigest,
  STATE_SEVERITY,
  STEP_UP,
  type BehaviorRecord,
  type BehaviorTransition,
  type BehavioralState,
} from './state-machine.js';
import { idOf, type BehaviorFacts, type Trigger, type TriggerKind } from './triggers.js';

type Rule = (record: BehaviorRecord, facts: BehaviorFacts) => BehaviorTransition | null;

/** Whether a trigger is new to the current state (see module comment). */
export function isFresh(record: BehaviorRecord, trigger: Trigger): boolean {
  if (trigger.on > record.since) return true;
  if (trigger.on < record.since) return false;
  const first = trigger.evidence[0];
  if (first === undefined) return true;
  const digest = evidenceDigest(first.kind, first.id);
  return !record.transitions.some(
    (t) => t.effective_on === record.since && t.cause.evidence_sha256.includes(digest),
  );
}

function earliestFresh(
  record: BehaviorRecord,
  facts: BehaviorFacts,
  kinds: readonly TriggerKind[],
): Trigger | undefined {
  return facts.triggers.find((t) => kinds.includes(t.kind) && isFresh(record, t));
}

function fromTrigger(record: BehaviorRecord, to: BehavioralState, trigger: Trigger): BehaviorTransition {
  return {
    from: record.state,
    to,
    cause: { code: trigger.kind, detail: trigger.detail, evidence: trigger.evidence },
    effective_on: trigger.on,
  };
}

/** any → SUSPENDED on an active registry exclusion. */
const suspend: Rule = (record, facts) => {
  const { registry } = facts;
  if (record.state === 'SUSPENDED' || registry.exclusions !== 'excluded') return null;
  const since = registry.exclusion_active_since ?? registry.checked_at.slice(0, 10);
  return {
    from: record.state,
    to: 'SUSPENDED',
    cause: {
      code: 'REGISTRY_EXCLUSION',
      detail: `active federal exclusion since ${since}`,
      evidence: [{ kind: 'registry_check', id: registry.checked_at }],
    },
    effective_on: minDate(maxDate(record.since, since), facts.today),
  };
};

/** SUSPENDED → PROBATION when the exclusion terminates. */
const reinstate: Rule = (record, facts) => {
  const { registry } = facts;
  if (record.state !== 'SUSPENDED' || registry.exclusions !== 'clear') return null;
  const ended = registry.exclusion_terminated_on ?? registry.checked_at.slice(0, 10);
  return {
    from: record.state,
    to: 'PROBATION',
    cause: {
      code: 'EXCLUSION_TERMINATED',
      detail: `federal exclusion terminated on ${ended}`,
      evidence: [{ kind: 'registry_check', id: registry.checked_at }],
    },
    effective_on: minDate(maxDate(record.since, ended), facts.today),
  };
};

/** PROBATION → RESTRICTED on a BLOCKING finding within 90 days of another one. */
function secondBlocking(record: BehaviorRecord, facts: BehaviorFacts): BehaviorTransition | null {
  const blocking = facts.findings.filter((f) => f.severity === 'BLOCKING');
  for (const trigger of facts.triggers) {
    if (trigger.kind !== 'BLOCKING_FINDING' || !isFresh(record, trigger)) continue;
    const first = blocking.find(
      (f) =>
        `finding:${f.id}` !== idOf(trigger) &&
        f.opened_on <= trigger.on &&
        daysBetween(f.opened_on, trigger.on) <= SECOND_BLOCKING_WINDOW_DAYS,
    );
    if (first === undefined) continue;
    const transition = fromTrigger(record, 'RESTRICTED', trigger);
    transition.cause = {
      code: 'SECOND_BLOCKING_FINDING',
      detail: `${trigger.detail}, within ${SECOND_BLOCKING_WINDOW_DAYS} days of BLOCKING ${first.code} opened ${first.opened_on}`,
      evidence: [...trigger.evidence, { kind: 'finding', id: first.id }],
    };
    return transition;
  }
  return null;
}

/** The days remediation velocity can change on (openings, cures, the 30-day and 365-day marks). */
function velocityChangeDays(findings: readonly FindingRecord[], from: IsoDate, to: IsoDate): IsoDate[] {
  const days = new Set<IsoDate>([from]);
  for (const f of findings) {
    days.add(f.opened_on);
    days.add(addDays(f.opened_on, BLOCKING_OPEN_LIMIT_DAYS + 1));
    days.add(addDays(f.opened_on, REMEDIATION_WINDOW_DAYS));
    if (f.resolved_on !== null) days.add(f.resolved_on);
  }
  return [...days].filter((d) => d >= from && d <= to).sort();
}

/** PROBATION → RESTRICTED when remediation is NON_RESPONSIVE, judged after a 30-day grace. */
function nonResponsive(record: BehaviorRecord, facts: BehaviorFacts): BehaviorTransition | null {
  const from = addDays(record.since, PROBATION_REMEDIATION_GRACE_DAYS);
  for (const day of velocityChangeDays(facts.findings, from, facts.today)) {
    const remediation = remediationVelocity(facts.findings, day);
    if (remediation.velocity !== 'NON_RESPONSIVE') continue;
    const open = facts.findings.filter(
      (f) => f.opened_on <= day && (f.resolved_on === null || f.resolved_on > day),
    );
    return {
      from: record.state,
      to: 'RESTRICTED',
      cause: {
        code: 'REMEDIATION_NON_RESPONSIVE',
        detail: `remediation NON_RESPONSIVE on ${day}: ${remediation.open_findings} open, ${remediation.resolved_findings} resolved`,
        evidence: open.map((f) => ({ kind: 'finding', id: f.id })),
      },
      effective_on: day,
    };
  }
  return null;
}

const restrict: Rule = (record, facts) => {
  if (record.state !== 'PROBATION') return null;
  return earliest([secondBlocking(record, facts), nonResponsive(record, facts)]);
};

/** any → PROBATION on a BLOCKING finding, an insurance lapse or a serious/willful citation. */
const probation: Rule = (record, facts) => {
  if (STATE_SEVERITY[record.state] >= STATE_SEVERITY.PROBATION) return null;
  const trigger = earliestFresh(record, facts, ['BLOCKING_FINDING', 'INSURANCE_LAPSE', 'SERIOUS_CITATION']);
  return trigger === undefined ? null : fromTrigger(record, 'PROBATION', trigger);
};

/** any → WATCH on a WARNING open > 14 days or a composite drop ≥ 10 in 30 days. */
const watch: Rule = (record, facts) => {
  if (STATE_SEVERITY[record.state] >= STATE_SEVERITY.WATCH) return null;
  const trigger = earliestFresh(record, facts, ['WARNING_OPEN', 'COMPOSITE_DROP']);
  return trigger === undefined ? null : fromTrigger(record, 'WATCH', trigger);
};

/** One step back up after 90 days in the state without a new finding. */
const stepUp: Rule = (record, facts) => {
  const to = STEP_UP[record.state];
  if (to === undefined) return null;
  const lastNew = facts.findings.map((f) => f.opened_on).reduce((a, b) => maxDate(a, b), record.since);
  return {
    from: record.state,
    to,
    cause: {
      code: 'QUIET_PERIOD',
      detail: `${QUIET_PERIOD_DAYS} days without a new finding since ${lastNew}`,
      evidence: [{ kind: 'quiet_period', id: lastNew }],
    },
    effective_on: addDays(lastNew, QUIET_PERIOD_DAYS),
  };
};

/** PROVISIONAL → GOOD_STANDING after 3 funded draws without a BLOCKING finding. */
const goodStanding: Rule = (record, facts) => {
  const third = facts.clean_funded_draws[GOOD_STANDING_FUNDED_DRAWS - 1];
  if (record.state !== 'PROVISIONAL' || third === undefined) return null;
  const draws = facts.clean_funded_draws.slice(0, GOOD_STANDING_FUNDED_DRAWS);
  return {
    from: record.state,
    to: 'GOOD_STANDING',
    cause: {
      code: 'CLEAN_FUNDED_DRAWS',
      detail: `${GOOD_STANDING_FUNDED_DRAWS} funded draws without a BLOCKING finding`,
      evidence: draws.map((d) => ({ kind: 'draw', id: d.draw_id })),
    },
    effective_on: maxDate(record.since, third.on),
  };
};

/** Rules from most to least adverse: on the same day the earlier one in this list wins. */
export const BEHAVIOR_RULES: readonly Rule[] = [
  suspend,
  reinstate,
  restrict,
  probation,
  watch,
  stepUp,
  goodStanding,
];

function earliest(candidates: readonly (BehaviorTransition | null)[]): BehaviorTransition | null {
  let best: BehaviorTransition | null = null;
  for (const c of candidates)
    if (c !== null && (best === null || c.effective_on < best.effective_on)) best = c;
  return best;
}

/** The next transition due by today, or null when the state holds (DOMAIN §5; callers loop). */
export function evaluateBehavior(record: BehaviorRecord, facts: BehaviorFacts): BehaviorTransition | null {
  const due = BEHAVIOR_RULES.map((rule) => rule(record, facts)).map((t) =>
    t !== null && t.effective_on >= record.since && t.effective_on <= facts.today ? t : null,
  );
  return earliest(due);
}
