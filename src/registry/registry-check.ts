/**
 * The contractor registry rule (DOMAIN §5), pure: given an entity's identifiers, the SAM records
 * that match it and `today`, is its registration active and is it excluded?
 * - registration = active when a matching SAM registration has status active and expires on or
 *   after today; otherwise (including no record at all) inactive;
 * - exclusions = excluded when a matching exclusion record is in effect on today: active date
 *   ≤ today, termination "Indefinite" or ≥ today.
 * Matching: registrations by UEI, else by CAGE; exclusions by UEI or CAGE, or by exact normalized
 * name (legal name or alias) when the entity has neither.
 */
import { INDEFINITE, type SamExclusionRecord, type SamRegistrationRecord } from './records.js';
import { nameKey } from './normalize.js';
import { listed, own, type ImportRef, type RegistryState } from './state.js';

export interface RegistrySubject {
  legal_name: string;
  aliases?: readonly string[];
  uei: string | null;
  cage: string | null;
}

/** The fields of a SAM registration the rule reads (what a live SAM.gov answer records). */
export type CheckedRegistration = Pick<
  SamRegistrationRecord,
  'uei' | 'cage' | 'legal_name' | 'status' | 'expires_on'
>;
/** The fields of a SAM exclusion record the rule reads. */
export type CheckedExclusion = Pick<
  SamExclusionRecord,
  'program' | 'type' | 'agency' | 'active_on' | 'terminates_on'
>;

export interface RegistryRecords {
  registrations: CheckedRegistration[];
  exclusions: CheckedExclusion[];
}

export interface ExclusionSummary {
  program: string | null;
  type: string | null;
  agency: string | null;
  active_on: string | null;
  terminates_on: string | null;
  /** Whether this record is in effect on the checked day. */
  in_effect: boolean;
}

export interface RegistryCheck {
  registration: 'active' | 'inactive';
  exclusions: 'clear' | 'excluded';
  uei: string | null;
  cage: string | null;
  /** SAM's legal business name when a registration matched, else the entity's own. */
  legal_name: string;
  registration_expires_on: string | null;
  exclusion_records: ExclusionSummary[];
}

export interface RegistrySource {
  kind: 'sam_extract' | 'sam_api';
  file?: string;
  /**
   * The oldest `as_of` of the extracts the check read (it is only as fresh as its stalest input),
   * or the day SAM.gov's API answered.
   */
  as_of: string | null;
  /** sam_api: the instant SAM.gov's API answered. */
  fetched_at?: string;
}

/** YYYY-MM-DD strings compare correctly as strings. */
function registrationActive(record: CheckedRegistration, today: string): boolean {
  return record.status === 'active' && record.expires_on !== null && record.expires_on >= today;
}

/**
 * In effect on `today`. Two blanks SAM leaves are read so that a gap in the list never clears a
 * contractor (fail closed): no active date = in effect since it was listed; no termination date =
 * no known end (the real extract has such rows: stub records with only a name and identifiers).
 */
export function exclusionInEffect(record: CheckedExclusion, today: string): boolean {
  const started = record.active_on === null || record.active_on <= today;
  const end = record.terminates_on;
  const notEnded = end === null || end === INDEFINITE || end >= today;
  return started && notEnded;
}

/** Applies DOMAIN §5 to the records already matched to the subject. */
export function checkContractorRegistry(
  subject: RegistrySubject,
  records: RegistryRecords,
  today: string,
): RegistryCheck {
  const active = records.registrations.filter((r) => registrationActive(r, today));
  const shown = active[0] ?? records.registrations[0];
  const exclusions = records.exclusions.map((r) => ({
    program: r.program,
    type: r.type,
    agency: r.agency,
    active_on: r.active_on,
    terminates_on: r.terminates_on,
    in_effect: exclusionInEffect(r, today),
  }));
  return {
    registration: active.length > 0 ? 'active' : 'inactive',
    exclusions: exclusions.some((e) => e.in_effect) ? 'excluded' : 'clear',
    uei: subject.uei ?? shown?.uei ?? null,
    cage: subject.cage ?? shown?.cage ?? null,
    legal_name: shown?.legal_name ?? subject.legal_name,
    registration_expires_on: shown?.expires_on ?? null,
    exclusion_records: exclusions,
  };
}

function distinct(keys: Iterable<string>): string[] {
  return [...new Set(keys)];
}

/** The SAM records in the registry projection that match the subject (see the module comment). */
export function findRegistryRecords(state: RegistryState, subject: RegistrySubject): RegistryRecords {
  const byUei = subject.uei === null ? undefined : own(state.registrations, subject.uei);
  const regUeis = byUei ? [byUei.record.uei] : listed(state.registrations_by_cage, subject.cage);
  const registrations = regUeis.map((uei) => own(state.registrations, uei)?.record);

  const exclusionKeys =
    subject.uei === null && subject.cage === null
      ? [subject.legal_name, ...(subject.aliases ?? [])].flatMap((n) =>
          listed(state.exclusions_by_name, nameKey(n)),
        )
      : [...listed(state.exclusions_by_uei, subject.uei), ...listed(state.exclusions_by_cage, subject.cage)];
  const exclusions = distinct(exclusionKeys).map((key) => own(state.exclusions, key)?.record);
  return {
    registrations: registrations.filter((r) => r !== undefined),
    exclusions: exclusions.filter((r) => r !== undefined),
  };
}

function extractSource(state: RegistryState): RegistrySource {
  const imports = [state.imports.exclusions_csv, state.imports.entity_v2].filter(
    (i): i is ImportRef => i !== null,
  );
  if (imports.length === 0) return { kind: 'sam_extract', as_of: null };
  const stalest = imports.reduce((a, b) => (b.as_of < a.as_of ? b : a));
  return { kind: 'sam_extract', file: stalest.file, as_of: stalest.as_of };
}

/** Matches and checks in one step against the extract-backed registry, with its source. */
export function verifyContractorRegistry(
  state: RegistryState,
  subject: RegistrySubject,
  today: string,
): RegistryCheck & { source: RegistrySource } {
  const check = checkContractorRegistry(subject, findRegistryRecords(state, subject), today);
  return { ...check, source: extractSource(state) };
}

/** The check over what SAM.gov's API answered at `fetched_at` (an ISO instant), with its source. */
export function verifyFromSamAnswer(
  subject: RegistrySubject,
  answer: RegistryRecords & { fetched_at: string },
  today: string,
): RegistryCheck & { source: RegistrySource } {
  const check = checkContractorRegistry(subject, answer, today);
  return {
    ...check,
    source: { kind: 'sam_api', as_of: answer.fetched_at.slice(0, 10), fetched_at: answer.fetched_at },
  };
}
