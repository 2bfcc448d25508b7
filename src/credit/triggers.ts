/**
 * The dated facts the behavioral state machine reacts to, computed once per assessment: BLOCKING
 * findings, WARNINGs open > 14 days, insurance lapses, serious/willful citations, composite drops,
 * clean funded draws and the registry status (DOMAIN §5). Each trigger carries the day it occurred,
 * so transitions take effect on that day even when assessed later.
 */
import type { Evidence, FindingRecord } from '../governance/findings.js';
import type { IsoDate } from '../projects/facts.js';
import { COMPOSITE_DROP_POINTS, COMPOSITE_DROP_WINDOW_DAYS, WARNING_OPEN_LIMIT_DAYS } from './constants.js';
import { addDays, dayOf, daysBetween } from './dates.js';
import { observationsOf } from './dimensions/safety-record.js';
import { rememberedContext } from './gather.js';
import { derived, DERIVATION, resolvedBy, type EntityFacts, type RegistryStatus } from './inputs.js';
import { coverageWindows } from './insurance.js';
import { billedOn } from './participation.js';
import { fundedDraws, type SignalContext } from './signals.js';

export const TRIGGER_KINDS = [
  'BLOCKING_FINDING',
  'WARNING_OPEN',
  'INSURANCE_LAPSE',
  'SERIOUS_CITATION',
  'COMPOSITE_DROP',
] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

export interface Trigger {
  kind: TriggerKind;
  on: IsoDate;
  detail: string;
  /** The first item identifies the trigger (a finding, an observation, a coverage gap, a score). */
  evidence: Evidence[];
}

/** The identity of a trigger: its first evidence item. */
export function idOf(trigger: Trigger): string {
  const first = trigger.evidence[0];
  return first === undefined ? '' : `${first.kind}:${first.id}`;
}

/** A composite score on a day: recorded reports plus the score computed at assessment. */
export interface ScorePoint {
  on: IsoDate;
  composite_score: number;
}

/** Everything the state machine's rules read, as of `today`. */
export interface BehaviorFacts {
  today: IsoDate;
  /** The first day the entity appears in the facts: when it became PROVISIONAL. */
  first_seen: IsoDate;
  triggers: Trigger[];
  /** Findings attributed to the entity, opened by today. */
  findings: FindingRecord[];
  /** Funding days of draws it billed on without a BLOCKING finding attributed to it, ascending. */
  clean_funded_draws: { on: IsoDate; draw_id: string }[];
  registry: RegistryStatus;
}

function findingTriggers(findings: readonly FindingRecord[], today: IsoDate): Trigger[] {
  return findings.flatMap((f): Trigger[] => {
    const evidence = [{ kind: 'finding', id: f.id }];
    if (f.severity === 'BLOCKING') {
      return [
        { kind: 'BLOCKING_FINDING', on: f.opened_on, detail: `BLOCKING ${f.code}: ${f.title}`, evidence },
      ];
    }
    const end = resolvedBy(f, today) ? f.resolved_on! : today;
    if (daysBetween(f.opened_on, end) <= WARNING_OPEN_LIMIT_DAYS) return [];
    const on = addDays(f.opened_on, WARNING_OPEN_LIMIT_DAYS + 1);
    const detail = `WARNING ${f.code} open more than ${WARNING_OPEN_LIMIT_DAYS} days: ${f.title}`;
    return [{ kind: 'WARNING_OPEN', on, detail, evidence }];
  });
}

function lapseTriggers(ctx: SignalContext): Trigger[] {
  return coverageWindows(ctx.facts.projects, ctx.gc, ctx.facts.entity_id, ctx.today).flatMap((w) =>
    w.gaps.map((gap): Trigger => ({
      kind: 'INSURANCE_LAPSE',
      on: gap.from,
      detail: `${w.coverage} coverage on ${w.project_id} not in force from ${gap.from}`,
      evidence: [
        { kind: 'coverage_gap', id: `${w.project_id}:${w.coverage}:${gap.from}` },
        { kind: 'project', id: w.project_id },
      ],
    })),
  );
}

