/**
 * The lender credit API's action table (SPEC §4): each action declares its body schema, whether it
 * counts against the daily quota, and its handler. Discovery is generated from this table.
 */
import type { Request } from 'express';
import type { z } from 'zod';

export interface LenderAction<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  /** Human-readable body shape for the discovery document. */
  body_doc: Record<string, string> | null;
  /** Parses the body; `undefined` arrives when the request has none. */
  schema: S;
  /** usage does not count (SPEC §3); every other action does. */
  counted: boolean;
  /** Records events (score, verify): honours Idempotency-Key, so a retry replays and ids are derived. */
  appends?: boolean;
  handle(req: Request, body: z.infer<S>): Promise<Record<string, unknown>> | Record<string, unknown>;
}

/** Erases the schema type so actions of different bodies share one table. */
export function defineAction<S extends z.ZodType>(action: LenderAction<S>): LenderAction {
  return action;
}
