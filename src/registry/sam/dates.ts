/**
 * The date spellings SAM uses, to ISO YYYY-MM-DD: MM/DD/YYYY (exclusions extract), YYYYMMDD
 * (entity extract V2), YYYY-MM-DD (Creation_Date, API), MM-DD-YYYY (some API responses).
 * Each returns undefined for text that is not a real calendar date (02/30/2020 included).
 */

function iso(year: string, month: string, day: string): string | undefined {
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  const at = new Date(Date.UTC(y, m - 1, d));
  const real = at.getUTCFullYear() === y && at.getUTCMonth() === m - 1 && at.getUTCDate() === d;
  return real ? `${year}-${month}-${day}` : undefined;
}

const US_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const US_DASHED = /^(\d{2})-(\d{2})-(\d{4})$/;
const COMPACT = /^(\d{4})(\d{2})(\d{2})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function usDateToIso(text: string): string | undefined {
  const m = US_DATE.exec(text.trim());
  return m ? iso(m[3]!, m[1]!, m[2]!) : undefined;
}

export function compactDateToIso(text: string): string | undefined {
  const m = COMPACT.exec(text.trim());
  return m ? iso(m[1]!, m[2]!, m[3]!) : undefined;
}

export function isoDateOrUndefined(text: string): string | undefined {
  const m = ISO_DATE.exec(text.trim());
  return m ? iso(m[1]!, m[2]!, m[3]!) : undefined;
}

/** Any of the four spellings (the API is not consistent across versions). */
export function anySamDateToIso(text: string): string | undefined {
  const t = text.trim();
  const dashed = US_DASHED.exec(t);
  if (dashed) return iso(dashed[3]!, dashed[1]!, dashed[2]!);
  return usDateToIso(t) ?? compactDateToIso(t) ?? isoDateOrUndefined(t.slice(0, 10));
}

/** Julian-dated extract names: `…_20049.zip` is day 49 of 2020 (SAM names exclusion files YYDDD). */
const JULIAN_NAME = /(\d{2})(\d{3})\.(?:csv|zip)$/i;
const MAX_DAY_OF_YEAR = 366;

export function julianNameToIso(fileName: string): string | undefined {
  const m = JULIAN_NAME.exec(fileName);
  if (!m) return undefined;
  const year = 2000 + Number(m[1]);
  const day = Number(m[2]);
  if (day < 1 || day > MAX_DAY_OF_YEAR) return undefined;
  const at = new Date(Date.UTC(year, 0, day));
  return at.getUTCFullYear() === year ? at.toISOString().slice(0, 10) : undefined;
}
