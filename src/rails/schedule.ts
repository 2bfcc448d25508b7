/**
 * SCHEDULE rail (DOMAIN §8): milestone slippage, pace of work against time, projects past their
 * completion date. Findings are attributed to the GC, whose schedule performance they measure
 * (DOMAIN §5 `schedule_performance`).
 */
import type { Draw, IsoDate, Milestone, Project } from '../projects/facts.js';
import { dayOf, daysBetween } from './dates.js';
import { finding, type Evidence, type RailFinding } from './findings.js';
import { observationsOf } from './observations.js';
import { isWorkComplete, latestDraw, timeElapsedPct, workCompletePct } from './progress.js';
import { RAIL_PATHS, type Rail, type RailFacts } from './rail.js';
import { evaluateWith, type FactCheck } from './coverage.js';
import { exceeds } from './thresholds.js';

/** DOMAIN §8: a milestone reached (or still open) more than 30 days after it was due. */
export const SCHEDULE_SLIPPAGE_DAYS = 30;
/** DOMAIN §8: time elapsed % exceeding work complete % by more than 15 points. */
export const SCHEDULE_PACE_LAG_POINTS = 15;

function milestoneEvidence(facts: RailFacts, project: Project, m: Milestone): Evidence[] {
  const reached = observationsOf(facts, 'milestone').filter(
    (o) => o.project_id === project.id && o.name === m.name,
  );
  return [
    { kind: 'project', id: project.id },
    ...reached.map((o) => ({ kind: 'observation' as const, id: o.id })),
  ];
}

function slippage(facts: RailFacts, project: Project, today: IsoDate): RailFinding[] {
  return project.milestones.flatMap((m) => {
    const slip = daysBetween(m.due_on, m.completed_on ?? today);
    if (slip <= SCHEDULE_SLIPPAGE_DAYS) return [];
    const state = m.completed_on === null ? 'still open' : `reached on ${m.completed_on}`;
    return [
      finding('SCHEDULE_SLIPPAGE', 'WARNING', {
        project_id: project.id,
        entity_id: project.general_contractor,
        title: `Milestone "${m.name}" slipped`,
        detail: `Due on ${m.due_on}, ${state}: ${slip} days late (limit ${SCHEDULE_SLIPPAGE_DAYS}).`,
        evidence: milestoneEvidence(facts, project, m),
        observed_on: m.completed_on ?? today,
      }),
    ];
  });
}

function progressEvidence(project: Project, draw: Draw | undefined): Evidence[] {
  const evidence: Evidence[] = [{ kind: 'project', id: project.id }];
  return draw === undefined ? evidence : [...evidence, { kind: 'draw', id: draw.id }];
}

/** Past completion the whole shortfall is reported as overdue, so pace lag is not added on top. */
function paceAndOverdue(facts: RailFacts, project: Project, today: IsoDate): RailFinding[] {
  if (isWorkComplete(project, facts.draws)) return [];
  const complete = workCompletePct(project, facts.draws);
  const common = {
    project_id: project.id,
    entity_id: project.general_contractor,
    evidence: progressEvidence(project, latestDraw(project, facts.draws)),
    observed_on: today,
  };
  const overdueDays = daysBetween(project.completion_date, today);
  if (overdueDays > 0) {
    const detail = `Completion was due on ${project.completion_date}, ${overdueDays} days ago; work complete ${complete.toFixed(1)} %.`;
    return [
      finding('SCHEDULE_OVERDUE', 'CRITICAL', {
        ...common,
        title: 'Project past its completion date',
        detail,
      }),
    ];
  }
  const elapsed = timeElapsedPct(project, today);
  // Settled before the limit (thresholds.ts): 16.6 % elapsed − 1.6 % complete is
  // 15.000000000000002 in binary, which read as "more than 15 points".
  const lag = elapsed - complete;
  if (!exceeds(lag, SCHEDULE_PACE_LAG_POINTS)) return [];
  const detail = `Time elapsed ${elapsed.toFixed(1)} % vs work complete ${complete.toFixed(1)} %: ${lag.toFixed(1)} points behind (limit ${SCHEDULE_PACE_LAG_POINTS}).`;
  return [finding('SCHEDULE_PACE_LAG', 'WARNING', { ...common, title: 'Work pace behind schedule', detail })];
}

export function scheduleFindings(facts: RailFacts, now: Date): RailFinding[] {
  const today = dayOf(now);
  return facts.projects.flatMap((p) => [...slippage(facts, p, today), ...paceAndOverdue(facts, p, today)]);
}

/** The facts the SCHEDULE rail reads (DOMAIN §8 table): none of them → INSUFFICIENT_DATA. */
export const SCHEDULE_FACTS: readonly FactCheck[] = [
  { name: 'draws', present: (facts) => facts.draws.length > 0 },
  { name: 'milestones', present: (facts) => facts.projects.some((p) => p.milestones.length > 0) },
];

export const SCHEDULE_RAIL: Rail = {
  name: 'SCHEDULE',
  path: RAIL_PATHS.SCHEDULE,
  evaluate: evaluateWith('SCHEDULE', SCHEDULE_FACTS, scheduleFindings),
};
