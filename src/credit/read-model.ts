/**
 * The `credit` read model (ARCHITECTURE §6): per entity, the behavioral state with its transition
 * history, the inquiries (issued reports, which are also the composite score history the drop rule
 * reads) and the registry verifications. `evolveCredit` is pure apart from updating the state it is
 * handed, which the projection runtime owns.
 */
import type { SealedEvent } from '../platform/ledger/index.js';
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
  inquiries: InquiryRecord[];
  verifications: VerificationRecord[];
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
}

export function initCreditState(): CreditState {
  return { entities: {} };
}

function recordOf(state: CreditState, entityId: string): EntityCreditRecord {
  return (state.entities[entityId] ??= {
    behavior: null,
    inquiries: [],
    verifications: [],
    drops: newDropWatch(),
  });
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
      record.inquiries.push({ seq: event.seq, org_id, as_of, composite_score, grade, provenance_hash });
      const point = { on: as_of.slice(0, 10), composite_score };
      if (record.drops && (record.drops.last_on === null || point.on >= record.drops.last_on))
        watchScore(record.drops, point);
      else record.drops = null;
      return state;
    }
    case 'RegistryVerified': {
      const { entity_id, ...check } = event.data as CreditEventMap['RegistryVerified'];
      const record = recordOf(state, entity_id);
      record.verifications.push({ seq: event.seq, org_id, ...check });
      if (check.sam_answer) record.sam_answer = check.sam_answer;
      return state;
    }
    default:
      return state;
  }
}

/** The composite score history the drop rule reads: one point per issued report. */
export function scoreHistory(record: EntityCreditRecord | undefined): ScorePoint[] {
  return (record?.inquiries ?? []).map((i) => ({
    on: i.as_of.slice(0, 10),
    composite_score: i.composite_score,
  }));
}

/**
 * The composite drop triggers of the recorded reports followed by `current` (the score computed at
 * an assessment on its day): from the kept watch when every report is dated by then and they came
 * in day order, else from the whole history — the same triggers either way.
 */
export function dropTriggersOf(record: EntityCreditRecord | undefined, current: ScorePoint): Trigger[] {
  const watch = record?.drops;
  if (record === undefined || (watch && (watch.last_on === null || watch.last_on <= current.on)))
    return watch ? dropsWith(watch, current) : [];
  return compositeDropTriggers([...scoreHistory(record), current].filter((s) => s.on <= current.on));
}
