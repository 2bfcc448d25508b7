import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { ReadModelFile } from '../../../src/platform/projections/index.js';
import { foldingOn } from '../../support/read-model.js';

const A = 'a'.repeat(64);
const B = `${'0'.repeat(63)}b`;
const C = 'c'.repeat(64);

/**
 * Digest sets (issue 19): the read-model file's form for indexes with an entry per event — a
 * SHA-256 digest → (seq, tag), the first recording winning, written at each flush as 32-byte keys.
 */
describe('read-model file: digest sets', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-digests-'));
    path = join(dir, 'rm.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const flushOf = (file: ReadModelFile, checkpoint: number, aggregates: Record<string, unknown> = {}) =>
    file.flush([{ name: 'p', version: 1, checkpoint, aggregates }]);

  it('keeps the first recording of a digest, whether it is stored or still pending', () => {
    const file = ReadModelFile.own(path);
    const fold = foldingOn(file);
    const set = file.digests('p.hashes');
    fold(() => {
      expect(set.insertIfAbsent(A, 1, 3)).to.equal(true);
      expect(set.insertIfAbsent(A, 2, 4)).to.equal(true);
    });
    expect(set.get(A)).to.deep.equal({ seq: 1, tag: 3 });
    flushOf(file, 2);
    // Recorded again after it was stored: the stored one is first, before and after the next flush.
    fold(() => set.insertIfAbsent(A, 5, 0));
    fold(() => set.insertIfAbsent(B, 5, 1));
    expect(set.get(A)).to.deep.equal({ seq: 1, tag: 3 });
    expect(set.get(B)).to.deep.equal({ seq: 5, tag: 1 });
    flushOf(file, 5);
    expect(set.get(A)).to.deep.equal({ seq: 1, tag: 3 });
    expect(set.get(C)).to.equal(undefined);
    file.close();
    // Another handle on the file reads what was stored.
    const again = ReadModelFile.own(path);
    expect(again.digests('p.hashes').get(A)).to.deep.equal({ seq: 1, tag: 3 });
    expect(again.digests('p.hashes').get(B)).to.deep.equal({ seq: 5, tag: 1 });
    expect(again.digests('p.other').get(A)).to.equal(undefined);
    again.close();
  });

  it('holds only lower-case 64-hex digests, and is written to only during a fold', () => {
    const file = ReadModelFile.own(path);
    const set = file.digests('p.hashes');
    expect(() => set.insertIfAbsent(A, 1, 0)).to.throw(TypeError, /read-only outside/);
    foldingOn(file)(() => {
      for (const odd of [A.toUpperCase(), `${A}0`, A.slice(1), 'zz'.repeat(32), ''])
        expect(set.insertIfAbsent(odd, 1, 0), odd).to.equal(false);
    });
    expect(set.pending.count).to.equal(0);
    // Look-ups of anything else answer nothing (no hex decoding of a malformed string).
    for (const odd of [A.toUpperCase(), 'zz'.repeat(32), `${A.slice(0, 62)}zz`])
      expect(set.get(odd)).to.equal(undefined);
    file.close();
  });

  it('stores an entry as its 32 bytes, a seq and a tag, and no record', () => {
    const file = ReadModelFile.own(path);
    foldingOn(file)(() => {
      file.digests('p.hashes').insertIfAbsent(B, 7, 2);
      file.digests('p.more').insertIfAbsent(B, 8, 0);
    });
    expect(file.pendingRecords).to.equal(2);
    // Additions are a few dozen bytes in typed arrays: two count as one record toward a catch-up's flush.
    foldingOn(file)(() => {
      for (let i = 0; i < 60; i += 1)
        file.digests('p.hashes').insertIfAbsent(i.toString(16).padStart(64, 'e'), i, 0);
    });
    expect(file.pendingRecords).to.equal(31 + 1);
    expect(file.dirty).to.equal(true);
    flushOf(file, 8);
    expect(file.dirty).to.equal(false);
    expect(file.stats.bytes).to.equal(62 * 32);
    file.close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT COUNT(*) AS n FROM rm_digests').get()).to.deep.equal({ n: 62 });
    const rows = db
      .prepare('SELECT set_id, digest, seq, tag FROM rm_digests WHERE digest = ? ORDER BY set_id')
      .all(Buffer.from(B, 'hex')) as {
      set_id: number;
      digest: Buffer;
      seq: number;
      tag: number;
    }[];
    expect(rows.map((r) => [r.digest.length, r.digest.toString('hex'), r.seq, r.tag])).to.deep.equal([
      [32, B, 7, 2],
      [32, B, 8, 0],
    ]);
    expect(rows[0]!.set_id).to.not.equal(rows[1]!.set_id);
    expect(db.prepare('SELECT COUNT(*) AS n FROM rm_records').get()).to.deep.equal({ n: 0 });
    db.close();
  });

  it('keeps its additions after a flush that failed, and stores them with the next one', () => {
    const file = ReadModelFile.own(path);
    const set = file.digests('p.hashes');
    foldingOn(file)(() => set.insertIfAbsent(A, 1, 0));
    // An aggregate JSON cannot encode makes the flush's transaction throw after the digests' rows.
    expect(() => flushOf(file, 1, { bad: 1n })).to.throw(TypeError);
    expect(file.stored('p')).to.equal(null);
    expect(set.pending.count).to.equal(1);
    flushOf(file, 1);
    expect(set.pending.count).to.equal(0);
    expect(set.get(A)).to.deep.equal({ seq: 1, tag: 0 });
    file.close();
    const again = ReadModelFile.own(path);
    expect(again.digests('p.hashes').get(A)).to.deep.equal({ seq: 1, tag: 0 });
    again.close();
  });

  it('is emptied with its projection (stored and pending), and no other projection’s', () => {
    const file = ReadModelFile.own(path);
    const fold = foldingOn(file);
    fold(() => {
      file.digests('p.hashes').insertIfAbsent(A, 1, 0);
      file.digests('q.hashes').insertIfAbsent(A, 2, 0);
    });
    file.flush([
      { name: 'p', version: 1, checkpoint: 2, aggregates: {} },
      { name: 'q', version: 1, checkpoint: 2, aggregates: {} },
    ]);
    fold(() => file.digests('p.hashes').insertIfAbsent(B, 3, 0));
    file.clear('p');
    expect(file.digests('p.hashes').get(A)).to.equal(undefined);
    expect(file.digests('p.hashes').get(B)).to.equal(undefined);
    expect(file.digests('q.hashes').get(A)).to.deep.equal({ seq: 2, tag: 0 });
    expect(file.dirty).to.equal(false);
    file.close();
  });
});

