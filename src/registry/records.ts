/**
 * Registry records as SAM.gov publishes them, normalized (trimmed, upper-cased identifiers, ISO
 * dates, null for blank): the shapes the extract parsers and the online adapter both produce,
 * their stable keys, and the content hash that decides whether a re-import changed anything.
 */
import { sha256Hex } from '../platform/crypto/hash.js';
import { canonicalJson } from '../platform/ledger/canonical.js';

/** Marker SAM uses for an exclusion with no end date. */
export const INDEFINITE = 'Indefinite';

/** A person named by an exclusion record (Classification "Individual"). */
export interface ExcludedPerson {
  prefix: string | null;
  first: string | null;
  middle: string | null;
  last: string | null;
  suffix: string | null;
}

/** One row of the SAM exclusions list (SPEC §13), whatever its classification. */
export interface SamExclusionRecord {
  /** Firm, Individual, Special Entity Designation, Vessel — or null: some SAM rows leave it empty. */
  classification: string | null;
  name: string;
  person: ExcludedPerson | null;
  uei: string | null;
  duns: string | null;
  cage: string | null;
  npi: string | null;
  sam_number: string | null;
  program: string | null;
  agency: string | null;
  ct_code: string | null;
  type: string | null;
  /** YYYY-MM-DD; null when SAM gives none (the exclusion is then in effect since it was listed). */
  active_on: string | null;
  /** YYYY-MM-DD, `Indefinite`, or null when SAM left it blank. */
  terminates_on: string | null;
  address: {
    lines: string[];
    city: string | null;
    state_province: string | null;
    country: string | null;
    zip: string | null;
  };
  cross_reference: string | null;
  additional_comments: string | null;
  record_status: string | null;
  created_on: string | null;
}

/** Registration status: extract codes A/2/3 → active, E/4 → expired, 1 → deleted; API "Active" or not. */
export type RegistrationStatus = 'active' | 'expired' | 'deleted' | 'inactive';

/** One entity registration from the SAM entity extract (V2) or the Entity Management API. */
export interface SamRegistrationRecord {
  uei: string;
  duns: string | null;
  cage: string | null;
  legal_name: string;
  dba_name: string | null;
  status: RegistrationStatus;
  purpose: string | null;
  registered_on: string | null;
  expires_on: string | null;
  updated_on: string | null;
  activated_on: string | null;
  city: string | null;
  state: string | null;
  business_types: string[];
  sba_business_types: string[];
  primary_naics: string | null;
  /** SAM's own flag that the entity has an active exclusion ("D"). */
  exclusion_flag: boolean;
}

/** SHA-256 hex of the record's JCS form: equal hashes mean nothing SAM publishes changed. */
export function recordContentHash(record: SamExclusionRecord | SamRegistrationRecord): string {
  return sha256Hex(canonicalJson(record));
}

/** Stream-safe form of one key component. */
function keyPart(text: string): string {
  return text.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
}

/** Length of the hash suffix used when a record carries no identifier (96 bits). */
const FALLBACK_HASH_CHARS = 24;

/**
 * The stable key of an exclusion record. The extract has no single id column, so, measured on
 * the real extract (SAM_Exclusions_Public_Extract_20049, 10,000 rows):
 * - SAM Number alone is not unique: 1,295 numbers are shared by 2,706 rows — one party listed
 *   several times (reciprocal listings under different CT codes and programs);
 * - Unique Entity Identifier (SAM) is present on every row and unique, but a registered entity
 *   that is excluded twice keeps one UEI, so it alone could merge two exclusions;
 * - SAM Number + UEI is unique on every row, and both are identifiers SAM assigns, so neither
 *   changes when an agency amends dates or comments (content that a key must not depend on).
 * Older extracts lack the UEI column: then DUNS, then CAGE stand in for it; with no identifier
 * at all, a hash of name + program + agency + CT code + active date does (an amendment of those
 * then reads as a new record — the old one still stands, which errs on the side of exclusion).
 */
export function exclusionKey(record: SamExclusionRecord): string {
  const sam = record.sam_number ? keyPart(record.sam_number) : 'NOSAM';
  if (record.uei) return `exclusion-${sam}-${keyPart(record.uei)}`;
  if (record.duns) return `exclusion-${sam}-D${keyPart(record.duns)}`;
  if (record.cage) return `exclusion-${sam}-C${keyPart(record.cage)}`;
  const described = [record.name, record.program, record.agency, record.ct_code, record.active_on];
  const digest = sha256Hex(canonicalJson(described)).slice(0, FALLBACK_HASH_CHARS);
  return `exclusion-${sam}-H${digest}`;
}

/** A registration is keyed by its UEI: SAM keeps exactly one registration per UEI. */
export function registrationKey(uei: string): string {
  return `registration-${keyPart(uei)}`;
}
