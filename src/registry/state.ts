/**
 * The registry read model's shape (folded by projections/registry.ts) and safe reads of it.
 * Plain JSON objects only, so it snapshots as is. Index keys are user-influenced text (names), so
 * every read goes through `own`: a firm called "Constructor Inc" normalizes to "constructor",
 * which a plain `map[key]` would resolve to Object.prototype.constructor.
 */
import type { EntityRole } from './contract.js';
import type { SamFormat } from './events.js';
import type { SamExclusionRecord, SamRegistrationRecord } from './records.js';
import { own } from '../platform/records.js';

export interface EntityRecord {
  entity_id: string;
  legal_name: string;
  aliases: string[];
  ein: string | null;
  uei: string | null;
  cage: string | null;
  roles: EntityRole[];
  business_types: string[];
  state: string | null;
  /** The organization that registered it. */
  org_id: string | null;
  registered_at: string;
  seq: number;
}

/** A SAM record as last recorded, with the hash that decides whether a re-import changed it. */
export interface RegistryEntry<R> {
  key: string;
  content_hash: string;
  record: R;
  /** Seq of the event that recorded this version. */
  seq: number;
}

/** The latest import of one format: where registry freshness (`as_of`) comes from. */
export interface ImportRef {
  file: string;
  file_sha256: string;
  as_of: string;
  seq: number;
}

export interface RegistryState {
  entities: Record<string, EntityRecord>;
  /** nameKey of each legal name and alias → entity ids */
  entity_names: Record<string, string[]>;
  entity_by_ein: Record<string, string>;
  entity_by_uei: Record<string, string>;
  entity_by_cage: Record<string, string>;
  /** UEI → registration */
  registrations: Record<string, RegistryEntry<SamRegistrationRecord>>;
  /** CAGE → UEIs */
  registrations_by_cage: Record<string, string[]>;
  /** exclusion key → record */
  exclusions: Record<string, RegistryEntry<SamExclusionRecord>>;
  exclusions_by_uei: Record<string, string[]>;
  exclusions_by_cage: Record<string, string[]>;
  /** nameKey of the excluded name → exclusion keys */
  exclusions_by_name: Record<string, string[]>;
  imports: Record<SamFormat, ImportRef | null>;
}

export function emptyRegistryState(): RegistryState {
  return {
    entities: {},
    entity_names: {},
    entity_by_ein: {},
    entity_by_uei: {},
    entity_by_cage: {},
    registrations: {},
    registrations_by_cage: {},
    exclusions: {},
    exclusions_by_uei: {},
    exclusions_by_cage: {},
    exclusions_by_name: {},
    imports: { exclusions_csv: null, entity_v2: null },
  };
}

export { own };

/** The ids listed under `key` in an index, or none. */
export function listed(map: Record<string, string[]>, key: string | null): readonly string[] {
  return key === null ? [] : (own(map, key) ?? []);
}
