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

/** Σ G and Σ C in cents on the latest draw; null before any draw. */
function sheetTotals(
  project: Project,
  draws: readonly Draw[],
): { scheduled: number; completed: number } | null {
  const draw = latestDraw(project, draws);
  if (draw === undefined) return null;
  return {
    scheduled: draw.lines.reduce((sum, l) => sum + l.scheduled_value, 0),
    completed: draw.lines.reduce((sum, l) => sum + l.completed_and_stored, 0),
  };
}

/** Σ G / Σ C × 100 on the latest draw (AIA column H over the whole sheet); 0 before any draw. */
export function workCompletePct(project: Project, draws: readonly Draw[]): number {
  const totals = sheetTotals(project, draws);
  if (totals === null || totals.scheduled <= 0) return 0;
  return (totals.completed * 100) / totals.scheduled;
}

/** Share of the start → completion window elapsed on `today`, 0–100. */
export function timeElapsedPct(project: Project, today: IsoDate): number {
  const elapsed = daysBetween(project.start_date, today);
  if (elapsed <= 0) return 0;
  const planned = daysBetween(project.start_date, project.completion_date);
  if (planned <= 0) return 100;
  return Math.min(100, (elapsed * 100) / planned);
}

/**
 * Work is complete when the latest draw claims the whole contract (Σ G ≥ Σ C). Decided on the
 * cents, not on the percentage: past 2^53 / 100 cents, G × 100 is rounded, so a sheet billed in
 * full (G = C = 1,064,151,112,208,898) read 99.99999999999999 % and its project stayed open.
 */
export function isWorkComplete(project: Project, draws: readonly Draw[]): boolean {
  const totals = sheetTotals(project, draws);
  return totals !== null && totals.scheduled > 0 && totals.completed >= totals.scheduled;
}
