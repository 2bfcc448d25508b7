/**
 * schedule_performance (DOMAIN §5, weight 15): milestone slippage and pace lag on the projects the
 * entity is GC of (the schedule is the GC's to keep).
 *
 * Score = 100 − SP01 − SP02, clamped to 0–100, where
 * - SP01 = 40 × weighted mean over milestones due or completed of clamp(days late / 60, 0, 1)
 *          (an open overdue milestone is as late as it is so far);
 * - SP02 = 40 × weighted mean over its draws of clamp((time-elapsed % − work-complete %) / 30, 0, 1)
 *          at the draw's period end.
 */
import type { Draw, Project } from '../../projects/facts.js';
import { MILESTONE_FULL_SLIP_DAYS, PACE_LAG_FULL_POINTS } from '../constants.js';
import { clamp, daysBetween } from '../dates.js';
import { drawsOf, makeSignal, type Signal, type SignalContext } from '../signals.js';

function milestoneSignals(ctx: SignalContext, project: Project): Signal[] {
  const out: Signal[] = [];
  for (const m of project.milestones) {
    const completed = m.completed_on !== null && m.completed_on <= ctx.today ? m.completed_on : null;
    if (completed === null && m.due_on > ctx.today) continue;
    const slip = daysBetween(m.due_on, completed ?? ctx.today);
    const share = clamp(slip / MILESTONE_FULL_SLIP_DAYS, 0, 1);
    const evidence = [{ kind: 'milestone', id: `${project.id}:${m.name}` }];
    out.push(makeSignal(ctx, 'SP01', 'share', share, completed ?? ctx.today, project.id, evidence));
  }
  return out;
}

/** Time-elapsed % minus work-complete % at the draw's period end, never below 0 (DOMAIN §4, §8). */
export function paceLag(project: Project, draw: Draw): number {
  const span = daysBetween(project.start_date, project.completion_date);
  const elapsed =
    span <= 0 ? 100 : clamp((daysBetween(project.start_date, draw.period_to) / span) * 100, 0, 100);
  const scheduled = draw.summary.contract_sum_to_date;
  const complete = scheduled > 0 ? (draw.summary.total_completed_and_stored / scheduled) * 100 : 0;
  return Math.max(0, elapsed - complete);
}

function paceSignals(ctx: SignalContext, project: Project): Signal[] {
  return drawsOf(ctx.facts.projects, project.id)
    .filter((d) => d.status !== 'REJECTED' && d.period_to <= ctx.today)
    .map((draw) => {
      const share = clamp(paceLag(project, draw) / PACE_LAG_FULL_POINTS, 0, 1);
      return makeSignal(ctx, 'SP02', 'share', share, draw.period_to, project.id, [
        { kind: 'draw', id: draw.id },
      ]);
    });
}

export function schedulePerformanceSignals(ctx: SignalContext): Signal[] {
  return ctx.gc.flatMap((project) => [...milestoneSignals(ctx, project), ...paceSignals(ctx, project)]);
}
