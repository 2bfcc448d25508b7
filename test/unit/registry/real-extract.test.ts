import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import {
  checkContractorRegistry,
  ExtractSamSource,
  importSamFile,
  verifyContractorRegistry,
  type ImportResult,
  type ImportSummary,
} from '../../../src/registry/index.js';
import { openTempLedger, PINNED_NOW, type TempLedger } from './support.js';

/**
 * The real SAM.gov extract of the design folder (`../shared/data/sam/`), committed byte for byte as
 * a fixture (sha256 d3d71f4e…9d3324) so a clean clone tests it wherever it lands.
 */
const REAL_EXTRACT = fileURLToPath(
  new URL('../../fixtures/sam/SAM_Exclusions_Public_Extract_20049.zip', import.meta.url),
);

/**
 * Measured independently of this code with Python's csv module:
 *   unzip -p SAM_Exclusions_Public_Extract_20049.zip | python3 -c \
 *     "import csv,sys; r=csv.reader(sys.stdin); next(r); print(sum(1 for _ in r))"   → 10000
 * (CRLF line ends, no quoted line breaks, 31 header columns.)
 */
const REAL_ROWS = 10_000;
/** Rows SAM wrote with unquoted Additional Comments (python's csv sees 32–39 fields there). */
const OVERFLOW_LINES = [672, 1690, 2954, 2955, 4407, 8476, 9726];

/** A construction firm excluded in the extract: DOI, 11/30/2017 through 11/29/2032. */
const KLA = { legal_name: 'KLA Construction Service', uei: 'ZA8RSU0AA8S8', cage: '7UKA2' };
/** The firm on overflow line 672: GAO Davis-Bacon debarment, 01/29/2020 through 01/28/2023. */
const KCS = { legal_name: 'KCS Construction', uei: 'ZA9RSU9RR6S9', cage: null };

function summaryOf(result: ImportResult): ImportSummary {
  if (!result.ok) throw new Error(`rejected: ${JSON.stringify(result.rejection)}`);
  return result.summary;
}

describe('SAM exclusions import: the real extract SAM_Exclusions_Public_Extract_20049', function () {
  this.timeout(60_000);
  let t: TempLedger;
  let first: ImportSummary;
  let second: ImportSummary;
  let headAfterFirst: number;

  before(async () => {
    t = await openTempLedger();
    const options = { ledger: t.ledger, registryState: t.state, now: PINNED_NOW };
    first = summaryOf(await importSamFile(REAL_EXTRACT, options));
    headAfterFirst = (await t.store.head()).seq;
    second = summaryOf(await importSamFile(REAL_EXTRACT, options));
  });
  after(async () => {
    await t.close();
  });

  it('reads as many rows as Python’s csv module counts, and rejects none', () => {
    expect(first).to.deep.include({
      rows_read: REAL_ROWS,
      imported: REAL_ROWS,
      unchanged: 0,
      rejected_count: 0,
    });
  });

  it('realigns the rows SAM wrote with unquoted comments instead of dropping them', () => {
    expect(first.repaired.map((r) => r.line)).to.deep.equal(OVERFLOW_LINES);
  });

  it('appends one event per record plus the import, and dates the extract by its Julian name', () => {
    expect(first.events_appended).to.equal(REAL_ROWS + 1);
    expect(headAfterFirst).to.equal(REAL_ROWS + 1);
    expect(first).to.include({ as_of: '2020-02-18', file: 'SAM_Exclusions_Public_Extract_20049.zip' });
  });

  it('finds an excluded construction firm by UEI and calls it excluded on a day its exclusion runs', async () => {
    const answer = await new ExtractSamSource(t.state).lookupExclusions(KLA.uei);
    expect(answer.ok).to.equal(true);
    if (!answer.ok) return;
    expect(answer.value.map((r) => [r.name, r.agency, r.active_on, r.terminates_on])).to.deep.equal([
      ['KLA CONSTRUCTION SERVICE LLC', 'DOI', '2017-11-30', '2032-11-29'],
    ]);
    expect(answer.source).to.deep.equal({
      kind: 'sam_extract',
      file: 'SAM_Exclusions_Public_Extract_20049.zip',
      as_of: '2020-02-18',
    });
    const check = checkContractorRegistry(KLA, { registrations: [], exclusions: answer.value }, '2026-06-01');
    expect(check).to.include({ exclusions: 'excluded', registration: 'inactive' });
  });

  it('calls the same firm clear the day before its exclusion began, and finds it by CAGE alone', () => {
    expect(verifyContractorRegistry(t.state(), KLA, '2017-11-29').exclusions).to.equal('clear');
    const byCage = { legal_name: KLA.legal_name, uei: null, cage: KLA.cage };
    expect(verifyContractorRegistry(t.state(), byCage, '2026-06-01').exclusions).to.equal('excluded');
  });

  it('finds a firm from a realigned row excluded while its debarment ran, clear after', () => {
    expect(verifyContractorRegistry(t.state(), KCS, '2020-06-01').exclusions).to.equal('excluded');
    expect(verifyContractorRegistry(t.state(), KCS, '2023-01-29').exclusions).to.equal('clear');
  });

  it('imports nothing the second time: no new record, no new event', async () => {
    expect(second).to.deep.include({
      rows_read: REAL_ROWS,
      imported: 0,
      unchanged: REAL_ROWS,
      events_appended: 0,
    });
    expect((await t.store.head()).seq).to.equal(headAfterFirst);
  });
});
