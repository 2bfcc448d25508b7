import { expect } from 'chai';
import fc from 'fast-check';
import { SqliteEventStore, SqliteSnapshotStore } from '../../../src/platform/event-store/sqlite.js';
import { jsonParts } from '../../../src/platform/projections/json-parts.js';
import { decodeState, snapshotBytes } from '../../../src/platform/projections/runtime.js';

const joined = (value: unknown, partChars?: number): string =>
  Buffer.concat([...jsonParts(value, partChars)]).toString('utf8');

describe('snapshot JSON in parts', () => {
  it('is byte for byte JSON.stringify, whatever the part size (property)', () => {
    const state = fc.dictionary(
      fc.string(),
      fc.oneof(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.array(fc.jsonValue()),
        fc.jsonValue(),
        fc.constant(undefined),
      ),
    );
    fc.assert(
      fc.property(state, fc.integer({ min: 1, max: 64 }), (value, partChars) => {
        expect(joined(value, partChars)).to.equal(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
  });

  it('omits what JSON.stringify omits and defers to toJSON and non-plain objects', () => {
    const value = {
      a: { x: undefined, y: () => 1, z: 1 },
      b: [undefined, () => 1, Symbol('s'), 2],
      when: { at: new Date('2026-01-01T00:00:00Z') },
      map: new Map([['k', 1]]),
      skipped: undefined,
      '\u2028key"': 'é\u{1F600}',
    };
    expect(joined(value, 3)).to.equal(JSON.stringify(value));
  });

  it('splits a large state into several parts that the SQLite store saves and loads as one', () => {
    const state = { rows: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`r${i}`, { i }])) };
    const parts = [...jsonParts(state, 1000)];
    expect(parts.length).to.be.greaterThan(5);
    const store = SqliteEventStore.open(':memory:');
    const snapshots = new SqliteSnapshotStore(store);
    const record = { name: 'big', version: 1, checkpoint: 7, saved_at: 'x' };
    snapshots.save({ ...record, state: jsonParts(state, 1000) });
    const loaded = snapshots.load('big')!.state;
    expect(loaded).to.be.an('array').with.length(parts.length);
    expect(Buffer.from(snapshotBytes(loaded)).toString('utf8')).to.equal(JSON.stringify(state));
    expect(
      decodeState({ name: 'big', version: 1, init: () => ({}), evolve: (s) => s }, loaded),
    ).to.deep.equal(state);
    // A smaller state saved later leaves no stale parts behind.
    snapshots.save({ ...record, state: Buffer.from('{}') });
    expect(Buffer.from(snapshotBytes(snapshots.load('big')!.state)).toString('utf8')).to.equal('{}');
    snapshots.clear('big');
    expect(snapshots.load('big')).to.equal(undefined);
    void store.close();
  });
});
