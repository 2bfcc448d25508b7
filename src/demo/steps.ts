/**
 * The demo plan's unit: one HTTP request, dated, in the phase that says whether the route exists
 * yet. Requests name earlier results by reference (`@{P03.d2}`), resolved by the runner from the
 * ids the service answered, so a plan is pure data and can be built before any id exists.
 */
import type { FindingCode } from '../governance/findings.js';
import type { SignSpec } from './duties.js';

/**
 * - `ingest`: SPEC §5 ingestion routes (the facts).
 * - `after_funding`: ingestion that only makes sense once a payment went out (unconditional lien
 *   waivers); send it together with `governance`, since funding is what makes it true.
 * - `governance`: SPEC §4/§6 routes of other capabilities (scan, compile, notarize, payment push,
 *   certification, simulation, credit inquiries) — the `governanceSteps` hook.
 * - `registry`: SAM.gov extract import (`POST /api/registry/import`, admin) — the registry hook.
 * - `credit`: lender credit inquiries (`?action=score`), so score history exists. Not sent by
 *   default: that route mints UUIDv7 event ids (it ignores Idempotency-Key), which would make the
 *   ledger differ run to run; send it when reproducibility does not matter.
 * Sending only `ingest` seeds the bare facts: nothing is funded, scanned or excluded.
 */
export const PHASES = ['ingest', 'after_funding', 'governance', 'registry', 'credit'] as const;
export type Phase = (typeof PHASES)[number];

/** What `runDemo` sends unless told otherwise: every phase whose events are reproducible. */
export const DEFAULT_PHASES: readonly Phase[] = ['ingest', 'after_funding', 'governance', 'registry'];

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Which key sends a step: a lender by index, or the platform operator's (registry import, entity facts). */
export type Sender = number | 'operator';

/** A finding named by what it is about; the runner mints its id like governance does. */
export interface FindingSelector {
  project: string;
  code: FindingCode;
  /** A draw reference, or null for project-level findings. */
  draw: string | null;
  /** The rule's subject; may hold references (`same_month:@{P07.d3}`). */
  subject: string;
}

export interface StepDraft {
  phase: Phase;
  sender: Sender;
  /** `lender_api` = `x-plumbline-api-key` header (SPEC §1 lender credit API); else Bearer. */
  auth?: 'bearer' | 'lender_api';
  path: string;
  body: Json;
  /** A non-JSON upload (SAM extracts): sent as is with this content type instead of `body`. */
  raw?: { content_type: string; text: string };
  /** Statuses that count as success (default 201). */
  expect?: readonly number[];
  /** Remember the answered `id` under this reference. */
  save?: string;
  /** What the step is, for progress and errors. */
  label: string;
  /** For `POST /api/findings/{finding}/resolve`: the finding the path names. */
  finding?: FindingSelector;
  /** The runner signs the resource and puts the signature in the body (`signature`, or `act.signature`). */
  sign?: SignSpec;
}

export interface DemoStep extends Required<Pick<StepDraft, 'phase' | 'sender' | 'path' | 'body' | 'label'>> {
  /** 1-based position in the timeline; part of the request and idempotency ids. */
  n: number;
  /** The day the fact happens (`YYYY-MM-DD`). */
  date: string;
  /** The instant the demo clock shows while the step is sent. */
  at: string;
  auth: 'bearer' | 'lender_api';
  expect: readonly number[];
  raw?: { content_type: string; text: string };
  save?: string;
  finding?: FindingSelector;
  sign?: SignSpec;
}

export const ref = (name: string): string => `@{${name}}`;

/** Seconds between two steps of the same day: 6 a minute, far under the 600/min limit (SPEC §3). */
const STEP_SPACING_S = 15;
/** Each day's steps start at 08:00 UTC, a working morning in every US time zone. */
const DAY_START_S = 8 * 3600;

/** Collects dated steps in any order and lays them out as one chronological timeline. */
export class Timeline {
  readonly #drafts: { date: string; order: number; draft: StepDraft }[] = [];

  add(date: string, draft: StepDraft): void {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`not a date: ${date} (${draft.label})`);
    this.#drafts.push({ date, order: this.#drafts.length, draft });
  }

  /** An ingestion POST by `lender`. */
  ingest(date: string, lender: number, path: string, body: Json, label: string, save?: string): void {
    this.add(date, { phase: 'ingest', sender: lender, path, body, label, ...(save ? { save } : {}) });
  }

  get size(): number {
    return this.#drafts.length;
  }

  /**
   * Sorted by day, and within a day in the order added (which is dependency order: a draw is
   * added before its waivers). Times are spaced through the day.
   */
  finalize(): DemoStep[] {
    const sorted = [...this.#drafts].sort((a, b) => a.date.localeCompare(b.date) || a.order - b.order);
    let day = '';
    let slot = 0;
    return sorted.map(({ date, draft }, i) => {
      slot = date === day ? slot + 1 : 0;
      day = date;
      const at = new Date(Date.parse(`${date}T00:00:00Z`) + (DAY_START_S + slot * STEP_SPACING_S) * 1000);
      const { expect, auth, ...rest } = draft;
      return {
        ...rest,
        n: i + 1,
        date,
        at: at.toISOString(),
        auth: auth ?? 'bearer',
        expect: expect ?? [201],
      };
    });
  }
}
