import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ledgerHeadOf, runScript } from '../../support/cli.js';
import { BOF, cleanupTemp, FIXTURES, v2Record, writeTemp } from './support.js';

const ZIP = join(FIXTURES, 'SAM_Exclusions_Public_Extract_24100.zip');
/** The real extract (4.4 MB, thousands of rows: several batches are recorded before its end). */
const REAL_ZIP = join(FIXTURES, 'SAM_Exclusions_Public_Extract_20049.zip');

describe('npm run import-sam (CLI)', function () {
  this.timeout(60_000);
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'plumbline-import-cli-'));
  });
  after(() => {
    rmSync(dataDir, { recursive: true, force: true });
    cleanupTemp();
  });
  const importSam = (...args: string[]) => runScript('import-sam.ts', args, { DATA_DIR: dataDir });

  const ledgerHead = () => ledgerHeadOf(dataDir);

  it('prints its usage with --help and exits 0', () => {
    const run = importSam('--help');
    expect(run.status).to.equal(0);
    expect(run.stdout).to.match(/^Usage: npm run import-sam -- <file> \[--json\]/);
  });

  it('exits 2 with the usage when the file is missing or not given', () => {
    const missing = importSam(join(dataDir, 'nope.zip'));
    expect([missing.status, missing.stderr]).to.satisfy(
      ([s, e]: [number, string]) => s === 2 && e.startsWith('no such file'),
    );
    expect(importSam().status).to.equal(2);
  });

  it('exits 1, naming the line and reason, for a rejected file, and records nothing', async () => {
    const truncated = writeTemp('truncated.dat', `${BOF}\n${v2Record('ACMEBLDRS001')}\n`);
    const run = importSam(truncated);
    expect(run.status).to.equal(1);
    expect(run.stderr).to.include('Rejected truncated.dat (line 2): no EOF PUBLIC trailer on the last line');
    expect(await ledgerHead()).to.equal(0);
  });

  it('exits 1 with one line for a damaged or cut zip, and records nothing of it', async () => {
    const damaged = Buffer.from(readFileSync(REAL_ZIP));
    damaged.fill(0xa5, 300_000, 302_000);
    const run = importSam(writeTemp('damaged.zip', damaged));
    expect(run.status).to.equal(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines.filter((l) => !l.includes('|'))).to.have.length(1);
    expect(lines.at(-1)).to.match(
      /^Rejected damaged\.zip: the zip is damaged or truncated \(not enough bytes in the stream\. expected 4461243\. got only \d+\)$/,
    );
    const cut = importSam(writeTemp('cut.zip', readFileSync(REAL_ZIP).subarray(0, 3000)), '--json');
    expect([cut.status, cut.stderr]).to.deep.equal([1, '']);
    expect(JSON.parse(cut.stdout)).to.deep.include({ ok: false, file: 'cut.zip', format: null });
    expect(await ledgerHead()).to.equal(0);
  });

  it('imports with --json (no progress bar mixed in), and a second run imports nothing', async () => {
    const first = importSam(ZIP, '--json');
    expect(first.status, first.stderr).to.equal(0);
    expect(JSON.parse(first.stdout)).to.deep.include({
      ok: true,
      rows_read: 13,
      imported: 8,
      rejected_count: 5,
      events_appended: 9,
    });
    const second = importSam(ZIP, '--json');
    expect(JSON.parse(second.stdout)).to.deep.include({
      ok: true,
      imported: 0,
      unchanged: 8,
      events_appended: 0,
    });
    expect(second.stderr).not.to.include('importing |');
    expect(await ledgerHead()).to.equal(9);
  });
});