function citationTriggers(ctx: SignalContext): Trigger[] {
  // A loop, not a flatMap: a busy GC's list holds ~1,300 observations and a handful of citations,
  // and this runs again at each site observation of the entity.
  const out: Trigger[] = [];
  for (const o of observationsOf(ctx)) {
    if (o.kind !== 'osha_citation' || (o.type !== 'S' && o.type !== 'W')) continue;
    out.push({
      kind: 'SERIOUS_CITATION',
      on: o.observed_on,
      detail: `${o.type === 'S' ? 'Serious' : 'Willful'} OSHA citation ${o.activity_nr}`,
      evidence: [{ kind: 'observation', id: o.id }],
    });
  }
  return out;
}

/**
 * The drop rule's running state over score points taken in day order: the triggers so far and the
 * candidates for the maximum of the last 30 days (scores strictly decreasing, a sliding-window
 * maximum). Every issued report is a point, so a much-inquired entity has thousands; this keeps the
 * rule linear in a batch and constant per point in the credit read model, which folds one per report.
 */
export interface DropWatch {
  triggers: Trigger[];
  peaks: ScorePoint[];
  /** The day of the last point taken (points must come in day order). */
  last_on: IsoDate | null;
}

export function newDropWatch(): DropWatch {
  return { triggers: [], peaks: [], last_on: null };
}

/** Peaks still within the window of a point on `day` (the front is the window's maximum). */
function livePeaks(peaks: readonly ScorePoint[], day: IsoDate): ScorePoint[] {
  let head = 0;
  while (head < peaks.length && daysBetween(peaks[head]!.on, day) > COMPOSITE_DROP_WINDOW_DAYS) head += 1;
  return head === 0 ? (peaks as ScorePoint[]) : peaks.slice(head);
}

/** The trigger a point on `point.on` fires against the peaks before it, if any. */
function dropAt(peaks: readonly ScorePoint[], point: ScorePoint): Trigger | null {
  const peak = peaks[0]?.composite_score;
  // In whole tenths, the precision scores are printed in: 70.1 − 60.1 is 9.999999999999993 in
  // binary floating point, and a drop of 10 points as printed must fire.
  if (peak === undefined || Math.round((peak - point.composite_score) * 10) < COMPOSITE_DROP_POINTS * 10)
    return null;
  return {
    kind: 'COMPOSITE_DROP',
    on: point.on,
    detail: `composite fell from ${peak} to ${point.composite_score} within ${COMPOSITE_DROP_WINDOW_DAYS} days`,
    evidence: [{ kind: 'credit_score', id: point.on }],
  };
}

/** Takes the next point (on or after the last one's day) into the watch, in place. */
export function watchScore(watch: DropWatch, point: ScorePoint): void {
  const peaks = livePeaks(watch.peaks, point.on);
  const trigger = dropAt(peaks, point);
  if (trigger) watch.triggers.push(trigger);
  while (peaks.length > 0 && peaks[peaks.length - 1]!.composite_score <= point.composite_score) peaks.pop();
  peaks.push({ on: point.on, composite_score: point.composite_score });
  watch.peaks = peaks;
  watch.last_on = point.on;
}

/**
 * The triggers of the watched points followed by one more (the score computed at an assessment),
 * without changing the watch: what `compositeDropTriggers` gives for the watched points plus it.
 */
export function dropsWith(watch: DropWatch, point: ScorePoint): Trigger[] {
  const trigger = dropAt(livePeaks(watch.peaks, point.on), point);
  return trigger ? [...watch.triggers, trigger] : watch.triggers;
}

/** A drop of ≥ 10 points from any score of the 30 days before a later score (DOMAIN §5). */
export function compositeDropTriggers(points: readonly ScorePoint[]): Trigger[] {
  // ISO dates order as plain strings; a stable sort keeps same-day reports in issue order.
  const sorted = [...points].sort((a, b) => (a.on < b.on ? -1 : a.on > b.on ? 1 : 0));
  const watch = newDropWatch();
  for (const point of sorted) watchScore(watch, point);
  return watch.triggers;
}