/**
 * The file's layout is versioned (`PRAGMA user_version`): a file laid out otherwise — here the first
 * layout, records clustered by key — is emptied on open, so every projection rebuilds from the
 * ledger instead of reading rows it does not know the shape of.
 */
describe('read-model file: layout', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-layout-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('empties a file of the first layout on open, and keeps one of its own', () => {
    const path = join(dir, 'rm.db');
    const old = new Database(path);
    old.exec(`
      CREATE TABLE rm_projections (name TEXT PRIMARY KEY, version INTEGER NOT NULL,
        checkpoint INTEGER NOT NULL, aggregates TEXT NOT NULL);
      CREATE TABLE rm_records (coll TEXT NOT NULL, key TEXT NOT NULL, ord INTEGER NOT NULL,
        value TEXT NOT NULL, PRIMARY KEY (coll, key)) WITHOUT ROWID;
      CREATE INDEX rm_records_in_order ON rm_records(coll, ord);
      INSERT INTO rm_projections VALUES ('p', 1, 40, '{}');
      INSERT INTO rm_records VALUES ('p.items', 'k', 1, '{"a":1}');
    `);
    old.close();
    const file = ReadModelFile.own(path);
    expect(file.stored('p')).to.equal(null);
    expect(file.maxCheckpoint()).to.equal(0);
    expect(file.collection('p.items').get('k')).to.equal(undefined);
    foldingOn(file)(() => file.collection('p.items').set('k', { a: 2 }));
    flushOf(file, 41);
    file.close();
    const again = ReadModelFile.own(path);
    expect(again.stored('p')).to.deep.include({ checkpoint: 41 });
    expect(again.collection('p.items').get('k')).to.deep.equal({ a: 2 });
    again.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).to.equal(2);
    const indexes = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rm_records'")
      .pluck()
      .all();
    expect(indexes).to.include('rm_records_by_key').and.not.include('rm_records_in_order');
    db.close();
  });

  function flushOf(file: ReadModelFile, checkpoint: number): void {
    file.flush([{ name: 'p', version: 1, checkpoint, aggregates: {} }]);
  }
});
