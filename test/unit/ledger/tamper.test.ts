import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { SqliteEventStore } from '../../../src/platform/event-store/sqlite.js';
import { chain, headOf } from '../../support/events.js';
import { runScript } from '../../support/cli.js';

/** Plays the attacker: opens the ledger file, drops the immutability trigger, edits a row. */
function tamper(dbPath: string, sql: string): void {
  const raw = SqliteEventStore.open(dbPath);
  raw.database.exec(
    'DROP TRIGGER IF EXISTS events_are_immutable; DROP TRIGGER IF EXISTS events_are_permanent;',
  );
  raw.database.exec(sql);
  void raw.close();
}

describe('npm run ledger:verify against a tampered SQLite ledger', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-tamper-'));
    const store = SqliteEventStore.open(join(dir, 'ledger.db'));
    const first = chain(10);
    await store.append(first, 0);
    await store.append(chain(5, headOf(first), 1), 10);
    await store.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses UPDATE and DELETE of events through the triggers', () => {
    const store = SqliteEventStore.open(join(dir, 'ledger.db'));
    expect(() => store.database.exec("UPDATE events SET content = '{}' WHERE seq = 3")).to.throw(/immutable/);
    expect(() => store.database.exec('DELETE FROM events WHERE seq = 3')).to.throw(/cannot be deleted/);
    void store.close();
  });

  it('exits 0 on the untouched ledger and reports what it checked', () => {
    const run = runScript('ledger-verify.ts', ['--json'], { DATA_DIR: dir });
    expect(run.status).to.equal(0);
    expect(JSON.parse(run.stdout)).to.include({ ok: true, checked: 15, verified_through: 15 });
  });

  it('exits 1 naming seq 7 after one content byte of event 7 was changed in the file', () => {
    tamper(
      join(dir, 'ledger.db'),
      `UPDATE events SET content = replace(content, 'event 7', 'event 8') WHERE seq = 7`,
    );
    const run = runScript('ledger-verify.ts', [], { DATA_DIR: dir });
    expect(run.status).to.equal(1);
    expect(run.stdout).to.match(/TAMPERED at seq 7: content_hash_mismatch/);
  });

  it('exits 1 naming the seq whose stored hash was rewritten', () => {
    tamper(join(dir, 'ledger.db'), `UPDATE events SET hash = '${'e'.repeat(64)}' WHERE seq = 12`);
    const run = runScript('ledger-verify.ts', ['--json'], { DATA_DIR: dir });
    expect(run.status).to.equal(1);
    expect(JSON.parse(run.stdout)).to.include({ ok: false, first_bad_seq: 12, verified_through: 11 });
  });

  it('exits 1 at the gap left by a deleted event', () => {
    tamper(join(dir, 'ledger.db'), 'DELETE FROM events WHERE seq = 4');
    const run = runScript('ledger-verify.ts', ['--json'], { DATA_DIR: dir });
    expect(run.status).to.equal(1);
    const out = JSON.parse(run.stdout) as { first_bad_seq: number; issues: { code: string }[] };
    expect(out.first_bad_seq).to.equal(5);
    expect(out.issues.map((i) => i.code)).to.include('seq_gap');
  });
});
