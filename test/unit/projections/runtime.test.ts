import { expect } from 'chai';
import fc from 'fast-check';
import { ManualClock } from '../../../src/platform/clock.js';
import { SqliteEventStore, SqliteSnapshotStore } from '../../../src/platform/event-store/sqlite.js';
import {
  decodeState,
  encodeState,
  MemorySnapshotStore,
  ProjectionRuntime,
  type Projection,
} from '../../../src/platform/projections/index.js';
import type { SealedEvent } from '../../../src/platform/ledger/index.js';
import { ledgerIndex } from '../../../projections/ledger-index.js';
import { chain } from '../../support/events.js';

interface Tally {
  byStream: Record<string, { count: number; lastSeq: number; notes: string[] }>;
  total: number;
}
const tally: Projection<Tally> = {
  name: 'tally',
  version: 1,
  init: () => ({ byStream: {}, total: 0 }),
  evolve(state, event: SealedEvent) {
    const entry = (state.byStream[event.stream] ??= { count: 0, lastSeq: 0, notes: [] });
    entry.count += 1;
    entry.lastSeq = event.seq;
    entry.notes.push((event.data as { note: string }).note);
    state.total += 1;
    return state;
  },
};
const clock = new ManualClock('2026-01-01T00:00:00Z');

function fold<S>(p: Projection<S>, events: SealedEvent[], from?: S): S {
  return events.reduce((s, e) => p.evolve(s, e), from ?? p.init());
}

describe('projection runtime (ARCHITECTURE §6)', () => {
  it('folds from scratch and from a snapshot at any point to byte-identical state (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 4 }),
        (n, cut, streams) => {
          let events: SealedEvent[] = [];
          for (let i = 0; i < n; i += 1) {
            const last = events[events.length - 1];
            events = events.concat(
              chain(1, last ? { seq: last.seq, hash: last.hash } : undefined, i, `s-${i % streams}`),
            );
          }
          const k = Math.min(cut, n);
          for (const p of [tally, ledgerIndex] as Projection<unknown>[]) {
            const scratch = fold(p, events);
            const snapshot = decodeState(p, encodeState(p, fold(p, events.slice(0, k))));
            const resumed = fold(p, events.slice(k), snapshot);
            expect(Buffer.from(encodeState(p, resumed))).to.deep.equal(Buffer.from(encodeState(p, scratch)));
          }
          expect(
            fold(
              tally,
              events.slice(k),
              decodeState(tally, encodeState(tally, fold(tally, events.slice(0, k)))),
            ),
          ).to.deep.equal(fold(tally, events));
          const index = fold(
            ledgerIndex,
            events.slice(k),
            decodeState(ledgerIndex, encodeState(ledgerIndex, fold(ledgerIndex, events.slice(0, k)))),
          );
          for (const e of events) expect(index.eventSeq(e.hash)).to.equal(e.seq);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('starts from a snapshot of the same version and catches up to the head', async () => {
    const store = SqliteEventStore.open(':memory:');
    const events = chain(30);
    await store.append(events, 0);
    const snapshots = new MemorySnapshotStore();
    snapshots.save({
      name: 'tally',
      version: 1,
      checkpoint: 10,
      state: Buffer.from(JSON.stringify(fold(tally, events.slice(0, 10)))),
      saved_at: 'x',
    });
    const runtime = new ProjectionRuntime(store, [tally], snapshots, clock);
    await runtime.start();
    expect(runtime.position).to.equal(30);
    expect(runtime.state(tally)).to.deep.equal(fold(tally, events));
    await store.close();
  });

  it('ignores a snapshot of another version and replays from seq 1', async () => {
    const store = SqliteEventStore.open(':memory:');
    await store.append(chain(5), 0);
    const snapshots = new MemorySnapshotStore();
    snapshots.save({
      name: 'tally',
      version: 0,
      checkpoint: 5,
      state: Buffer.from(JSON.stringify({ byStream: {}, total: 999 })),
      saved_at: 'x',
    });
    const runtime = new ProjectionRuntime(store, [tally], snapshots, clock);
    await runtime.start();
    expect(runtime.state(tally).total).to.equal(5);
    await store.close();
  });

  it('persists snapshots beside the ledger and reloads them in a new runtime', async () => {
    const store = SqliteEventStore.open(':memory:');
    const events = chain(12);
    await store.append(events, 0);
    const snaps = new SqliteSnapshotStore(store);
    const first = new ProjectionRuntime(store, [tally, ledgerIndex], snaps, clock);
    await first.start();
    await first.stop();
    expect(snaps.load('tally')?.checkpoint).to.equal(12);
    const second = new ProjectionRuntime(store, [tally, ledgerIndex], snaps, clock);
    await second.start();
    expect(second.state(ledgerIndex).eventSeq(events[11]!.hash)).to.equal(12);
    expect(second.state(tally)).to.deep.equal(first.state(tally));
    await store.close();
  });

  it('applies appended events once, and fills a gap from the store first', async () => {
    const store = SqliteEventStore.open(':memory:');
    const events = chain(6);
    await store.append(events.slice(0, 2), 0);
    const runtime = new ProjectionRuntime(store, [tally], null, clock);
    await runtime.start();
    await store.append(events.slice(2), 2);
    await runtime.apply([events[5]!]);
    await runtime.apply([events[5]!, events[1]!]);
    expect(runtime.state(tally).total).to.equal(6);
    expect(runtime.position).to.equal(6);
    await store.close();
  });

  it('rebuild replays from seq 1 and reaches the same state', async () => {
    const store = SqliteEventStore.open(':memory:');
    await store.append(chain(40), 0);
    const runtime = new ProjectionRuntime(store, [tally], new MemorySnapshotStore(), clock);
    await runtime.start();
    const before = JSON.stringify(runtime.state(tally));
    const progress: number[] = [];
    await runtime.rebuild((p) => progress.push(p.position));
    expect(JSON.stringify(runtime.state(tally))).to.equal(before);
    expect(progress[progress.length - 1]).to.equal(40);
    await store.close();
  });
});
