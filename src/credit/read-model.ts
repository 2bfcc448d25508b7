/**
 * The `credit` read model (ARCHITECTURE §6): per entity, the behavioral state with its transition
 * history, the inquiries (issued reports, which are also the composite score history the drop rule
 * reads) and the registry verifications. `evolveCredit` is pure apart from updating the state it is
 * handed, which the projection runtime owns.
 *
 * Inquiries and verifications are records of their own, one per event, keyed `<entity>/<seq>` (the
 * seq zero-padded, so key order is ledger order), not arrays in the entity's record: a record
 * changed by a fold is rewritten whole at the next flush (read-model-file.ts), so an array there
 * made every score of an entity re-encode and rewrite its whole history (issue 19). An entity's
 * list is read by one key range (`ownedValues`).
 */
import type { SealedEvent } from '../platform/ledger/index.js';
import { ownedKey, ownedValues } from '../platform/projections/index.js';
import type { IsoInstant } from '../projects/facts.js';
import type { Grade } from './constants.js';
import type { BehavioralStateChangedDataV1, CreditEventMap, RegistryVerifiedData } from './events.js';
import type { SamApiAnswer } from './inputs.js';
import { recordTransition, type BehaviorRecord } from './state-machine.js';
import {
  compositeDropTriggers,
  dropsWith,
  newDropWatch,
  watchScore,
  type DropWatch,
  type ScorePoint,
  type Trigger,
} from './triggers.js';

/** One issued credit report: who asked, when, and what it said. */
export interface InquiryRecord {
  seq: number;
  /** The inquiring org (`meta.org_id` of the event). */
  org_id: string | null;
  as_of: IsoInstant;
  composite_score: number;
  grade: Grade;
  provenance_hash: string;
}

export interface VerificationRecord extends Omit<RegistryVerifiedData, 'entity_id'> {
  seq: number;
  org_id: string | null;
}

export interface EntityCreditRecord {
  /** null until the first BehavioralStateChanged: the entity is then PROVISIONAL. */
  behavior: BehaviorRecord | null;
  /** How many reports were issued (records in `CreditState.inquiries`). */
  inquiry_count: number;
  /**
   * The composite scores of the last {@link RECENT_SCORES} reports, oldest first: what a portfolio's
   * sparkline shows for every entity, kept bounded here so it costs no read of the entity's history.
   */
  recent_scores: number[];
  /** How many registry checks were recorded (records in `CreditState.verifications`). */
  verification_count: number;
  /** The latest SAM.gov API answer recorded (registry-cache.ts decides whether it is reused). */
  sam_answer?: SamApiAnswer;
  /**
   * The drop rule over the inquiries so far, kept as they fold in; null once a report arrived dated
   * before an earlier one (clock skew between nodes), after which the rule re-reads the history.
   */
  drops: DropWatch | null;
}

export interface CreditState {
  entities: Record<string, EntityCreditRecord>;
  /** Issued reports by `eventKey(entity_id, seq)`. */
  inquiries: Record<string, InquiryRecord>;
  /** Registry checks by `eventKey(entity_id, seq)`. */
  verifications: Record<string, VerificationRecord>;
}

export function initCreditState(): CreditState {
  return { entities: {}, inquiries: {}, verifications: {} };
}

/** How many of an entity's latest report scores its record keeps (`recent_scores`). */
export const RECENT_SCORES = 12;

export function newEntityCreditRecord(): EntityCreditRecord {
  return {
    behavior: null,
    inquiry_count: 0,
    recent_scores: [],
    verification_count: 0,
    drops: newDropWatch(),
  };
}

function recordOf(state: CreditState, entityId: string): EntityCreditRecord {
  return (state.entities[entityId] ??= newEntityCreditRecord());
}

/** The key of an entity's record of the event at `seq`: `<entity>/<seq, zero-padded>` (`ownedKey`). */
export const eventKey: (entityId: string, seq: number) => string = ownedKey;

/** The reports issued on an entity, in ledger order (no read of the collection when there is none). */
export function inquiriesOf(state: CreditState, entityId: string): InquiryRecord[] {
  if (!state.entities[entityId]?.inquiry_count) return [];
  return ownedValues(state.inquiries, entityId);
}

/** The registry checks recorded for an entity, in ledger order. */
export function verificationsOf(state: CreditState, entityId: string): VerificationRecord[] {
  if (!state.entities[entityId]?.verification_count) return [];
  return ownedValues(state.verifications, entityId);
}

/** Folds either schema: recordTransition keeps the tenant-neutral form of both (events.ts). */
function applyBehavior(
  record: EntityCreditRecord,
  data: CreditEventMap['BehavioralStateChanged'] | BehavioralStateChangedDataV1,
): void {
  record.behavior ??= { state: data.from, since: data.effective_on, previous_state: null, transitions: [] };
  recordTransition(record.behavior, data);
}

/** Folds one ledger event; events of other capabilities pass through untouched. */
export function evolveCredit(state: CreditState, event: SealedEvent): CreditState {
  const org_id = event.meta.org_id;
  switch (event.type) {
    case 'BehavioralStateChanged': {
      const data =
        event.schema === 1
          ? (event.data as BehavioralStateChangedDataV1)
          : (event.data as CreditEventMap['BehavioralStateChanged']);
      applyBehavior(recordOf(state, data.entity_id), data);
      return state;
    }
    case 'CreditReportIssued': {
      const { entity_id, as_of, composite_score, grade, provenance_hash } =
        event.data as CreditEventMap['CreditReportIssued'];
      const record = recordOf(state, entity_id);
      state.inquiries[eventKey(entity_id, event.seq)] = {
        seq: event.seq,
        org_id,
        as_of,
        composite_score,
        grade,
        provenance_hash,
      };
      record.inquiry_count += 1;
      record.recent_scores.push(composite_score);
      if (record.recent_scores.length > RECENT_SCORES) record.recent_scores.shift();
      const point = { on: as_of.slice(0, 10), composite_score };
      if (record.drops && (record.drops.last_on === null || point.on >= record.drops.last_on))
        watchScore(record.drops, point);
      else record.drops = null;
      return state;
    }
    case 'RegistryVerified': {
      const { entity_id, ...check } = event.data as CreditEventMap['RegistryVerified'];
      const record = recordOf(state, entity_id);
      state.verifications[eventKey(entity_id, event.seq)] = { seq: event.seq, org_id, ...check };
      record.verification_count += 1;
      if (check.sam_answer) record.sam_answer = check.sam_answer;
      return state;
    }
    default:
      return state;
  }
}

/** The composite score history the drop rule reads: one point per issued report. */
export function scoreHistory(state: CreditState, entityId: string): ScorePoint[] {
  return inquiriesOf(state, entityId).map((i) => ({
    on: i.as_of.slice(0, 10),
    composite_score: i.composite_score,
  }));
}

/**
 * The composite drop triggers of the recorded reports followed by `current` (the score computed at
 * an assessment on its day): from the kept watch when every report is dated by then and they came
 * in day order, else from the whole history — the same triggers either way.
 */
export function dropTriggersOf(state: CreditState, entityId: string, current: ScorePoint): Trigger[] {
  const record = state.entities[entityId];
  const watch = record?.drops;
  if (record === undefined || (watch && (watch.last_on === null || watch.last_on <= current.on)))
    return watch ? dropsWith(watch, current) : [];
  return compositeDropTriggers([...scoreHistory(state, entityId), current].filter((s) => s.on <= current.on));
}
