/**
 * Project progress measures shared by the SCHEDULE and WORKFORCE rails: how far through its
 * schedule a project is (time) and how much work its latest pay application claims (DOMAIN §8
 * "draws' % complete vs time"; the same two measures DOMAIN §4 `project` uses).
 */
import type { Draw, IsoDate, Project } from '../projects/facts.js';
import { daysBetween } from './dates.js';

/** The project's latest pay application that was not rejected (highest application number). */
export function latestDraw(project: Project, draws: readonly Draw[]): Draw | undefined {
  return draws
    .filter((d) => d.project_id === project.id && d.status !== 'REJECTED')
    .reduce<Draw | undefined>(
      (best, d) =>
        best === undefined ||
        d.application_no > best.application_no ||
        (d.application_no === best.application_no && d.recorded_seq > best.recorded_seq)
          ? d
          : best,
      undefined,
    );
}

/** Σ G / Σ C × 100 on the latest draw (AIA column H over the whole sheet); 0 before any draw. */
export function workCompletePct(project: Project, draws: readonly Draw[]): number {
  const draw = latestDraw(project, draws);
  if (draw === undefined) return 0;
  const scheduled = draw.lines.reduce((sum, l) => sum + l.scheduled_value, 0);
  const completed = draw.lines.reduce((sum, l) => sum + l.completed_and_stored, 0);
  return scheduled <= 0 ? 0 : (completed * 100) / scheduled;
}

/** Share of the start → completion window elapsed on `today`, 0–100. */
export function timeElapsedPct(project: Project, today: IsoDate): number {
  const elapsed = daysBetween(project.start_date, today);
  if (elapsed <= 0) return 0;
  const planned = daysBetween(project.start_date, project.completion_date);
  if (planned <= 0) return 100;
  return Math.min(100, (elapsed * 100) / planned);
}

/** Work is complete when the latest draw claims the whole contract (≥ 100 %). */
export function isWorkComplete(project: Project, draws: readonly Draw[]): boolean {
  return workCompletePct(project, draws) >= 100;
}
