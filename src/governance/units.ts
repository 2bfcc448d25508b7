/**
 * Calendar and money arithmetic the governance rules share. Dates are ISO `YYYY-MM-DD` compared as
 * UTC calendar days; money is integer cents and is only formatted for finding details.
 */
import type { Cents, IsoDate } from '../projects/facts.js';

const DAY_MS = 86_400_000;

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** Whether two dates fall in the same calendar month. */
export function sameCalendarMonth(a: IsoDate, b: IsoDate): boolean {
  return a.slice(0, 7) === b.slice(0, 7);
}

export function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/** `$1,234.56` (negative as `-$1,234.56`) for finding details. */
export function usd(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/** A percentage rounded to 2 decimals (G703 column H precision). */
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** `part` as a percentage of `whole`, 2 decimals; 0 when `whole` is 0. */
export function percentOf(part: number, whole: number): number {
  return whole === 0 ? 0 : round2((part * 100) / whole);
}

/** The date `days` after `date`. */
export function addDays(date: IsoDate, days: number): IsoDate {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