function cleanFundedDraws(ctx: SignalContext): { on: IsoDate; draw_id: string }[] {
  const blocked = new Set(ctx.findings.filter((f) => f.severity === 'BLOCKING').map((f) => f.draw_id));
  return ctx.participation
    .flatMap((p) =>
      fundedDraws(ctx.facts.projects, p.project)
        .filter(
          (d) =>
            d.funded_on <= ctx.today && billedOn(p.project, d, ctx.facts.entity_id) && !blocked.has(d.id),
        )
        .map((d) => ({ on: d.funded_on, draw_id: d.id })),
    )
    .sort((a, b) => a.on.localeCompare(b.on) || a.draw_id.localeCompare(b.draw_id));
}

/** The earliest day among today, the entity's projects, its findings and `triggers` (observations apart). */
function firstFactDay(ctx: SignalContext, triggers: readonly Trigger[]): IsoDate {
  const days = [
    ctx.today,
    ...ctx.participation.flatMap((p) => [p.project.start_date, p.project.registered_at.slice(0, 10)]),
    ...ctx.findings.map((f) => f.opened_on),
    ...triggers.map((t) => t.on),
  ];
  return days.reduce((a, b) => (b < a ? b : a));
}

/** What the state machine reads that depends only on the facts and the day, not on score history. */
interface FactsBasis {
  today: IsoDate;
  first_fact_day: IsoDate;
  /** Finding, lapse and citation triggers, in that order and unsorted. */
  triggers: Trigger[];
  findings: FindingRecord[];
  clean_funded_draws: { on: IsoDate; draw_id: string }[];
}

function factsBasis(facts: EntityFacts, now: Date): FactsBasis {
  const ctx = rememberedContext(facts, now);
  // What no observation changes — the finding and insurance-lapse triggers, the clean funded draws —
  // is remembered apart (a site observation of the entity forgets the basis, not this part): the
  // coverage windows of a big GC's insurance certificates were half of the basis's recomputation.
  const standing = derived(facts, `${DERIVATION.standing}${ctx.today}`, () => {
    const triggers = [...findingTriggers(ctx.findings, ctx.today), ...lapseTriggers(ctx)];
    return { triggers, first_day: firstFactDay(ctx, triggers), clean_funded_draws: cleanFundedDraws(ctx) };
  });
  const citations = citationTriggers(ctx);
  // The earliest of the standing part's first day, the observations' and the citations' days.
  let first = standing.first_day;
  for (const o of observationsOf(ctx)) if (o.observed_on < first) first = o.observed_on;
  for (const t of citations) if (t.on < first) first = t.on;
  return {
    today: ctx.today,
    first_fact_day: first,
    triggers: [...standing.triggers, ...citations],
    findings: ctx.findings,
    clean_funded_draws: standing.clean_funded_draws,
  };
}

/** The state machine's view of one entity as of `now`, given its composite score history. */
export function behaviorFacts(facts: EntityFacts, scores: readonly ScorePoint[], now: Date): BehaviorFacts {
  const today = dayOf(now);
  return behaviorFactsWithDrops(facts, compositeDropTriggers(scores.filter((s) => s.on <= today)), now);
}

/** The same, given the composite drop triggers already found (see `DropWatch`). */
export function behaviorFactsWithDrops(
  facts: EntityFacts,
  drops: readonly Trigger[],
  now: Date,
): BehaviorFacts {
  const basis = derived(facts, `${DERIVATION.behavior}${dayOf(now)}`, () => factsBasis(facts, now));
  const triggers = [...basis.triggers, ...drops].sort(
    (a, b) => a.on.localeCompare(b.on) || a.kind.localeCompare(b.kind) || idOf(a).localeCompare(idOf(b)),
  );
  return {
    today: basis.today,
    first_seen: drops.reduce((a, t) => (t.on < a ? t.on : a), basis.first_fact_day),
    triggers,
    findings: [...basis.findings],
    clean_funded_draws: [...basis.clean_funded_draws],
    registry: facts.registry,
  };
}
