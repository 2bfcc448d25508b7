/**
 * Events of the credit capability, all on the entity's stream (`entity-ent_…`). The `credit`
 * projection folds them; the inquiring org of a report is the event's `meta.org_id`.
 */
import type { EventInput } from '../platform/ledger/index.js';
import { derivedEventId } from '../platform/ids.js';
import type { IsoDate, IsoInstant } from '../projects/facts.js';
import type { Grade } from './constants.js';
import type { RegistryFallback, RegistrySource, RegistryStatus, SamApiAnswer } from './inputs.js';
import {
  recordedCause,
  type BehaviorTransition,
  type BehavioralState,
  type RecordedCause,
  type TransitionCause,
} from './state-machine.js';

/** Payload schema version of the credit events (ARCHITECTURE §3.1 `schema`). */
export const CREDIT_EVENT_SCHEMA = 1;
/**
 * BehavioralStateChanged is at schema 2: its cause is tenant-neutral (code, evidence count and
 * evidence digests). Schema 1 events carried the cause's detail text and evidence ids, and every
 * reader still folds them (read-model.ts).
 */
export const BEHAVIOR_EVENT_SCHEMA = 2;

/**
 * Attests that the entity's behavioral state moved from → to on `effective_on`, for the stated
 * cause. The evaluator appends it with no org (every lender sees it), so it carries nothing a
 * tenant owns: the cause is its code and SHA-256 digests of its evidence (OWASP API3).
 */
export interface BehavioralStateChangedData {
  entity_id: string;
  from: BehavioralState;
  to: BehavioralState;
  cause: RecordedCause;
  effective_on: IsoDate;
}

/** BehavioralStateChanged as schema 1 wrote it (full cause: detail text and evidence ids). */
export interface BehavioralStateChangedDataV1 {
  entity_id: string;
  from: BehavioralState;
  to: BehavioralState;
  cause: TransitionCause;
  effective_on: IsoDate;
}

/** Attests that a credit report with this provenance hash was issued for the entity (an inquiry). */
export interface CreditReportIssuedData {
  entity_id: string;
  composite_score: number;
  grade: Grade;
  provenance_hash: string;
  as_of: IsoInstant;
  artifacts: { kind: 'credit_report'; hash: string }[];
}

/** Attests the outcome of a federal contractor registry check for the entity, and its source. */
export interface RegistryVerifiedData {
  entity_id: string;
  registration: 'active' | 'inactive';
  exclusions: 'clear' | 'excluded';
  exclusion_active_since: IsoDate | null;
  exclusion_terminated_on: IsoDate | null;
  checked_at: IsoInstant;
  /** `sam_api` (with `fetched_at`: when SAM.gov answered) or `sam_extract`. */
  source: RegistrySource;
  /** sam_api: what SAM.gov answered, so the check replays and is reused for SAM_ANSWER_TTL_MS. */
  sam_answer?: SamApiAnswer;
  /** The live SAM.gov check failed and the imported extract answered instead. */
  fallback?: RegistryFallback;
}

export interface CreditEventMap {
  BehavioralStateChanged: BehavioralStateChangedData;
  CreditReportIssued: CreditReportIssuedData;
  RegistryVerified: RegistryVerifiedData;
}
export type CreditEventType = keyof CreditEventMap;
export const CREDIT_EVENT_TYPES: readonly CreditEventType[] = [
  'BehavioralStateChanged',
  'CreditReportIssued',
  'RegistryVerified',
];

export type CreditEvent = {
  [T in CreditEventType]: EventInput<T, CreditEventMap[T]> & { schema: number };
}[CreditEventType];

export function entityStream(entityId: string): string {
  return `entity-${entityId}`;
}

/**
 * The event for the `index`-th transition of an entity (0-based over its whole history). The id is
 * derived from it, so two evaluators deciding the same step append one event, not two.
 */
export function behavioralStateChanged(
  entityId: string,
  transition: BehaviorTransition,
  index: number,
): EventInput<'BehavioralStateChanged', BehavioralStateChangedData> & { id: string; schema: number } {
  const { from, to, cause, effective_on } = transition;
  return {
    id: derivedEventId(`BehavioralStateChanged|${entityId}|${index}|${from}|${to}|${effective_on}`),
    stream: entityStream(entityId),
    type: 'BehavioralStateChanged',
    schema: BEHAVIOR_EVENT_SCHEMA,
    data: { entity_id: entityId, from, to, cause: recordedCause(cause), effective_on },
  };
}

export function creditReportIssued(report: {
  entity_id: string;
  as_of: IsoInstant;
  provenance_hash: string;
  provenance: { sha256: string; sha3_256: string; blake2b_256: string };
  credit: { composite_score: number; grade: Grade };
}): EventInput<'CreditReportIssued', CreditReportIssuedData> & { schema: number } {
  return {
    stream: entityStream(report.entity_id),
    type: 'CreditReportIssued',
    schema: CREDIT_EVENT_SCHEMA,
    data: {
      entity_id: report.entity_id,
      composite_score: report.credit.composite_score,
      grade: report.credit.grade,
      provenance_hash: report.provenance_hash,
      as_of: report.as_of,
      // Every digest the report's provenance publishes, so audit-verify finds it by any of them.
      artifacts: [report.provenance.sha256, report.provenance.sha3_256, report.provenance.blake2b_256].map(
        (hash) => ({ kind: 'credit_report' as const, hash }),
      ),
    },
  };
}

export function registryVerified(
  entityId: string,
  registry: RegistryStatus,
): EventInput<'RegistryVerified', RegistryVerifiedData> & { schema: number } {
  return {
    stream: entityStream(entityId),
    type: 'RegistryVerified',
    schema: CREDIT_EVENT_SCHEMA,
    data: {
      entity_id: entityId,
      registration: registry.registration,
      exclusions: registry.exclusions,
      exclusion_active_since: registry.exclusion_active_since,
      exclusion_terminated_on: registry.exclusion_terminated_on,
      checked_at: registry.checked_at,
      source: registry.source,
      ...(registry.sam_answer ? { sam_answer: registry.sam_answer } : {}),
      ...(registry.fallback ? { fallback: registry.fallback } : {}),
    },
  };
}
