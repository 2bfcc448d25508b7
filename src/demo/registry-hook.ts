/**
 * The registry hook: SAM.gov extracts for the demo's entities, in the real formats (SPEC §13), to
 * upload through `POST /api/registry/import` (admin) once the registry capability mounts it.
 * - an entity extract V2 (`.dat`) registering every SAM entity, Redline's registration expired;
 * - an exclusions extract (CSV) suspending Apex Restoration Group (DHS/FEMA, "Indefinite"): the
 *   SUSPENDED behavioral state, a 0 compliance score and a NOT_FUNDABLE P10 (DOMAIN §4, §5, §9).
 */
import { addDays } from './calendar.js';
import type { EntityIdentifiers } from './entities.js';
import { ROSTER } from './roster.js';
import type { StepDraft } from './steps.js';

export const EXCLUDED_ENTITY = 'gc.apex';
/** Its registration ran out: "inactive" in the contractor registry (DOMAIN §5). */
export const EXPIRED_REGISTRATION = 'gc.redline';
/** The exclusion took effect this many days before `today`. */
export const EXCLUSION_ACTIVE_DAYS_AGO = 56;

const V2_FIELDS = 142;
const compact = (date: string): string => date.replaceAll('-', '');
const usDate = (date: string): string => `${date.slice(5, 7)}/${date.slice(8, 10)}/${date.slice(0, 4)}`;

function v2Record(key: string, ids: EntityIdentifiers, today: string): string {
  const entity = ROSTER.find((e) => e.key === key)!;
  const f: string[] = Array.from({ length: V2_FIELDS }, () => '');
  const expired = key === EXPIRED_REGISTRATION;
  // 1-based field positions per SPEC §13.
  const set = (n: number, value: string): void => {
    f[n - 1] = value;
  };
  set(1, ids.uei ?? '');
  set(4, ids.cage ?? '');
  set(6, expired ? 'E' : 'A');
  set(7, 'Z2');
  set(8, compact(addDays(today, -900)));
  set(9, compact(addDays(today, expired ? -40 : 220)));
  set(10, compact(addDays(today, -30)));
  set(11, compact(addDays(today, -900)));
  set(12, entity.legal_name.toUpperCase());
  set(13, (entity.aliases?.[0] ?? '').toUpperCase());
  set(19, entity.state);
  set(31, String(entity.business_types?.length ?? 0));
  set(32, (entity.business_types ?? []).join('~'));
  set(33, entity.roles.includes('supplier') ? '423390' : '236220');
  set(116, key === EXCLUDED_ENTITY ? 'D' : '');
  set(V2_FIELDS, '!end');
  return f.join('|');
}

/** The monthly entity extract as of `asOf`, CRLF like SAM's own files. */
export function samEntityExtract(
  ids: ReadonlyMap<string, EntityIdentifiers>,
  asOf: string,
  today: string,
): string {
  const records = ROSTER.filter((e) => ids.get(e.key)?.uei).map((e) =>
    v2Record(e.key, ids.get(e.key)!, today),
  );
  const envelope = `PUBLIC 00000000 ${compact(asOf)} ${String(records.length).padStart(7, '0')} 0000001`;
  return [`BOF ${envelope}`, ...records, `EOF ${envelope}`].join('\r\n');
}

// prettier-ignore
const EXCLUSION_HEADER = [
  'Classification', 'Name', 'Prefix', 'First', 'Middle', 'Last', 'Suffix', 'Address 1', 'Address 2',
  'Address 3', 'Address 4', 'City', 'State / Province', 'Country', 'Zip Code', 'D&B Open Data Flag',
  'Unique Entity Identifier (DUNS)', 'Unique Entity Identifier (SAM)', 'Exclusion Program',
  'Excluding Agency', 'CT Code', 'Exclusion Type', 'Additional Comments', 'Active Date',
  'Termination Date', 'Record Status', 'Cross-Reference', 'SAM Number', 'CAGE', 'NPI', 'Creation_Date',
];

const csvRow = (cells: readonly string[]): string =>
  cells.map((c) => `"${c.replaceAll('"', '""')}"`).join(',');

/** The exclusions extract naming the excluded GC by UEI and CAGE. */
export function samExclusions(ids: ReadonlyMap<string, EntityIdentifiers>, activeOn: string): string {
  const apex = ids.get(EXCLUDED_ENTITY)!;
  const row: Record<string, string> = {
    Classification: 'Firm',
    Name: 'APEX RESTORATION GROUP LLC',
    'Address 1': '4100 Tchoupitoulas St',
    City: 'NEW ORLEANS',
    'State / Province': 'LA',
    Country: 'USA',
    'Zip Code': '70115',
    'D&B Open Data Flag': 'N',
    'Unique Entity Identifier (SAM)': apex.uei ?? '',
    'Exclusion Program': 'Reciprocal',
    'Excluding Agency': 'DHS',
    'CT Code': 'A',
    'Exclusion Type': 'Ineligible (Proceedings Pending)',
    'Additional Comments': 'Suspended pending debarment: false claims on disaster restoration invoices.',
    'Active Date': usDate(activeOn),
    'Termination Date': 'Indefinite',
    'SAM Number': `S4MR${apex.ein.replace('-', '').slice(0, 5)}`,
    CAGE: apex.cage ?? '',
    Creation_Date: activeOn,
  };
  return [csvRow(EXCLUSION_HEADER), csvRow(EXCLUSION_HEADER.map((h) => row[h] ?? ''))].join('\r\n');
}

/** Both uploads as dated `registry` steps, sent with the operator's admin key. */
export function registrySteps(
  ids: ReadonlyMap<string, EntityIdentifiers>,
  registeredOn: string,
  today: string,
): { date: string; draft: StepDraft }[] {
  const activeOn = addDays(today, -EXCLUSION_ACTIVE_DAYS_AGO);
  const upload = (date: string, content_type: string, text: string, label: string) => ({
    date,
    draft: {
      phase: 'registry' as const,
      sender: 'operator' as const,
      path: '/api/registry/import',
      body: null,
      raw: { content_type, text },
      label,
      expect: [200, 201],
    },
  });
  return [
    upload(
      addDays(registeredOn, 1),
      'text/plain',
      samEntityExtract(ids, addDays(registeredOn, 1), today),
      'SAM entity extract (V2)',
    ),
    upload(
      activeOn,
      'text/csv',
      samExclusions(ids, activeOn),
      'SAM exclusions extract: Apex Restoration Group',
    ),
  ];
}
