/**
 * SAM exclusions public extract (CSV, SPEC §13), streamed through csv-parse. Columns are found by
 * header name (older extracts name and order them differently). Each data row yields a normalized
 * record or a rejection with the line the row starts on and why.
 */
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { canonicalCode } from '../normalize.js';
import { INDEFINITE, type ExcludedPerson, type SamExclusionRecord } from '../records.js';
import { isoDateOrUndefined, usDateToIso } from './dates.js';
import { SamFileRejected, text, type ParsedRow } from './rows.js';

/** Header names per field; later names are the spellings older extracts used. */
const COLUMNS = {
  classification: ['Classification'],
  name: ['Name'],
  prefix: ['Prefix'],
  first: ['First'],
  middle: ['Middle'],
  last: ['Last'],
  suffix: ['Suffix'],
  address1: ['Address 1'],
  address2: ['Address 2'],
  address3: ['Address 3'],
  address4: ['Address 4'],
  city: ['City'],
  state_province: ['State / Province', 'State/Province'],
  country: ['Country'],
  zip: ['Zip Code'],
  duns: ['Unique Entity Identifier (DUNS)', 'DUNS'],
  uei: ['Unique Entity Identifier (SAM)', 'UEI'],
  program: ['Exclusion Program'],
  agency: ['Excluding Agency'],
  ct_code: ['CT Code'],
  type: ['Exclusion Type'],
  additional_comments: ['Additional Comments'],
  active: ['Active Date'],
  termination: ['Termination Date'],
  record_status: ['Record Status'],
  cross_reference: ['Cross-Reference'],
  sam_number: ['SAM Number'],
  cage: ['CAGE'],
  npi: ['NPI'],
  created: ['Creation_Date', 'Creation Date'],
} as const;
type Column = keyof typeof COLUMNS;

/** Without these a row cannot say who is excluded and when. */
const REQUIRED: readonly Column[] = ['name', 'program', 'agency', 'type', 'active', 'termination'];

/** A record larger than this is an unclosed quote eating the file, not a row (real rows are < 4 KB). */
export const MAX_RECORD_BYTES = 1_000_000;

interface Header {
  width: number;
  at: Partial<Record<Column, number>>;
}

function headerKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

function readHeader(fields: string[], line: number): Header {
  const positions = new Map(fields.map((f, i) => [headerKey(f), i] as const));
  const at: Partial<Record<Column, number>> = {};
  for (const column of Object.keys(COLUMNS) as Column[]) {
    const found = COLUMNS[column].map((n) => positions.get(headerKey(n))).find((i) => i !== undefined);
    if (found !== undefined) at[column] = found;
  }
  const missing = REQUIRED.filter((c) => at[c] === undefined).map((c) => COLUMNS[c][0]);
  if (missing.length > 0) {
    throw new SamFileRejected(`not a SAM exclusions extract: missing columns ${missing.join(', ')}`, line);
  }
  return { width: fields.length, at };
}

/**
 * SAM writes some Additional Comments unquoted while doubling the quotes inside them, so commas in
 * the comment split it into extra fields (7 rows of the real 20049 extract, e.g. the Davis-Bacon
 * debarment text). The defect's signature is a comment field that starts with a quote character
 * and a row exactly that many fields too wide; only then are the extra fields joined back into the
 * comment. The caller still validates the realigned row and rejects it if its dates do not parse.
 */
function realignComment(fields: string[], header: Header): string[] | undefined {
  const extra = fields.length - header.width;
  const at = header.at.additional_comments;
  if (extra <= 0 || at === undefined || !fields[at]?.startsWith('"')) return undefined;
  const comment = fields
    .slice(at, at + extra + 1)
    .join(',')
    .replace(/""/g, '"')
    .replace(/^"+|"+$/g, '');
  return [...fields.slice(0, at), comment, ...fields.slice(at + extra + 1)];
}

type Cells = (column: Column) => string | null;

function person(cell: Cells): ExcludedPerson | null {
  const p = {
    prefix: cell('prefix'),
    first: cell('first'),
    middle: cell('middle'),
    last: cell('last'),
    suffix: cell('suffix'),
  };
  return Object.values(p).some((v) => v !== null) ? p : null;
}

/** Exclusion dates: Active may be empty, Termination may be "Indefinite". */
function exclusionDates(cell: Cells): { active_on: string | null; terminates_on: string | null } | string {
  const active = cell('active');
  const active_on = active === null ? null : usDateToIso(active);
  if (active_on === undefined) return `Active Date "${active}" is not a MM/DD/YYYY date`;
  const termination = cell('termination');
  if (termination === null) return { active_on, terminates_on: null };
  if (termination.toLowerCase() === INDEFINITE.toLowerCase()) return { active_on, terminates_on: INDEFINITE };
  const terminates_on = usDateToIso(termination);
  if (terminates_on === undefined) {
    return `Termination Date "${termination}" is neither a MM/DD/YYYY date nor Indefinite`;
  }
  return { active_on, terminates_on };
}

