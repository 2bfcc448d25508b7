/**
 * Calendar arithmetic for the demo timeline, in UTC days and calendar months. Pay applications
 * cover calendar months (AIA practice), so months are first-class here: `'2026-05'`.
 */

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` plus `days` (negative goes back). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysFrom(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

export function minDate(a: string, b: string): string {
  return a <= b ? a : b;
}

export function maxDate(a: string, b: string): string {
  return a >= b ? a : b;
}

/** The month (`YYYY-MM`) of a date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/** `YYYY-MM` plus `months`. */
export function addMonths(month: string, months: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

export function monthStart(month: string): string {
  return `${month}-01`;
}

export function monthEnd(month: string): string {
  return addDays(monthStart(addMonths(month, 1)), -1);
}

/**
 * The latest month whose pay application can already be fully documented on `today`: the month
 * before, once the 13th is reached (submission on the 5th, signatures, inspection and title
 * date-down take a week), else the month before that.
 */
export function lastClosedMonth(today: string): string {
  const day = Number(today.slice(8, 10));
  return addMonths(monthOf(today), day >= 13 ? -1 : -2);
}
