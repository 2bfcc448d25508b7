/**
 * Shared building blocks of the projects contract: money, dates, ids, pagination, and the two
 * cross-field checks every body repeats (unique keys, date order).
 */
import { z } from 'zod';
import { freeText, nameText } from '../platform/http/validate.js';

/** Money: non-negative integer cents within the safe-integer range (DOMAIN preamble). */
export const cents = z.int().min(0);
/** Signed integer cents, for change-order amounts and deltas only. */
export const signedCents = z.int();
/** Percentages are numbers 0–100 (DOMAIN preamble). */
export const percent = z.number().min(0).max(100);
/** `YYYY-MM-DD` that is a real calendar date (zod's ISO date checks month lengths and leap years). */
export const isoDate = z.iso.date();
/** SOV line numbers are positive integers. */
export const lineNo = z.int().min(1).max(1_000_000);
/** One-line text the ledger keeps: no control characters. */
export const shortText = nameText(200);
/** Free text the ledger keeps: tab and newlines allowed, no other control character. */
export const longText = freeText(2000);

const ID_BODY = '[a-z2-7]{16}';
/** An id minted by `idFromUuid(prefix, …)`: the prefix plus 16 base32 characters. */
export const prefixedId = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix.replace(/[-_]/g, '\\$&')}${ID_BODY}$`), `expected a ${prefix}… id`);
/** A registry entity id. */
export const entityId = prefixedId('ent_');

/** Path parameters of the routes (a malformed id answers 404 like an unknown one, SPEC §2). */
export const ProjectIdParam = prefixedId('prj_');
export const DrawIdParam = prefixedId('DRW-');
export const ChangeOrderIdParam = prefixedId('CO-');
export const DocumentIdParam = z.string().regex(/^(WAIV|COI|INSP|TTL|INV|BOS)-[a-z2-7]{16}$/);
export const ObservationIdParam = prefixedId('OBS-');
export const FindingIdParam = prefixedId('FND-');

// ---------------------------------------------------------------------------------------------
// Pagination (SPEC §2: `limit` + opaque `cursor`, responses `{data, next_cursor}`)
// ---------------------------------------------------------------------------------------------

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 500;

/**
 * A cursor is the offset into an append-only, recording-ordered id list, base64url-wrapped so
 * clients treat it as opaque. Lists only grow at the end, so an offset never skips or repeats.
 */
export function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`, 'utf8').toString('base64url');
}

/** The offset a cursor encodes, or null when it is not one of ours. */
export function decodeCursor(cursor: string): number | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^o:(\d{1,9})$/.exec(text);
  return match ? Number(match[1]) : null;
}

/** Query string of every list route; `cursor` is decoded to an offset. */
export const ListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(DEFAULT_PAGE_LIMIT),
  cursor: z
    .string()
    .max(64)
    .refine((c) => decodeCursor(c) !== null, 'unknown cursor')
    .optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;

// ---------------------------------------------------------------------------------------------
// Cross-field checks
// ---------------------------------------------------------------------------------------------

type RefineCtx = z.core.$RefinementCtx;

/** Flags every repeat of a key in an array, at `[array, i, field]` (or `[array, i]`). */
export function checkUnique<T>(
  ctx: RefineCtx,
  items: readonly T[],
  key: (item: T) => string | number,
  array: string,
  field: string | null,
): void {
  const seen = new Set<string | number>();
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) {
      const path = field === null ? [array, i] : [array, i, field];
      ctx.addIssue({ code: 'custom', path, message: `duplicate ${field ?? array} ${String(k)}` });
    }
    seen.add(k);
  });
}

/**
 * Adds an issue when amounts, each within range, sum past 2^53 − 1 cents: a total a double cannot
 * hold exactly (DOMAIN preamble: money is integer cents), so every figure derived from it is off.
 */
export function checkExactTotal(
  ctx: RefineCtx,
  amounts: readonly number[],
  path: (string | number)[],
  what: string,
): void {
  const total = amounts.reduce((a, b) => a + b, 0);
  if (!Number.isSafeInteger(total))
    ctx.addIssue({
      code: 'custom',
      path,
      message: `${what} exceeds ${Number.MAX_SAFE_INTEGER} cents: not exact in integer cents`,
    });
}

/** Flags `later` when it falls before `earlier` (ISO dates compare as strings). */
export function checkDateOrder(
  ctx: RefineCtx,
  earlier: string,
  later: string,
  path: (string | number)[],
  earlierName: string,
): void {
  if (later < earlier) ctx.addIssue({ code: 'custom', path, message: `must not be before ${earlierName}` });
}