function toRecord(fields: string[], header: Header): SamExclusionRecord | string {
  const cell: Cells = (column) => {
    const i = header.at[column];
    return i === undefined ? null : text(fields[i]);
  };
  const who = person(cell);
  const name =
    cell('name') ??
    (who
      ? Object.values(who)
          .filter((v) => v !== null)
          .join(' ')
      : null);
  if (name === null) return 'Name, First and Last are all empty';
  const dates = exclusionDates(cell);
  if (typeof dates === 'string') return dates;
  const created = cell('created');
  return {
    classification: cell('classification'),
    name,
    person: who,
    uei: canonicalCode(cell('uei')),
    duns: canonicalCode(cell('duns')),
    cage: canonicalCode(cell('cage')),
    npi: cell('npi'),
    sam_number: canonicalCode(cell('sam_number')),
    program: cell('program'),
    agency: cell('agency'),
    ct_code: cell('ct_code'),
    type: cell('type'),
    ...dates,
    address: {
      lines: [cell('address1'), cell('address2'), cell('address3'), cell('address4')].filter(
        (l) => l !== null,
      ),
      city: cell('city'),
      state_province: cell('state_province'),
      country: cell('country'),
      zip: cell('zip'),
    },
    cross_reference: cell('cross_reference'),
    additional_comments: cell('additional_comments'),
    record_status: cell('record_status'),
    // Creation_Date is bookkeeping: a malformed one must not drop an exclusion from the list.
    created_on: created === null ? null : (isoDateOrUndefined(created) ?? null),
  };
}

function toRow(fields: string[], header: Header, line: number): ParsedRow<SamExclusionRecord> {
  const misfit = `row has ${fields.length} fields; the header has ${header.width}`;
  const realigned = fields.length > header.width ? realignComment(fields, header) : undefined;
  if (fields.length !== header.width && realigned === undefined)
    return { kind: 'rejected', line, reason: misfit };
  const record = toRecord(realigned ?? fields, header);
  if (typeof record === 'string') {
    return { kind: 'rejected', line, reason: realigned ? `${misfit} (${record} after realigning)` : record };
  }
  if (!realigned) return { kind: 'record', line, record };
  const repaired = `${misfit}: unquoted commas in Additional Comments joined back into it`;
  return { kind: 'record', line, record, repaired };
}

const LINE_BREAK = /\r\n|\r|\n/g;

function lineBreaksIn(fields: string[]): number {
  let n = 0;
  for (const f of fields) if (f.includes('\n') || f.includes('\r')) n += f.match(LINE_BREAK)?.length ?? 0;
  return n;
}

function isBlank(fields: string[]): boolean {
  return fields.length === 1 && fields[0]!.trim() === '';
}

/**
 * Streams rows. Line numbers are counted here from the line breaks inside each record's fields
 * (csv-parse's own `info.lines` double-counts CRLF inside quoted fields). Blank lines are skipped
 * and not rows. A header without the required columns rejects the file (SamFileRejected).
 * csv-parse reports unreadable text through `on_skip`, in parse order with `on_record`, so each
 * skip is placed after the records emitted before it. It cannot resynchronize after an unclosed
 * quote: the first skip makes the rest of the text one rejected row. (Letting it throw instead
 * would destroy the stream and lose the records it had already buffered.)
 */
export async function* parseExclusionsCsv(input: Readable): AsyncGenerator<ParsedRow<SamExclusionRecord>> {
  let emitted = 0;
  const skips: { after: number; reason: string }[] = [];
  const parser = input.pipe(
    parse({
      bom: true,
      relax_quotes: true,
      relax_column_count: true,
      max_record_size: MAX_RECORD_BYTES,
      skip_records_with_error: true,
      on_record: (fields: string[]) => {
        emitted += 1;
        return fields;
      },
      on_skip: (error: Error | undefined) => {
        skips.push({ after: emitted, reason: error?.message ?? 'unreadable text' });
        return undefined;
      },
    }),
  );
  input.on('error', (error) => parser.destroy(error));
  let header: Header | undefined;
  let nextLine = 1;
  let consumed = 0;
  const unreadable = (): ParsedRow<SamExclusionRecord> => {
    const reason = `unreadable from here to the end of the file: ${skips[0]!.reason}`;
    if (header === undefined) throw new SamFileRejected(reason, nextLine);
    return { kind: 'rejected', line: nextLine, reason };
  };
  try {
    for await (const fields of parser as AsyncIterable<string[]>) {
      if (skips.length > 0 && skips[0]!.after <= consumed) {
        yield unreadable();
        return;
      }
      consumed += 1;
      const line = nextLine;
      nextLine += 1 + lineBreaksIn(fields);
      if (isBlank(fields)) continue;
      if (header === undefined) header = readHeader(fields, line);
      else yield toRow(fields, header, line);
    }
  } finally {
    parser.destroy();
  }
  if (skips.length > 0) yield unreadable();
  else if (header === undefined) throw new SamFileRejected('empty file: no header row', 1);
}
