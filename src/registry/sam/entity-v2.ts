/**
 * SAM entity public extract V2 (`.dat`, SPEC §13), streamed line by line (readline): a BOF line,
 * one `|`-delimited record of 142 fields ending in `!end` per line, an EOF line repeating the BOF
 * figures. Read in two passes: `readV2Envelope` proves the file is whole (BOF first, matching EOF
 * last) before `parseEntityV2` yields a single record, so a truncated file imports nothing.
 */
import { createInterface } from 'node:readline';
import { Transform, type Readable } from 'node:stream';
import { canonicalCode } from '../normalize.js';
import type { RegistrationStatus, SamRegistrationRecord } from '../records.js';
import { compactDateToIso } from './dates.js';
import { SamFileRejected, text, type ParsedRow } from './rows.js';

export const V2_FIELD_COUNT = 142;
export const V2_END_MARKER = '!end';
export const V2_MULTI_VALUE = '~';

/** 1-based positions of the fields used (SPEC §13). */
export const V2_FIELDS = {
  uei: 1,
  duns: 2,
  cage: 4,
  extractCode: 6,
  purpose: 7,
  registeredOn: 8,
  expiresOn: 9,
  updatedOn: 10,
  activatedOn: 11,
  legalName: 12,
  dbaName: 13,
  city: 18,
  state: 19,
  businessTypes: 32,
  primaryNaics: 33,
  exclusionFlag: 116,
  sbaBusinessTypes: 118,
} as const;

/** Monthly extracts: A active, E expired; daily: 1 deleted, 2 new, 3 updated, 4 expired. */
const EXTRACT_CODES: Record<string, RegistrationStatus> = {
  A: 'active',
  E: 'expired',
  '1': 'deleted',
  '2': 'active',
  '3': 'active',
  '4': 'expired',
};

/** SAM's exclusion status flag value meaning "has an active exclusion". */
const EXCLUDED_FLAG = 'D';
/** Each SBA business type item is a 2-character code followed by its certification dates. */
const SBA_CODE_LENGTH = 2;

/** `BOF PUBLIC 00000000 20240301 0000123 0008169`: from date, to date, record count, sequence. */
const ENVELOPE = /^(BOF|EOF)\s+PUBLIC\s+(?:V2\s+)?(\d{8})\s+(\d{8})\s+(\d+)\s+(\d+)\s*$/;

export interface V2Envelope {
  bof_line: number;
  eof_line: number;
  /** The extract date (BOF's second date), YYYY-MM-DD, when it is a real date. */
  as_of: string | null;
  declared_rows: number;
}

/**
 * The longest line a V2 file may hold: a record of 142 fields is a few KB; the exclusions CSV
 * reader's cap on a record is the same. readline keeps a line whole in memory, so a file of one
 * endless line died of 'Invalid string length' at ~512 MB instead of being rejected.
 */
export const V2_MAX_LINE_BYTES = 1_000_000;

function lines(input: Readable, maxLineBytes = V2_MAX_LINE_BYTES): AsyncIterable<string> {
  let run = 0; // bytes since the last line feed
  let lineNo = 1;
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let from = 0;
      for (;;) {
        const at = chunk.indexOf(0x0a, from);
        run += (at === -1 ? chunk.length : at) - from;
        if (run > maxLineBytes) {
          done(new SamFileRejected(`a line longer than ${maxLineBytes} bytes is no V2 record`, lineNo));
          return;
        }
        if (at === -1) break;
        run = 0;
        lineNo += 1;
        from = at + 1;
      }
      done(null, chunk);
    },
  });
  input.on('error', (error) => guard.destroy(error));
  guard.on('close', () => input.destroy());
  return createInterface({ input: input.pipe(guard), crlfDelay: Infinity });
}

/** Pass one: BOF on the first non-blank line, an EOF with the same figures on the last. */
export async function readV2Envelope(input: Readable): Promise<V2Envelope> {
  let first: { line: number; text: string } | undefined;
  let last: { line: number; text: string } | undefined;
  let lineNo = 0;
  for await (const raw of lines(input)) {
    lineNo += 1;
    if (raw.trim() === '') continue;
    first ??= { line: lineNo, text: raw };
    last = { line: lineNo, text: raw };
  }
  if (first === undefined || last === undefined) throw new SamFileRejected('empty file', 1);
  const bof = ENVELOPE.exec(first.text.trim());
  if (bof?.[1] !== 'BOF') throw new SamFileRejected('no BOF PUBLIC header on the first line', first.line);
  const eof = last === first ? null : ENVELOPE.exec(last.text.trim());
  if (eof?.[1] !== 'EOF') {
    throw new SamFileRejected('no EOF PUBLIC trailer on the last line (truncated file?)', last.line);
  }
  if (bof.slice(2).join(' ') !== eof.slice(2).join(' ')) {
    throw new SamFileRejected(`EOF trailer "${last.text.trim()}" does not match the BOF header`, last.line);
  }
  return {
    bof_line: first.line,
    eof_line: last.line,
    as_of: compactDateToIso(bof[3]!) ?? null,
    declared_rows: Number(bof[4]),
  };
}

