/**
 * Request validation with zod `safeParse` (STYLE rule 5): a failure is a 400 INVALID_REQUEST whose
 * `errors` list every issue with its path; unknown fields fail because schemas are strict. Plus
 * the shared text schemas every contract uses for what the immutable ledger keeps.
 */
import { z } from 'zod';
import { fieldIssues, ProblemError } from './problem.js';

export function parseWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: 'body' | 'query' | 'params' = 'body',
): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = fieldIssues(result.error.issues);
  const first = errors[0];
  const detail = first
    ? `${where}${first.path ? `.${first.path}` : ''}: ${first.message}`
    : `invalid ${where}`;
  throw new ProblemError('INVALID_REQUEST', detail, { errors });
}

/** C0 controls, DEL and C1 controls: never part of a name (issue 13 item 8). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, less tab, line feed and carriage return, which free text may hold. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_BUT_LAYOUT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * A name or other one-line text the ledger keeps (legal names, titles, numbers): trimmed, 1 to
 * `max` characters, no control character at all — a NUL or BEL written into an immutable ledger
 * stays there, and breaks every log, CSV and terminal that shows it.
 */
export const nameText = (max = 200) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((v) => !CONTROL.test(v), { error: 'must not contain control characters' });

/** Free text the ledger keeps (descriptions, reasons): as {@link nameText}, but tab and newlines allowed. */
export const freeText = (max = 2000) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((v) => !CONTROL_BUT_LAYOUT.test(v), {
      error: 'must not contain control characters (tab and newline are allowed)',
    });

/**
 * A ledger position in a path or query (a seq, a tree size): decimal digits only, at least `min`.
 * `z.coerce.number()` read `0x10` as 16, `1e1` as 10 and an empty or blank value as 0 — a proof
 * or receipt for a position the caller never named.
 */
export const decimalPosition = (min: number) =>
  z
    .string()
    .regex(/^[0-9]{1,15}$/, 'a decimal number (digits only)')
    .transform(Number)
    .pipe(z.number().int().min(min));
