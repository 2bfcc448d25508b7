/**
 * What a projects decider is handed and what it returns: the command context (org, injected
 * `now`, the event id resource ids are minted from, lookups into other capabilities) and a
 * result that is either the events to append or a typed rejection in the SPEC §2 vocabulary.
 */
import type { Signer } from '../signers/facts.js';
import type { ProjectsEvent } from './events.js';

/** A governance finding as a resolution of it records it. */
export interface ResolvableFinding {
  opened_on: string;
  severity: 'WARNING' | 'BLOCKING';
  evidence: readonly { kind: string; id: string }[];
}

/** Lookups into state this capability does not own; the HTTP edge wires them from projections. */
export interface ProjectsLookups {
  /** Whether the registry knows the `ent_…` id (registry capability). */
  entityExists(id: string): boolean;
  /**
   * The finding when governance found it on one of this org's projects (governance capability),
   * else undefined: the day it opened (YYYY-MM-DD), and its severity and evidence as the facts at
   * the head raise it (as last recorded once they no longer do). Required: a resolution of an
   * unknown or foreign finding would squat its id (OWASP API1), one dated before the finding
   * opened would feed remediation a negative time to cure, and a resolution covers the finding
   * only as it was found when resolved.
   */
  findingAt(org_id: string, finding_id: string): ResolvableFinding | undefined;
  /** The org's signer (signers capability), or undefined; absent = no signers known. */
  signer?(org_id: string, signer_id: string): Signer | undefined;
}

export interface DecideContext {
  org_id: string;
  /** The command's instant (from the injected clock, ARCHITECTURE §4); never read inside. */
  now: Date;
  /** UUID the appended event will carry; the resource id is minted from it (replay-stable). */
  eventId: string;
  lookups: ProjectsLookups;
  /**
   * Whether the caller is the platform operator (holds `registry:admin`): only it may furnish
   * facts about an entity outside any project (OWASP API6). Absent means a tenant.
   */
  platform_operator?: boolean;
}

/** One zod-style issue `{path, code, message}` (SPEC §2 `errors`). */
export interface Issue {
  path: (string | number)[];
  code: string;
  message: string;
}

export type RejectionCode = 'INVALID_REQUEST' | 'NOT_FOUND' | 'CONFLICT' | 'FORBIDDEN';

export interface Rejection {
  code: RejectionCode;
  detail: string;
  errors?: Issue[];
}

/** Every command creates (or signs / resolves) one resource and answers its id. */
export interface DecidedResult {
  id: string;
}

export type Decided =
  { ok: true; events: ProjectsEvent[]; result: DecidedResult } | { ok: false; error: Rejection };

export function accepted(event: ProjectsEvent, id: string): Decided {
  return { ok: true, events: [event], result: { id } };
}

export function notFound(detail: string): Decided {
  return { ok: false, error: { code: 'NOT_FOUND', detail } };
}

export function forbidden(detail: string): Decided {
  return { ok: false, error: { code: 'FORBIDDEN', detail } };
}

export function conflict(detail: string): Decided {
  return { ok: false, error: { code: 'CONFLICT', detail } };
}

export function invalid(detail: string, errors: Issue[]): Decided {
  return { ok: false, error: { code: 'INVALID_REQUEST', detail, errors } };
}

/** Undefined (absent in the body) becomes null in the fact (facts.ts conventions). */
export function orNull<T>(value: T | undefined): T | null {
  return value === undefined ? null : value;
}
