/**
 * The dated facts the behavioral state machine reacts to, computed once per assessment: BLOCKING
 * findings, WARNINGs open > 14 days, insurance lapses, serious/willful citations, composite drops,
 * clean funded draws and the registry status (DOMAIN §5). Each trigger carries the day it occurred,
 * so transitions take effect on that day even when assessed later.
 */
import type { Evidence, FindingRecord } from '../governance/findings.js';
import type { IsoDate } from '../projects/facts.js';
import { COMPOSITE_DROP_POINTS, COMPOSITE_DROP_WINDOW_DAYS, WARNING_OPEN_LIMIT_DAYS } from './constants.js';
import { addDays, daysBetween } from './dates.js';
import { observationsOf } from './dimensions/safety-record.js';
import { signalContext } from './gather.js';
import { resolvedBy, type EntityFacts, type RegistryStatus } from './inputs.js';
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
  return observationsOf(ctx).flatMap((o): Trigger[] =>
    o.kind === 'osha_citation' && (o.type === 'S' || o.type === 'W')
      ? [
          {
            kind: 'SERIOUS_CITATION',
            on: o.observed_on,
            detail: `${o.type === 'S' ? 'Serious' : 'Willful'} OSHA citation ${o.activity_nr}`,
            evidence: [{ kind: 'observation', id: o.id }],
          },
        ]
      : [],
  );
}

/** A drop of ≥ 10 points from any score of the 30 days before a later score (DOMAIN §5). */
export function compositeDropTriggers(points: readonly ScorePoint[]): Trigger[] {
  const sorted = [...points].sort((a, b) => a.on.localeCompare(b.on));
  const out: Trigger[] = [];
  sorted.forEach((point, i) => {
    const window = sorted
      .slice(0, i)
      .filter((p) => daysBetween(p.on, point.on) <= COMPOSITE_DROP_WINDOW_DAYS);
    const peak = Math.max(...window.map((p) => p.composite_score));
    if (window.length === 0 || peak - point.composite_score < COMPOSITE_DROP_POINTS) return;
    out.push({
      kind: 'COMPOSITE_DROP',
      on: point.on,
      detail: `composite fell from ${peak} to ${point.composite_score} within ${COMPOSITE_DROP_WINDOW_DAYS} days`,
      evidence: [{ kind: 'credit_score', id: point.on }],
    });
  });
  return out;
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

function firstSeen(ctx: SignalContext, triggers: readonly Trigger[]): IsoDate {
  const days = [
    ctx.today,
    ...ctx.participation.flatMap((p) => [p.project.start_date, p.project.registered_at.slice(0, 10)]),
    ...ctx.findings.map((f) => f.opened_on),
    ...observationsOf(ctx).map((o) => o.observed_on),
    ...triggers.map((t) => t.on),
  ];
  return days.reduce((a, b) => (b < a ? b : a));
}

/** The state machine's view of one entity as of `now`, given its composite score history. */
export function behaviorFacts(facts: EntityFacts, scores: readonly ScorePoint[], now: Date): BehaviorFacts {
  const ctx = signalContext(facts, now);
  const triggers = [
    ...findingTriggers(ctx.findings, ctx.today),
    ...lapseTriggers(ctx),
    ...citationTriggers(ctx),
    ...compositeDropTriggers(scores.filter((s) => s.on <= ctx.today)),
  ].sort(
    (a, b) => a.on.localeCompare(b.on) || a.kind.localeCompare(b.kind) || idOf(a).localeCompare(idOf(b)),
  );
  return {
    today: ctx.today,
    first_seen: firstSeen(ctx, triggers),
    triggers,
    findings: ctx.findings,
    clean_funded_draws: cleanFundedDraws(ctx),
    registry: facts.registry,
  };
}
