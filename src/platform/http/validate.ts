/**
 * Request validation with zod `safeParse` (STYLE rule 5): a failure is a 400 INVALID_REQUEST whose
 * `errors` list every issue with its path; unknown fields fail because schemas are strict.
 */
import type { z } from 'zod';
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
