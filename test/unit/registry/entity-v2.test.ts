import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import type { SamRegistrationRecord } from '../../../src/registry/records.js';
import { parseEntityV2, parseV2Line, readV2Envelope } from '../../../src/registry/sam/entity-v2.js';
import { SamFileRejected, type ParsedRow } from '../../../src/registry/sam/rows.js';
import { BOF, EOF, FIXTURES, v2Line, v2Record } from './support.js';

const lines =
  (...text: string[]) =>
  () =>
    Readable.from([Buffer.from(text.join('\n'))]);
const fixture = (name: string) => () => createReadStream(join(FIXTURES, name));

async function parseAll(open: () => Readable): Promise<ParsedRow<SamRegistrationRecord>[]> {
  const envelope = await readV2Envelope(open());
  const out: ParsedRow<SamRegistrationRecord>[] = [];
  for await (const row of parseEntityV2(open(), envelope)) out.push(row);
  return out;
}

async function envelopeRejection(open: () => Readable): Promise<SamFileRejected> {
  try {
    await readV2Envelope(open());
  } catch (error) {
    if (error instanceof SamFileRejected) return error;
    throw error;
  }
  throw new Error('expected the file to be rejected');
}

function records(rows: ParsedRow<SamRegistrationRecord>[]): SamRegistrationRecord[] {
  return rows.flatMap((r) => (r.kind === 'record' ? [r.record] : []));
}

describe('SAM entity extract V2 parser', () => {
  it('reads the BOF figures: extract date and declared record count', async () => {
    const envelope = await readV2Envelope(fixture('SAM_PUBLIC_MONTHLY_V2_20240301.dat')());
    expect(envelope).to.deep.equal({ bof_line: 1, eof_line: 5, as_of: '2024-03-01', declared_rows: 3 });
  });

  it('maps a monthly record: extract code A is active, YYYYMMDD dates, ~ multi-values, SBA codes', async () => {
    const [acme] = records(await parseAll(fixture('SAM_PUBLIC_MONTHLY_V2_20240301.dat')));
    expect(acme).to.deep.equal({
      uei: 'ACMEBLDRS001',
      duns: '123456789',
      cage: '1ABC2',
      legal_name: 'ACME BUILDERS, INC.',
      dba_name: 'ACME',
      status: 'active',
      purpose: 'Z2',
      registered_on: '2020-01-15',
      expires_on: '2025-01-14',
      updated_on: '2024-01-10',
      activated_on: '2024-01-15',
      city: 'AUSTIN',
      state: 'TX',
      business_types: ['2X', '27'],
      sba_business_types: ['A6', 'XX'],
      primary_naics: '236220',
      exclusion_flag: false,
    });
  });

  it('maps every extract code: A/2/3 active, E/4 expired, 1 deleted; D flags an exclusion', async () => {
    const monthly = records(await parseAll(fixture('SAM_PUBLIC_MONTHLY_V2_20240301.dat')));
    const daily = records(await parseAll(fixture('SAM_PUBLIC_DAILY_V2_20240302.dat')));
    expect(monthly.map((r) => [r.uei, r.status, r.exclusion_flag])).to.deep.equal([
      ['ACMEBLDRS001', 'active', false],
      ['BRDGWAYCNC01', 'expired', false],
      ['NEWCOBLDR001', 'active', true],
    ]);
    expect(daily.map((r) => [r.uei, r.status])).to.deep.equal([
      ['ACMEBLDRS001', 'active'],
      ['BRDGWAYCNC01', 'deleted'],
      ['FRESHCO00001', 'active'],
    ]);
    const expired4 = parseV2Line(v2Record('FOURFOURFOUR', { 6: '4' }), 2);
    expect(expired4.kind === 'record' && expired4.record.status).to.equal('expired');
  });

  describe('rejects a record, with its line and why, when', () => {
    const reason = (raw: string) => {
      const row = parseV2Line(raw, 7);
      return row.kind === 'rejected' ? `${row.line}: ${row.reason}` : 'accepted';
    };

    it('it does not have 142 fields', () => {
      expect(reason(`${v2Record('ACMEBLDRS001')}|extra`)).to.equal(
        '7: record has 143 fields; V2 records have 142',
      );
      expect(reason('ACMEBLDRS001|A|!end')).to.equal('7: record has 3 fields; V2 records have 142');
    });

    it('it does not end with !end', () => {
      expect(reason(v2Line({ 1: 'ACMEBLDRS001', 6: 'A', 12: 'X', 142: 'end' }))).to.equal(
        '7: record does not end with !end',
      );
    });

    it('the UEI is empty', () => {
      expect(reason(v2Record(''))).to.equal('7: UEI (SAM) (field 1) is empty');
    });

    it('the extract code is unknown', () => {
      expect(reason(v2Record('ACMEBLDRS001', { 6: 'X' }))).to.equal(
        '7: extract code "X" (field 6) is not one of A, E, 1, 2, 3, 4',
      );
    });

    it('a date is not YYYYMMDD', () => {
      expect(reason(v2Record('ACMEBLDRS001', { 9: '20250230' }))).to.equal(
        '7: registration expiration date "20250230" (field 9) is not a YYYYMMDD date',
      );
      expect(reason(v2Record('ACMEBLDRS001', { 11: '03/01/2024' }))).to.equal(
        '7: activation date "03/01/2024" (field 11) is not a YYYYMMDD date',
      );
    });

    it('a live record has no legal business name (a deleted one may)', () => {
      expect(reason(v2Record('ACMEBLDRS001', { 12: '' }))).to.equal(
        '7: legal business name (field 12) is empty',
      );
      expect(reason(v2Record('ACMEBLDRS001', { 6: '1', 12: '' }))).to.equal('accepted');
    });

    it('a BOF or EOF line appears between records', async () => {
      const rows = await parseAll(lines(BOF, v2Record('ACMEBLDRS001'), EOF, BOF, EOF));
      expect(rows.map((r) => (r.kind === 'rejected' ? `${r.line}: ${r.reason}` : r.kind))).to.deep.equal([
        'record',
        '3: BOF/EOF line inside the file (concatenated extracts?)',
        '4: BOF/EOF line inside the file (concatenated extracts?)',
      ]);
    });
  });

  describe('rejects the whole file when', () => {
    it('the first line is not a BOF header', async () => {
      const error = await envelopeRejection(lines(v2Record('ACMEBLDRS001'), EOF));
      expect([error.line, error.reason]).to.deep.equal([1, 'no BOF PUBLIC header on the first line']);
    });

    it('the last line is not an EOF trailer (truncated)', async () => {
      const error = await envelopeRejection(lines(BOF, v2Record('ACMEBLDRS001'), v2Record('ACMEBLDRS002')));
      expect([error.line, error.reason]).to.deep.equal([
        3,
        'no EOF PUBLIC trailer on the last line (truncated file?)',
      ]);
    });

    it('the EOF figures differ from the BOF figures', async () => {
      const error = await envelopeRejection(
        lines(BOF, v2Record('ACMEBLDRS001'), EOF.replace('0000001 ', '0000002 ')),
      );
      expect(error.line).to.equal(3);
      expect(error.reason).to.match(/does not match the BOF header$/);
    });

    it('it holds only a BOF line, or nothing', async () => {
      expect((await envelopeRejection(lines(BOF))).reason).to.match(/^no EOF PUBLIC trailer/);
      expect((await envelopeRejection(lines('', ''))).reason).to.equal('empty file');
    });
  });
});
