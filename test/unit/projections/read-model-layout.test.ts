import { hash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { ReadModelFile } from '../../../src/platform/projections/index.js';
import {
  DIGEST_LOG_GENERATION,
  DIGEST_MERGE_SLICES,
} from '../../../src/platform/projections/read-model-file.js';
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

  it('stores an entry as its 32 bytes, a seq and a tag, and no record (a live flush: in the log)', () => {
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
    // A flush of a few additions appends them to the set's log, in recording order; none is merged yet.
    expect(db.prepare('SELECT COUNT(*) AS n FROM rm_digests').get()).to.deep.equal({ n: 0 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM rm_digest_log').get()).to.deep.equal({ n: 62 });
    expect(
      db
        .prepare(
          'SELECT gen, n FROM rm_digest_log WHERE set_id = (SELECT id FROM rm_digest_sets WHERE name = ?) ORDER BY n',
        )
        .raw()
        .all('p.hashes')
        .slice(0, 3),
    ).to.deep.equal([
      [1, 0],
      [1, 1],
      [1, 2],
    ]);
    const rows = db
      .prepare('SELECT set_id, digest, seq, tag FROM rm_digest_log WHERE digest = ? ORDER BY set_id')
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
    expect(db.pragma('user_version', { simple: true })).to.equal(3);
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

/**
 * A digest set's log (issue 19): a live flush appends its additions in recording order instead of
 * writing a page of the B-tree per digest, and the log is merged into the B-tree a generation at a
 * time, an eighth per flush. Whatever the tier an entry is in, a look-up answers as one table would:
 * the first recording wins.
 */
describe('read-model file: digest log and merge', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-digest-log-'));
    path = join(dir, 'rm.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // Digests as the ledger's are: uniform (the set's table hashes their first bytes).
  const hexOf = (i: number, salt = 'd') => hash('sha256', `${salt}${i}`, 'hex');
  const counts = (p: string) => {
    const db = new Database(p, { readonly: true });
    try {
      return {
        tree: db.prepare('SELECT COUNT(*) FROM rm_digests').pluck().get() as number,
        log: db.prepare('SELECT COUNT(*) FROM rm_digest_log').pluck().get() as number,
        generations: db.prepare('SELECT DISTINCT gen FROM rm_digest_log ORDER BY gen').pluck().all(),
      };
    } finally {
      db.close();
    }
  };

  it('merges a full generation into the B-tree over eight flushes, answering alike throughout and after a restart', () => {
    let file = ReadModelFile.own(path);
    let set = file.digests('p.hashes');
    // Live flushes: each fewer than a slice, so logged.
    const perFlush = DIGEST_LOG_GENERATION / 16;
    let seq = 0;
    let checkpoint = 0;
    const fill = (from: number, count: number, salt = 'd') =>
      foldingOn(file)(() => {
        for (let i = from; i < from + count; i += 1) set.insertIfAbsent(hexOf(i, salt), (seq += 1), i % 7);
      });
    const flush = () =>
      file.flush([{ name: 'p', version: 1, checkpoint: (checkpoint += 1), aggregates: {} }]);
    // The first recording of each: digest i at seq i + 1 with tag i % 7.
    const expectFirst = (indexes: number[]) => {
      for (const i of indexes)
        expect(set.get(hexOf(i)), `digest ${i}`).to.deep.equal({ seq: i + 1, tag: i % 7 });
    };
    for (let f = 0; f < 16; f += 1) {
      fill(f * perFlush, perFlush);
      flush();
    }
    // Full: one generation, its merge begun with the flush that filled it (an eighth); re-recording 0
    // (already logged) adds nothing to the log.
    const slice = DIGEST_LOG_GENERATION / DIGEST_MERGE_SLICES;
    expect(counts(path)).to.deep.equal({ tree: slice, log: DIGEST_LOG_GENERATION, generations: [1] });
    fill(0, 1);
    fill(DIGEST_LOG_GENERATION, 100, 'e');
    flush();
    let c = counts(path);
    expect(c.generations).to.deep.equal([1, 2]);
    expect(c.log).to.equal(DIGEST_LOG_GENERATION + 100);
    expect(c.tree).to.equal(2 * slice);
    expectFirst([0, 1, 4095, 30_000, DIGEST_LOG_GENERATION - 1]);
    // A restart half-way through the merge: the log is read back, the merge starts over and ends.
    for (let f = 0; f < 3; f += 1) flush();
    file.close();
    file = ReadModelFile.own(path);
    set = file.digests('p.hashes');
    expectFirst([0, 7, 12_345, DIGEST_LOG_GENERATION - 1]);
    expect(set.get(hexOf(DIGEST_LOG_GENERATION, 'e'))).to.deep.equal({
      seq: DIGEST_LOG_GENERATION + 2,
      tag: DIGEST_LOG_GENERATION % 7,
    });
    for (let f = 0; f < DIGEST_MERGE_SLICES; f += 1) {
      fill(DIGEST_LOG_GENERATION + 100 + f, 1, 'e');
      flush();
    }
    c = counts(path);
    expect(c.tree).to.equal(DIGEST_LOG_GENERATION);
    expect(c.generations).to.deep.equal([2]);
    expect(c.log).to.equal(100 + DIGEST_MERGE_SLICES);
    expectFirst([0, 1, 4095, 30_000, DIGEST_LOG_GENERATION - 1]);
    // Recorded again once merged: the B-tree's entry stays the first.
    fill(5, 1);
    flush();
    expectFirst([5]);
    expect(set.get(hexOf(123_456))).to.equal(undefined);
    file.close();
  });

  it('writes a batch of a slice or more (a catch-up’s) straight into the B-tree, but for what the log recorded first', () => {
    const file = ReadModelFile.own(path);
    const set = file.digests('p.hashes');
    foldingOn(file)(() => {
      for (let i = 0; i < DIGEST_LOG_GENERATION; i += 1) set.insertIfAbsent(hexOf(i), i + 1, 0);
    });
    file.flush([{ name: 'p', version: 1, checkpoint: DIGEST_LOG_GENERATION, aggregates: {} }]);
    expect(counts(path)).to.deep.equal({ tree: DIGEST_LOG_GENERATION, log: 0, generations: [] });
    expect(set.get(hexOf(777))).to.deep.equal({ seq: 778, tag: 0 });
    // With a log: a digest logged earlier keeps its first recording though a large batch repeats it.
    foldingOn(file)(() => set.insertIfAbsent(hexOf(1, 'x'), 70_000, 1));
    file.flush([{ name: 'p', version: 1, checkpoint: 70_000, aggregates: {} }]);
    expect(counts(path)).to.deep.equal({ tree: DIGEST_LOG_GENERATION, log: 1, generations: [1] });
    foldingOn(file)(() => {
      for (let i = 0; i < DIGEST_LOG_GENERATION; i += 1) set.insertIfAbsent(hexOf(i, 'x'), 80_000 + i, 2);
    });
    file.flush([{ name: 'p', version: 1, checkpoint: 150_000, aggregates: {} }]);
    expect(counts(path)).to.deep.equal({ tree: 2 * DIGEST_LOG_GENERATION - 1, log: 1, generations: [1] });
    expect(set.get(hexOf(1, 'x'))).to.deep.equal({ seq: 70_000, tag: 1 });
    expect(set.get(hexOf(2, 'x'))).to.deep.equal({ seq: 80_002, tag: 2 });
    file.close();
    const again = ReadModelFile.own(path);
    expect(again.digests('p.hashes').get(hexOf(1, 'x'))).to.deep.equal({ seq: 70_000, tag: 1 });
    again.close();
  });

  it('reads its log back after a flush that failed, and logs the additions with the next one', () => {
    const file = ReadModelFile.own(path);
    const set = file.digests('p.hashes');
    foldingOn(file)(() => set.insertIfAbsent(hexOf(1), 1, 0));
    file.flush([{ name: 'p', version: 1, checkpoint: 1, aggregates: {} }]);
    foldingOn(file)(() => set.insertIfAbsent(hexOf(2), 2, 0));
    // The transaction throws after the digests' rows (an aggregate JSON cannot encode): all rolled back.
    expect(() => file.flush([{ name: 'p', version: 1, checkpoint: 2, aggregates: { bad: 1n } }])).to.throw(
      TypeError,
    );
    expect(counts(path).log).to.equal(1);
    expect(set.get(hexOf(2))).to.deep.equal({ seq: 2, tag: 0 });
    file.flush([{ name: 'p', version: 1, checkpoint: 2, aggregates: {} }]);
    expect(counts(path).log).to.equal(2);
    expect(set.get(hexOf(1))).to.deep.equal({ seq: 1, tag: 0 });
    expect(set.get(hexOf(2))).to.deep.equal({ seq: 2, tag: 0 });
    // Cleared with its projection: the log too.
    file.clear('p');
    expect(counts(path)).to.deep.equal({ tree: 0, log: 0, generations: [] });
    expect(set.get(hexOf(1))).to.equal(undefined);
    file.close();
  });
});
