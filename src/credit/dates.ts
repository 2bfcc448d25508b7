/**
 * Calendar-day arithmetic on ISO `YYYY-MM-DD` dates, in UTC, so every credit rule counts days the
 * same way whatever the server's time zone.
 */
import type { IsoDate } from '../projects/facts.js';

const DAY_MS = 86_400_000;

/** The UTC calendar day of an instant. */
export function dayOf(now: Date): IsoDate {
  return now.toISOString().slice(0, 10);
}

/** Day numbers of the dates seen lately: the rules compare the same few dates over and over. */
const dayNumbers = new Map<IsoDate, number>();
const REMEMBERED_DATES = 20_000;

/** Whole days since 1970-01-01 of an ISO date. */
function dayNumber(date: IsoDate): number {
  let n = dayNumbers.get(date);
  if (n === undefined) {
    n = Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
    if (dayNumbers.size >= REMEMBERED_DATES) dayNumbers.clear();
    dayNumbers.set(date, n);
  }
  return n;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return dayNumber(to) - dayNumber(from);
}

export function addDays(date: IsoDate, days: number): IsoDate {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The later of two dates (ISO dates compare correctly as strings). */
export function maxDate(a: IsoDate, b: IsoDate): IsoDate {
  return a >= b ? a : b;
}

export function minDate(a: IsoDate, b: IsoDate): IsoDate {
  return a <= b ? a : b;
}

export function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** One decimal place: the precision every published credit number carries (never −0). */
export function round1(value: number): number {
  return Math.round(value * 10) / 10 + 0;
}

/** Median of a list (mean of the two middle values for an even count); null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
