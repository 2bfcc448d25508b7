/**
 * What the credit capability reads. Everything arrives as plain values the caller takes from the
 * projections (projects, observations, governance findings, the registry check), so the core stays
 * pure and never imports another capability's code.
 *
 * DOMAIN §5: "No protected-class attribute (or SAM business type) is an input." The input types
 * below carry `NoProtectedAttributes`, which makes such a field a compile error, not a convention.
 */
import type { FindingRecord } from '../governance/findings.js';
import type { EntityId, IsoDate, IsoInstant, ObservationsState, ProjectsState } from '../projects/facts.js';

/**
 * Fields that must never reach scoring. With `exactOptionalPropertyTypes`, `?: never` means the key
 * cannot be present at all, so passing a registry entity (which has `business_types`) fails to compile.
 */
export interface NoProtectedAttributes {
  business_types?: never;
  sam_business_types?: never;
  sba_business_types?: never;
  woman_owned?: never;
  minority_owned?: never;
  veteran_owned?: never;
  small_business?: never;
  race?: never;
  ethnicity?: never;
  national_origin?: never;
  sex?: never;
  gender?: never;
  religion?: never;
  age?: never;
  disability?: never;
  marital_status?: never;
}

/** Where a registry status came from (SPEC §4 `verify` `source`). */
export interface RegistrySource {
  kind: 'sam_extract' | 'sam_api';
  file?: string;
  as_of: IsoDate;
  /** sam_api: the instant SAM.gov's API answered. */
  fetched_at?: IsoInstant;
}

/**
 * What SAM.gov's Entity Management and Exclusions APIs answered about an entity, reduced to the
 * fields the registry rule reads (no business types: they never reach credit). Recorded on the
 * RegistryVerified event it produced, so the check replays and the answer is reused (see
 * registry-cache.ts) instead of asking SAM again.
 */
export interface SamApiAnswer {
  fetched_at: IsoInstant;
  registrations: {
    uei: string;
    cage: string | null;
    legal_name: string;
    status: 'active' | 'expired' | 'deleted' | 'inactive';
    expires_on: IsoDate | null;
  }[];
  exclusions: {
    program: string | null;
    type: string | null;
    agency: string | null;
    active_on: IsoDate | null;
    /** A date or "Indefinite". */
    terminates_on: string | null;
  }[];
}

/** Why the live SAM.gov check was not used and the imported extract answered instead. */
export interface RegistryFallback {
  reason: 'timeout' | 'network' | 'unauthorized' | 'rate_limited' | 'http_error' | 'bad_response';
  /** SAM's HTTP status, when it answered. */
  status: number | null;
  detail: string;
}

/** The contractor registry check (DOMAIN §5 "Contractor registry"), computed by the registry capability. */
export interface RegistryStatus {
  registration: 'active' | 'inactive';
  exclusions: 'clear' | 'excluded';
  /** Active date of the exclusion in force (null when clear or unknown). */
  exclusion_active_since: IsoDate | null;
  /** Termination date of the latest exclusion that ended (null when none ended). */
  exclusion_terminated_on: IsoDate | null;
  checked_at: IsoInstant;
  source: RegistrySource;
  /** sam_api: the answer the check was made from. */
  sam_answer?: SamApiAnswer;
  /** The live check failed and the extract answered (`source` is then sam_extract). */
  fallback?: RegistryFallback;
}

/** Every fact the credit rules read about one entity. */
export interface EntityFacts extends NoProtectedAttributes {
  entity_id: EntityId;
  projects: ProjectsState;
  observations: ObservationsState;
  /**
   * Governance findings; only those attributed to this entity (`entity_id`) count, so the caller
   * may pass the entity's slice of the by-entity index or every finding.
   */
  findings: readonly FindingRecord[];
  registry: RegistryStatus;
  /**
   * Where derivations of these facts may be remembered (see `derived`). The assembler passes one
   * that lives exactly as long as the facts stay the same; absent, everything is computed afresh.
   */
  memo?: DerivationMemo;
}

/**
 * Remembers values derived from one entity's facts while those facts do not change. A key names
 * the derivation and every other input it reads (the day, for the rules that count days), so a
 * remembered value is always the value a fresh computation would give.
 */
export interface DerivationMemo {
  remember<T>(key: string, compute: () => T): T;
}

/** `compute()`, or the value remembered under `key` for these facts. */
export function derived<T>(facts: EntityFacts, key: string, compute: () => T): T {
  return facts.memo ? facts.memo.remember(key, compute) : compute();
}

/**
 * The derivations remembered per entity, by key prefix (each key ends with the day it is for). Those
 * that read the entity's observations — the safety record's signals, the composite built on every
 * dimension, the behavioral basis — are what a new site observation of the entity changes; the
 * others (the context of participation and findings, the other dimensions' signals), the costly
 * part, stay as they were (`readsObservations`).
 */
export const DERIVATION = {
  context: 'context:',
  /** The entity's observations known by the day (safety-record.ts `observationsOf`). */
  observations: 'observations:',
  /** The part of the behavioral basis no observation changes (triggers.ts `factsBasis`). */
  standing: 'standing:',
  signals: (dimension: string) => `signals:${dimension}:`,
  /** A dimension's score (score.ts `scoreEntity`). */
  dimension: (dimension: string) => `dimension:${dimension}:`,
  score: 'score:',
  behavior: 'behavior:',
} as const;

const FROM_OBSERVATIONS = [
  DERIVATION.observations,
  DERIVATION.signals('safety_record'),
  DERIVATION.dimension('safety_record'),
  DERIVATION.score,
  DERIVATION.behavior,
];

/** Whether the derivation remembered under `key` reads the entity's observations. */
export function readsObservations(key: string): boolean {
  return FROM_OBSERVATIONS.some((prefix) => key.startsWith(prefix));
}

/** Findings attributed to the entity and opened by `today` (facts dated later are not yet known). */
export function attributedFindings(facts: EntityFacts, today: IsoDate): FindingRecord[] {
  return facts.findings.filter((f) => f.entity_id === facts.entity_id && f.opened_on <= today);
}

/** Whether a finding was resolved on or before `day`. */
export function resolvedBy(finding: FindingRecord, day: IsoDate): boolean {
  return finding.resolved_on !== null && finding.resolved_on <= day;
}
