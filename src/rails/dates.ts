/**
 * Calendar arithmetic on ISO `YYYY-MM-DD` dates, in UTC, so a rail's answer never depends on the
 * host's time zone. ISO dates compare correctly as strings; these helpers only count days.
 */
import type { IsoDate } from '../projects/facts.js';

const MS_PER_DAY = 86_400_000;

/** The UTC calendar day of `now`. */
export function dayOf(now: Date): IsoDate {
  return now.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / MS_PER_DAY);
}

export function addDays(day: IsoDate, days: number): IsoDate {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * MS_PER_DAY).toISOString().slice(0, 10);
}

/** The later of two dates. */
export function laterOf(a: IsoDate, b: IsoDate): IsoDate {
  return a >= b ? a : b;
}

/** The latest of some dates; null for none. */
export function latestOf(days: readonly IsoDate[]): IsoDate | null {
  return days.reduce<IsoDate | null>((latest, d) => (latest === null ? d : laterOf(latest, d)), null);
}
