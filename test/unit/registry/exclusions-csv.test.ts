import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import type { SamExclusionRecord } from '../../../src/registry/records.js';
import { parseExclusionsCsv } from '../../../src/registry/sam/exclusions-csv.js';
import { SamFileRejected, type ParsedRow } from '../../../src/registry/sam/rows.js';
import { FIXTURES } from './support.js';

async function rowsOf(input: Readable): Promise<ParsedRow<SamExclusionRecord>[]> {
  const out: ParsedRow<SamExclusionRecord>[] = [];
  for await (const row of parseExclusionsCsv(input)) out.push(row);
  return out;
}

const fixture = () => rowsOf(createReadStream(join(FIXTURES, 'exclusions-small.csv')));
const text = (csv: string) => Readable.from([Buffer.from(csv)]);

function recordAt(rows: ParsedRow<SamExclusionRecord>[], line: number): SamExclusionRecord {
  const row = rows.find((r) => r.line === line);
  if (row?.kind !== 'record') throw new Error(`line ${line} is not a record: ${JSON.stringify(row)}`);
  return row.record;
}

async function rejection(promise: Promise<unknown>): Promise<SamFileRejected> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SamFileRejected) return error;
    throw error;
  }
  throw new Error('expected the file to be rejected');
}

describe('SAM exclusions CSV parser', () => {
  it('reads every row of the fixture, numbered by the line it starts on, blank lines skipped', async () => {
    const rows = await fixture();
    expect(rows.map((r) => [r.line, r.kind])).to.deep.equal([
      [2, 'record'],
      [3, 'record'],
      [4, 'record'],
      [5, 'record'],
      [7, 'record'],
      [8, 'rejected'],
      [9, 'rejected'],
      [10, 'rejected'],
      [11, 'record'],
      [12, 'rejected'],
      [13, 'rejected'],
      [15, 'record'],
      [16, 'record'],
    ]);
  });

  it('normalizes a firm row: identifiers upper-cased, MM/DD/YYYY dates to ISO, address collected', async () => {
    expect(recordAt(await fixture(), 2)).to.deep.include({
      classification: 'Firm',
      name: 'ACME BUILDERS, INC.',
      uei: 'ACMEBLDRS001',
      cage: '1ABC2',
      sam_number: 'S4MRACME1',
      program: 'Reciprocal',
      agency: 'GSA',
      ct_code: 'A',
      active_on: '2024-01-15',
      terminates_on: '2027-01-14',
      created_on: '2024-01-15',
      address: { lines: ['100 MAIN ST'], city: 'AUSTIN', state_province: 'TX', country: 'USA', zip: '78701' },
    });
  });

  it('keeps quoted commas, quotes and line breaks inside a field', async () => {
    expect(recordAt(await fixture(), 5).additional_comments).to.equal(
      'Debarred: false statements,\r\nbid rigging "in concert"',
    );
  });

  it('records individuals, naming them from First/Middle/Last when Name is empty', async () => {
    const jane = recordAt(await fixture(), 4);
    expect(jane.name).to.equal('JANE Q DOE');
    expect(jane.person).to.deep.equal({
      prefix: null,
      first: 'JANE',
      middle: 'Q',
      last: 'DOE',
      suffix: null,
    });
  });

  it('accepts an empty Classification and an empty Active Date', async () => {
    expect(recordAt(await fixture(), 7)).to.include({
      classification: null,
      active_on: null,
      terminates_on: 'Indefinite',
    });
  });

  it('reads "Indefinite" in any case and a blank Termination Date as no date', async () => {
    const rows = await fixture();
    expect(recordAt(rows, 16).terminates_on).to.equal('Indefinite');
    expect(recordAt(rows, 15)).to.include({ terminates_on: null, cage: 'V1SSL', uei: null });
  });

  it('keeps a row whose only fault is a malformed Creation_Date, without the date', async () => {
    expect(recordAt(await fixture(), 16).created_on).to.equal(null);
  });

  it("realigns SAM's unquoted Additional Comments and says so", async () => {
    const row = (await fixture()).find((r) => r.line === 11);
    expect(row?.kind === 'record' && row.repaired).to.match(/33 fields; the header has 31/);
    expect(row?.kind === 'record' && row.record).to.include({
      additional_comments: 'The contractor has been debarred, or any firm, corporation.',
      active_on: '2020-01-29',
      terminates_on: '2023-01-28',
      sam_number: 'S4MRDVSB1',
    });
  });

  describe('rejects a row, with its line and why, when', () => {
    const reasons = async () =>
      new Map((await fixture()).flatMap((r) => (r.kind === 'rejected' ? [[r.line, r.reason] as const] : [])));

    it('the Active Date is not a MM/DD/YYYY date', async () => {
      expect((await reasons()).get(8)).to.equal('Active Date "13/45/2020" is not a MM/DD/YYYY date');
    });

    it('the Termination Date is neither a date nor Indefinite', async () => {
      expect((await reasons()).get(9)).to.equal(
        'Termination Date "someday" is neither a MM/DD/YYYY date nor Indefinite',
      );
    });

    it('it has fewer fields than the header', async () => {
      expect((await reasons()).get(10)).to.equal('row has 10 fields; the header has 31');
    });

    it('it has more fields than the header and is not the comment defect', async () => {
      expect((await reasons()).get(13)).to.equal('row has 32 fields; the header has 31');
    });

    it('it names no one', async () => {
      expect((await reasons()).get(12)).to.equal('Name, First and Last are all empty');
    });

    it('a realigned row still does not parse', async () => {
      const csv =
        'Name,Additional Comments,Exclusion Program,Excluding Agency,Exclusion Type,Active Date,Termination Date\r\nX,""a, b"",P,A,T,99/99/2020,Indefinite';
      const [row] = await rowsOf(text(csv));
      expect(row).to.deep.equal({
        kind: 'rejected',
        line: 2,
        reason:
          'row has 8 fields; the header has 7 (Active Date "99/99/2020" is not a MM/DD/YYYY date after realigning)',
      });
    });

    it('a quote is never closed: the rest of the file is one unreadable row', async () => {
      const csv =
        'Name,Exclusion Program,Excluding Agency,Exclusion Type,Active Date,Termination Date\nA,P,G,T,,Indefinite\n"B,P,G,T,,Indefinite\nC,P,G,T,,Indefinite\n';
      const rows = await rowsOf(text(csv));
      expect(rows.map((r) => [r.line, r.kind])).to.deep.equal([
        [2, 'record'],
        [3, 'rejected'],
      ]);
      expect(rows[1]?.kind === 'rejected' && rows[1].reason).to.match(
        /^unreadable from here to the end of the file/,
      );
    });
  });

  it('maps columns by header name, in any order and with older names', async () => {
    const csv =
      'Termination Date,DUNS,Name,Active Date,Excluding Agency,Exclusion Type,Exclusion Program\n01/02/2030,123456789,Old Layout Co,01/02/2020,EPA,Voluntary Exclusion,Reciprocal\n';
    const [row] = await rowsOf(text(csv));
    expect(row?.kind === 'record' && row.record).to.include({
      name: 'Old Layout Co',
      duns: '123456789',
      agency: 'EPA',
      active_on: '2020-01-02',
      terminates_on: '2030-01-02',
      uei: null,
    });
  });

  describe('rejects the whole file when', () => {
    it('the header lacks a required column, naming what is missing', async () => {
      const error = await rejection(rowsOf(text('Name,Exclusion Program\nA,B\n')));
      expect(error.line).to.equal(1);
      expect(error.reason).to.equal(
        'not a SAM exclusions extract: missing columns Excluding Agency, Exclusion Type, Active Date, Termination Date',
      );
    });

    it('it is empty', async () => {
      expect((await rejection(rowsOf(text('\r\n\r\n')))).reason).to.equal('empty file: no header row');
    });
  });
});
