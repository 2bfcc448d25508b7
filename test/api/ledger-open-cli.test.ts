import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { REPO_ROOT, runScript, type CliRun } from '../support/cli.js';

/**
 * The operations CLIs on a DATA_DIR whose ledger is missing, unreadable or not a directory: one line
 * naming the ledger and its documented exit code, never a stack trace, and nothing created.
 */
describe('operations CLIs on a missing or unreadable ledger', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-open-cli-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = (script: string, args: string[], dataDir: string): CliRun =>
    runScript(script, args, { DATA_DIR: dataDir });
  /** stderr is the one line `line` (no stack trace, no usage). */
  const oneLine = (r: CliRun, line: RegExp): void => {
    expect(r.stderr.trimEnd().split('\n'), r.stderr).to.have.length(1);
    expect(r.stderr.trimEnd()).to.match(line);
  };

  it('ledger:verify, projections:rebuild and keys list refuse a DATA_DIR without a ledger (exit 2) and create nothing', () => {
    const missing = join(dir, 'typo');
    const verify = run('ledger-verify.ts', ['--json'], missing);
    expect(verify.status).to.equal(2);
    oneLine(verify, /^no ledger at .*typo\/ledger\.db/);
    expect(JSON.parse(verify.stdout)).to.deep.include({ ok: false });
    for (const [script, args] of [
      ['projections-rebuild.ts', []],
      ['keys.ts', ['list']],
      ['keys.ts', ['revoke', 'key_abc']],
    ] as const) {
      const r = run(script, [...args], missing);
      expect([script, r.status]).to.deep.equal([script, 2]);
      oneLine(r, /^no ledger at /);
    }
    expect(existsSync(missing)).to.equal(false);
    // An empty DATA_DIR that exists is no ledger either.
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    expect(run('ledger-verify.ts', [], empty).status).to.equal(2);
    expect(readdirSync(empty)).to.deep.equal([]);
  });

  it('a ledger file SQLite cannot read: ledger:verify fails (exit 1), the others exit 2, each with one line', () => {
    const damaged = join(dir, 'damaged');
    mkdirSync(damaged);
    writeFileSync(join(damaged, 'ledger.db'), Buffer.alloc(100_000, 0x5a));
    const verify = run('ledger-verify.ts', ['--json'], damaged);
    expect(verify.status).to.equal(1);
    oneLine(verify, /^the ledger at .*ledger\.db is damaged: SQLite cannot read it \(SQLITE_NOTADB\)$/);
    expect(JSON.parse(verify.stdout)).to.deep.include({ ok: false });
    for (const [script, args] of [
      ['projections-rebuild.ts', []],
      ['keys.ts', ['create', '--org', 'Acme', '--scopes', 'credit:read']],
      ['ledger-generate.ts', ['--events', '10']],
      ['seed-demo.ts', ['--projects', '1']],
    ] as const) {
      const r = run(script, [...args], damaged);
      expect([script, r.status]).to.deep.equal([script, 2]);
      oneLine(r, /is damaged: SQLite cannot read it/);
    }
  });

  it('a DATA_DIR that is a file: one line naming the ledger, exit 2', () => {
    const file = join(dir, 'file');
    writeFileSync(file, 'x');
    const r = run('keys.ts', ['create', '--org', 'Acme', '--scopes', 'credit:read'], file);
    expect(r.status).to.equal(2);
    oneLine(r, /^cannot open the ledger at .*file\/ledger\.db: ENOTDIR/);
  });

  it('seed-demo beside a live process keeping the read models: one line, exit 1, nothing recorded', () => {
    const live = join(dir, 'live');
    mkdirSync(live);
    // This test's own process stands for the live service that keeps the file.
    writeFileSync(join(live, 'read-models.db.owner'), String(process.pid));
    const r = run('seed-demo.ts', ['--projects', '1'], live);
    expect(r.status).to.equal(1);
    oneLine(
      r,
      /^refusing to seed: the read models at .* are kept by another live process \(pid \d+\); stop it first$/,
    );
    expect(run('ledger-verify.ts', ['--json'], live).stdout).to.include('"head": 0');
  });

  it('keys, import-sam and ledger:generate append nothing while a recorded integrity failure suspends appends (exit 1)', () => {
    const ledger = join(dir, 'suspended');
    expect(run('ledger-generate.ts', ['--events', '5'], ledger).status).to.equal(0);
    const db = new Database(join(ledger, 'ledger.db'));
    // What the service records when its verifier finds the chain broken (compose.ts, INTEGRITY_META).
    db.prepare('INSERT OR REPLACE INTO tlog_meta (key, value) VALUES (?, ?)').run(
      'integrity_failure',
      JSON.stringify({ code: 'content_hash', seq: 3, expected: 'a', actual: 'b' }),
    );
    db.close();
    for (const [script, args] of [
      ['keys.ts', ['create', '--org', 'Acme', '--scopes', 'credit:read']],
      ['keys.ts', ['revoke', 'key_abc']],
      ['import-sam.ts', [join(REPO_ROOT, 'test/fixtures/sam/exclusions-small.csv')]],
      ['ledger-generate.ts', ['--events', '5']],
    ] as const) {
      const r = run(script, [...args], ledger);
      expect([script, r.status]).to.deep.equal([script, 1]);
      oneLine(
        r,
        /^refusing to append: appends to .* are suspended since its integrity check failed at seq 3 \(content_hash\)/,
      );
    }
    expect(run('keys.ts', ['list'], ledger).status).to.equal(0);
    expect(JSON.parse(run('ledger-verify.ts', ['--json'], ledger).stdout)).to.deep.include({ head: 5 });
  });

  it('ledger:verify refuses --key without --checkpoint (it checks nothing else)', () => {
    const r = run('ledger-verify.ts', ['--key', 'example.com/log+01234567+AAAA'], join(dir, 'typo'));
    expect(r.status).to.equal(2);
    expect(r.stderr).to.match(/^--key checks the signature of --checkpoint's file: give --checkpoint too/);
  });
});