type Field = (position: number) => string | null;

function multi(value: string | null): string[] {
  return (value ?? '')
    .split(V2_MULTI_VALUE)
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

const DATE_FIELDS = [
  ['registered_on', V2_FIELDS.registeredOn, 'initial registration date'],
  ['expires_on', V2_FIELDS.expiresOn, 'registration expiration date'],
  ['updated_on', V2_FIELDS.updatedOn, 'last update date'],
  ['activated_on', V2_FIELDS.activatedOn, 'activation date'],
] as const;
type DateKey = (typeof DATE_FIELDS)[number][0];

function registrationDates(f: Field): Record<DateKey, string | null> | string {
  const out: Record<DateKey, string | null> = {
    registered_on: null,
    expires_on: null,
    updated_on: null,
    activated_on: null,
  };
  for (const [key, position, label] of DATE_FIELDS) {
    const raw = f(position);
    if (raw === null) continue;
    const iso = compactDateToIso(raw);
    if (iso === undefined) return `${label} "${raw}" (field ${position}) is not a YYYYMMDD date`;
    out[key] = iso;
  }
  return out;
}

function toRecord(f: Field): SamRegistrationRecord | string {
  const uei = canonicalCode(f(V2_FIELDS.uei));
  if (uei === null) return 'UEI (SAM) (field 1) is empty';
  const code = f(V2_FIELDS.extractCode) ?? '';
  const status = Object.hasOwn(EXTRACT_CODES, code) ? EXTRACT_CODES[code] : undefined;
  if (status === undefined) return `extract code "${code}" (field 6) is not one of A, E, 1, 2, 3, 4`;
  const legalName = f(V2_FIELDS.legalName);
  if (legalName === null && status !== 'deleted') return 'legal business name (field 12) is empty';
  const dates = registrationDates(f);
  if (typeof dates === 'string') return dates;
  return {
    uei,
    duns: canonicalCode(f(V2_FIELDS.duns)),
    cage: canonicalCode(f(V2_FIELDS.cage)),
    legal_name: legalName ?? '',
    dba_name: f(V2_FIELDS.dbaName),
    status,
    purpose: f(V2_FIELDS.purpose),
    ...dates,
    city: f(V2_FIELDS.city),
    state: f(V2_FIELDS.state),
    business_types: multi(f(V2_FIELDS.businessTypes)).map((c) => c.toUpperCase()),
    sba_business_types: multi(f(V2_FIELDS.sbaBusinessTypes)).map((c) =>
      c.slice(0, SBA_CODE_LENGTH).toUpperCase(),
    ),
    primary_naics: f(V2_FIELDS.primaryNaics),
    exclusion_flag: f(V2_FIELDS.exclusionFlag) === EXCLUDED_FLAG,
  };
}

export function parseV2Line(raw: string, line: number): ParsedRow<SamRegistrationRecord> {
  const fields = raw.split('|');
  if (fields.length !== V2_FIELD_COUNT) {
    return { kind: 'rejected', line, reason: `record has ${fields.length} fields; V2 records have 142` };
  }
  if (fields[V2_FIELD_COUNT - 1]!.trim() !== V2_END_MARKER) {
    return { kind: 'rejected', line, reason: `record does not end with ${V2_END_MARKER}` };
  }
  const record = toRecord((position) => text(fields[position - 1]));
  return typeof record === 'string'
    ? { kind: 'rejected', line, reason: record }
    : { kind: 'record', line, record };
}

/** Pass two: the records between the envelope lines `readV2Envelope` found. */
export async function* parseEntityV2(
  input: Readable,
  envelope: V2Envelope,
): AsyncGenerator<ParsedRow<SamRegistrationRecord>> {
  let lineNo = 0;
  for await (const raw of lines(input)) {
    lineNo += 1;
    if (lineNo <= envelope.bof_line || raw.trim() === '') continue;
    if (lineNo >= envelope.eof_line) return;
    if (ENVELOPE.test(raw.trim())) {
      yield {
        kind: 'rejected',
        line: lineNo,
        reason: 'BOF/EOF line inside the file (concatenated extracts?)',
      };
    } else {
      yield parseV2Line(raw, lineNo);
    }
  }
}
