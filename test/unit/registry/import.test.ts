import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import {
  emptyRegistryState,
  importSamFile,
  verifyContractorRegistry,
  type ImportOptions,
  type ImportProgress,
  type ImportResult,
  type ImportSummary,
} from '../../../src/registry/index.js';
import {
  BOF,
  EOF,
  cleanupTemp,
  FIXTURES,
  openTempLedger,
  PINNED_NOW,
  v2Record,
  writeTemp,
  type TempLedger,
} from './support.js';

const CSV = join(FIXTURES, 'exclusions-small.csv');
const CSV_ZIP = join(FIXTURES, 'SAM_Exclusions_Public_Extract_24100.zip');
const V2_MONTHLY_ZIP = join(FIXTURES, 'SAM_PUBLIC_MONTHLY_V2_20240301.ZIP');
const V2_DAILY = join(FIXTURES, 'SAM_PUBLIC_DAILY_V2_20240302.dat');

function summaryOf(result: ImportResult): ImportSummary {
  if (!result.ok) throw new Error(`rejected: ${JSON.stringify(result.rejection)}`);
  return result.summary;
}

describe('SAM extract import', () => {
  let t: TempLedger;
  beforeEach(async () => {
    t = await openTempLedger();
  });
  afterEach(async () => {
    await t.close();
    cleanupTemp();
  });
  const options = (extra: Partial<ImportOptions> = {}): ImportOptions => ({
    ledger: t.ledger,
    registryState: t.state,
    now: PINNED_NOW,
    ...extra,
  });
  const run = async (source: string | Readable, extra: Partial<ImportOptions> = {}) =>
    summaryOf(await importSamFile(source, options(extra)));

  it('counts every row once, as imported, unchanged or rejected, and lists rejections by line', async () => {
    const summary = await run(CSV);
    expect(summary).to.deep.include({
      format: 'exclusions_csv',
      file: 'exclusions-small.csv',
      declared_rows: null,
      rows_read: 13,
      imported: 8,
      unchanged: 0,
      rejected_count: 5,
      events_appended: 9,
    });
    expect(summary.rejected.map((r) => r.line)).to.deep.equal([8, 9, 10, 12, 13]);
    expect(summary.repaired.map((r) => r.line)).to.deep.equal([11]);
    expect(summary.file_sha256).to.match(/^[0-9a-f]{64}$/);
  });

  it('appends one platform-wide event per record on its registry stream, then SamExtractImported', async () => {
    await run(CSV);
    const events = await t.store.read(1, 100);
    expect(events.map((e) => e.type)).to.deep.equal([
      ...Array<string>(8).fill('SamExclusionRecorded'),
      'SamExtractImported',
    ]);
    expect(events[0]).to.deep.include({ stream: 'registry-exclusion-S4MRACME1-ACMEBLDRS001' });
    expect(events[0]?.meta).to.deep.equal({ org_id: null, actor: 'system', request_id: 'sam-import' });
    expect(events[0]?.data).to.deep.include({
      previous_hash: null,
      source: { kind: 'sam_extract', file: 'exclusions-small.csv', line: 2 },
    });
    expect(events[8]?.data).to.deep.include({ as_of: '2026-03-01', rows_read: 13, rejected_count: 5 });
  });

  it('records nothing new when the same file is imported again, not even the import itself', async () => {
    await run(CSV);
    const head = await t.store.head();
    const again = await run(CSV);
    expect(again).to.deep.include({
      rows_read: 13,
      imported: 0,
      unchanged: 8,
      rejected_count: 5,
      events_appended: 0,
    });
    expect(await t.store.head()).to.deep.equal(head);
  });

  it('treats a zip and the plain file it holds as the same file, dating it by its Julian name', async () => {
    const zipped = await run(CSV_ZIP);
    expect(zipped).to.deep.include({
      file: 'SAM_Exclusions_Public_Extract_24100.zip',
      as_of: '2024-04-09',
      imported: 8,
    });
    const plain = await run(CSV);
    expect(plain).to.deep.include({ imported: 0, events_appended: 0, file_sha256: zipped.file_sha256 });
  });

  it('records a changed record once, chained to the version it replaces; changing it back is a change too', async () => {
    await run(CSV);
    const before = t.state().exclusions['exclusion-S4MRACME1-ACMEBLDRS001']!.content_hash;
    const amended = readFileSync(CSV, 'utf8').replace('"01/14/2027"', '"06/30/2026"');
    const changed = await run(writeTemp('amended.csv', amended));
    expect(changed).to.deep.include({ imported: 1, unchanged: 7, events_appended: 2 });
    const entry = t.state().exclusions['exclusion-S4MRACME1-ACMEBLDRS001']!;
    expect(entry.record.terminates_on).to.equal('2026-06-30');
    const [event] = await t.store.readStream('registry-exclusion-S4MRACME1-ACMEBLDRS001', { after: 9 });
    expect(event?.data).to.deep.include({ previous_hash: before, content_hash: entry.content_hash });
    const reverted = await run(CSV);
    expect(reverted).to.deep.include({ imported: 1, events_appended: 2 });
    expect(t.state().exclusions['exclusion-S4MRACME1-ACMEBLDRS001']!.content_hash).to.equal(before);
  });

  it('appends nothing even when handed a stale read model: event ids derive from the records', async () => {
    await run(CSV);
    const head = await t.store.head();
    const stale = await run(CSV, { registryState: emptyRegistryState });
    expect(stale).to.deep.include({ imported: 8, events_appended: 0 });
    expect(await t.store.head()).to.deep.equal(head);
  });

  it('records the same events whatever the batch size', async () => {
    await run(CSV, { batchSize: 3 });
    const small = (await t.store.read(1, 100)).map((e) => e.id);
    const other = await openTempLedger();
    try {
      await importSamFile(CSV, { ledger: other.ledger, registryState: other.state, now: PINNED_NOW });
      expect((await other.store.read(1, 100)).map((e) => e.id)).to.deep.equal(small);
    } finally {
      await other.close();
    }
  });

  it('imports an upload stream under the name it is given', async () => {
    const summary = await run(Readable.from([readFileSync(CSV_ZIP)]), {
      fileName: 'SAM_Exclusions_Public_Extract_24100.zip',
    });
    expect(summary).to.deep.include({
      file: 'SAM_Exclusions_Public_Extract_24100.zip',
      as_of: '2024-04-09',
      imported: 8,
    });
  });

  it('reports progress in bytes up to the extract size', async () => {
    const seen: ImportProgress[] = [];
    await run(CSV, { onProgress: (p) => seen.push(p) });
    const last = seen[seen.length - 1]!;
    expect(last).to.include({
      phase: 'importing',
      bytes: statSync(CSV).size,
      total_bytes: statSync(CSV).size,
    });
  });

  it('imports a V2 monthly extract, then a daily one that updates, deletes and adds registrations', async () => {
    const phases = new Set<string>();
    const monthly = await run(V2_MONTHLY_ZIP, { onProgress: (p) => phases.add(p.phase) });
    expect(monthly).to.deep.include({
      format: 'entity_v2',
      as_of: '2024-03-01',
      declared_rows: 3,
      rows_read: 3,
      imported: 3,
    });
    expect([...phases]).to.deep.equal(['verifying', 'importing']);
    const daily = await run(V2_DAILY);
    expect(daily).to.deep.include({ as_of: '2024-03-02', imported: 3, unchanged: 0, events_appended: 4 });
    const state = t.state();
    expect(Object.keys(state.registrations).sort()).to.deep.equal([
      'ACMEBLDRS001',
      'BRDGWAYCNC01',
      'FRESHCO00001',
      'NEWCOBLDR001',
    ]);
    expect(state.registrations.BRDGWAYCNC01?.record.status).to.equal('deleted');
    const acme = verifyContractorRegistry(
      state,
      { legal_name: 'Acme', uei: 'ACMEBLDRS001', cage: null },
      '2026-01-14',
    );
    expect(acme).to.include({ registration: 'active', registration_expires_on: '2026-01-14' });
  });

  describe('rejects the whole file, recording nothing, when', () => {
    const rejected = async (path: string) => {
      const result = await importSamFile(path, options());
      expect((await t.store.head()).seq).to.equal(0);
      return result.ok ? undefined : result.rejection;
    };

    it('a V2 extract has no EOF line', async () => {
      const path = writeTemp(
        'truncated.dat',
        [BOF, v2Record('ACMEBLDRS001'), v2Record('ACMEBLDRS002')].join('\n'),
      );
      expect(await rejected(path)).to.deep.equal({
        file: 'truncated.dat',
        format: 'entity_v2',
        line: 3,
        reason: 'no EOF PUBLIC trailer on the last line (truncated file?)',
      });
    });

    it('a V2 file holds a line longer than any record (readline would hold it whole)', async () => {
      const path = writeTemp(
        'endless.dat',
        [BOF, v2Record('ACMEBLDRS001'), 'x'.repeat(1_000_001), EOF].join('\n'),
      );
      expect(await rejected(path)).to.deep.equal({
        file: 'endless.dat',
        format: 'entity_v2',
        line: 3,
        reason: 'a line longer than 1000000 bytes is no V2 record',
      });
    });

    it('a .dat file has no BOF line', async () => {
      const path = writeTemp('nobof.dat', `${v2Record('ACMEBLDRS001')}\n`);
      expect(await rejected(path)).to.include({
        format: 'entity_v2',
        line: 1,
        reason: 'no BOF PUBLIC header on the first line',
      });
    });

    it('a CSV lacks the exclusions header', async () => {
      const path = writeTemp('other.csv', 'id,amount\n1,2\n');
      expect(await rejected(path)).to.include({ format: 'exclusions_csv', line: 1 });
    });

    it('an exclusions CSV has its header and no row', async () => {
      const header = readFileSync(CSV, 'utf8').split('\n')[0]!;
      expect(await rejected(writeTemp('header-only.csv', `${header}\n`))).to.deep.equal({
        file: 'header-only.csv',
        format: 'exclusions_csv',
        line: null,
        reason: 'no exclusion record: the file has its header and nothing else',
      });
    });

    it('every row of an extract is rejected (it would date the registry by itself)', async () => {
      const header = readFileSync(CSV, 'utf8').split('\n')[0]!;
      const rejection = await rejected(writeTemp('junk.csv', `${header}\n"unclosed,quote\n`));
      expect(rejection).to.deep.include({ format: 'exclusions_csv', line: null });
      expect(rejection?.reason).to.match(
        /^no record could be read: all 1 rows were rejected \(first: line 2: /,
      );
      expect(t.state().imports.exclusions_csv).to.equal(null);
    });

    it('a zip is cut short', async () => {
      const path = writeTemp('cut.zip', readFileSync(CSV_ZIP).subarray(0, 600));
      expect(await rejected(path)).to.deep.include({ file: 'cut.zip', format: null, line: null });
    });

    it("a zip's extract does not decompress to what the zip records, even past rows read in batches", async () => {
      // Bytes overwritten in the middle of the deflate stream: the rows before them still decompress.
      const bytes = Buffer.from(readFileSync(CSV_ZIP));
      bytes.fill(0xa5, 700, 760);
      const result = await importSamFile(writeTemp('damaged.zip', bytes), options({ batchSize: 1 }));
      expect((await t.store.head()).seq).to.equal(0);
      expect(result.ok ? undefined : result.rejection).to.deep.include({ format: null, line: null });
    });

    it("a zip's extract decompresses whole but not to the CRC-32 the zip records", async () => {
      const bytes = Buffer.from(readFileSync(CSV_ZIP));
      // The CRC-32 sits at offset 14 of the local header (at 0) and 16 of the central directory entry.
      const central = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      for (const at of [14, central + 16]) bytes.writeUInt32LE((bytes.readUInt32LE(at) ^ 1) >>> 0, at);
      expect(await rejected(writeTemp('badcrc.zip', bytes))).to.deep.equal({
        file: 'badcrc.zip',
        format: null,
        line: null,
        reason:
          'the zip is damaged: SAM_Exclusions_Public_Extract_24100.CSV does not match the CRC-32 the zip records for it',
      });
    });

    it('a zip holds no extract', async () => {
      expect(await rejected(join(FIXTURES, 'no-extract.zip'))).to.deep.equal({
        file: 'no-extract.zip',
        format: null,
        line: null,
        reason: 'the zip holds no .csv, .dat or .txt file',
      });
    });
  });
});
