/**
 * Registry events: what the ledger attests about governed entities and SAM.gov records.
 * `type` equals the TS type name; data shapes are schema 1.
 */
import type { SealedEvent } from '../platform/ledger/envelope.js';
import type { EntityRole } from './contract.js';
import type { SamExclusionRecord, SamRegistrationRecord } from './records.js';

/** Which extract format an import read. */
export type SamFormat = 'exclusions_csv' | 'entity_v2';

/** Where a registry record came from: an extract file and line, or the online API. */
export interface RecordSource {
  kind: 'sam_extract' | 'sam_api';
  file: string | null;
  line: number | null;
}

export interface EntityRegisteredData {
  entity_id: string;
  legal_name: string;
  aliases: string[];
  /** `NN-NNNNNNN` */
  ein: string | null;
  uei: string | null;
  cage: string | null;
  roles: EntityRole[];
  business_types: string[];
  state: string | null;
}

/** Data shared by both SAM record events: the record, its key and hash, and the hash it replaced. */
export interface SamRecordData<R> {
  key: string;
  content_hash: string;
  /** content_hash of the record this one replaces under the same key; null for a new key. */
  previous_hash: string | null;
  record: R;
  source: RecordSource;
}

export type SamExclusionRecordedData = SamRecordData<SamExclusionRecord>;
export type SamRegistrationRecordedData = SamRecordData<SamRegistrationRecord>;

export interface SamExtractImportedData {
  format: SamFormat;
  file: string;
  /** SHA-256 of the extract's bytes (of the entry, for a zip). */
  file_sha256: string;
  /** The date the extract describes (from its name or BOF line), YYYY-MM-DD. */
  as_of: string;
  rows_read: number;
  imported: number;
  unchanged: number;
  rejected_count: number;
  /** The first rejections, so the ledger says why rows were left out. */
  rejected_sample: { line: number; reason: string }[];
}

/** Attests that an organization registered a governed entity with these names, identifiers and roles. */
export type EntityRegistered = SealedEvent<'EntityRegistered', EntityRegisteredData>;
/** Attests that a SAM.gov exclusion record is new or changed as of the import that recorded it. */
export type SamExclusionRecorded = SealedEvent<'SamExclusionRecorded', SamExclusionRecordedData>;
/** Attests that a SAM.gov entity registration is new or changed as of the import that recorded it. */
export type SamRegistrationRecorded = SealedEvent<'SamRegistrationRecorded', SamRegistrationRecordedData>;
/** Attests that a SAM.gov extract file was read in full, what it held and how much of it changed. */
export type SamExtractImported = SealedEvent<'SamExtractImported', SamExtractImportedData>;

export type RegistryEvent =
  EntityRegistered | SamExclusionRecorded | SamRegistrationRecorded | SamExtractImported;

export const REGISTRY_EVENT_TYPES: readonly RegistryEvent['type'][] = [
  'EntityRegistered',
  'SamExclusionRecorded',
  'SamRegistrationRecorded',
  'SamExtractImported',
];
const TYPES = new Set<string>(REGISTRY_EVENT_TYPES);

export function isRegistryEvent(event: SealedEvent): event is RegistryEvent {
  return TYPES.has(event.type);
}

/** `entity-ent_…` (ARCHITECTURE §3.1). */
export function entityStream(entityId: string): string {
  return `entity-${entityId}`;
}

/** `registry-<key>`: one stream per SAM record, so its history reads as one stream. */
export function registryRecordStream(key: string): string {
  return `registry-${key}`;
}

/** One stream for every import, in order. */
export const REGISTRY_IMPORTS_STREAM = 'registry-imports';
