import { expect } from 'chai';
import { ManualClock } from '../../../src/platform/clock.js';
import { SqliteEventStore } from '../../../src/platform/event-store/sqlite.js';
import {
  encodeState,
  MemorySnapshotStore,
  snapshotBytes,
  ProjectionRuntime,
  type Projection,
  type RuntimeOptions,
  type SnapshotRecord,
} from '../../../src/platform/projections/index.js';
import { chain, headOf } from '../../support/events.js';

const count: Projection<{ n: number }> = {
  name: 'count',
  version: 1,
  init: () => ({ n: 0 }),
  evolve: (state) => ({ n: state.n + 1 }),
};

/** Remembers every save, so a spec can count how often the whole state was serialized. */
class CountingSnapshots extends MemorySnapshotStore {
  readonly saved: SnapshotRecord[] = [];
  override save(record: SnapshotRecord): void {
    this.saved.push({ ...record });
    super.save(record);
  }
}

/** A store holding `events` events and a started counting runtime over it, saving to `snapshots`. */
async function countingOver(events: number, opts: RuntimeOptions) {
  const store = SqliteEventStore.open(':memory:');
  let tail = chain(events);
  await store.append(tail, 0);
  const snapshots = new CountingSnapshots();
  const runtime = new ProjectionRuntime(
    store,
    [count],
    snapshots,
    new ManualClock('2026-01-01T00:00:00Z'),
    opts,
  );
  await runtime.start();
  /** Appends `n` more events and applies them, as the Ledger does after an append. */
  const live = async (n: number) => {
    const head = headOf(tail);
    tail = chain(n, head, 1);
    await store.append(tail, head.seq);
    await runtime.apply(tail);
  };
  return { store, snapshots, runtime, live };
}

describe('projection snapshots during a catch-up', () => {
  it('saves once at the end of a long catch-up (not every snapshotEvery events of it), then every snapshotEvery live events', async () => {
    const { store, snapshots, runtime, live } = await countingOver(230, {
      snapshotEvery: 50,
      snapshotFraction: 0,
      pageSize: 40,
    });
    expect(snapshots.saved.map((s) => s.checkpoint)).to.deep.equal([230]);
    expect(runtime.state(count).n).to.equal(230);

    await live(60);
    expect(snapshots.saved.map((s) => s.checkpoint)).to.deep.equal([230, 280]);
    await store.close();
  });

  it('spaces live saves by a fraction of the position on a larger ledger (a save costs in proportion to the state)', async () => {
    const { store, snapshots, live } = await countingOver(400, { snapshotEvery: 50, snapshotFraction: 0.25 });
    await live(200);
    // Not 50 events after 400 but once floor(position / 4) events have been applied: 133 at 533.
    expect(snapshots.saved.map((s) => s.checkpoint)).to.deep.equal([400, 533]);
    await store.close();
  });

  it('saves periodically while serving without holding the event loop, and applies nothing until the save has the states', async () => {
    // ~8 MiB of JSON: encoded in several parts, with turns of the event loop between them.
    const rows: Projection<{ rows: Record<string, string> }> = {
      name: 'rows',
      version: 1,
      init: () => ({
        rows: Object.fromEntries(Array.from({ length: 80_000 }, (_, i) => [`r${i}`, 'x'.repeat(90)])),
      }),
      evolve(state, event) {
        state.rows[`e${event.seq}`] = event.id;
        return state;
      },
    };
    const store = SqliteEventStore.open(':memory:');
    const events = chain(3);
    await store.append(events, 0);
    const snapshots = new CountingSnapshots();
    const clock = new ManualClock('2026-01-01T00:00:00Z');
    const runtime = new ProjectionRuntime(store, [rows], snapshots, clock, { snapshotEvery: 2 });
    let turns = 0;
    const ticker = setInterval(() => (turns += 1), 0);
    const saving = runtime.apply(events.slice(0, 2));
    const after = runtime.apply(events.slice(2));
    await Promise.all([saving, after]);
    clearInterval(ticker);
    expect(turns, 'event-loop turns during the save').to.be.greaterThan(0);
    expect(snapshots.saved.map((s) => s.checkpoint)).to.deep.equal([2]);
    const atTwo = events.slice(0, 2).reduce((s, e) => rows.evolve(s, e), rows.init());
    const saved = Buffer.from(snapshotBytes(snapshots.load('rows')!.state));
    expect(saved.equals(Buffer.from(encodeState(rows, atTwo)))).to.equal(true);
    expect(runtime.position).to.equal(3);
    expect(runtime.state(rows).rows.e3).to.equal(events[2]!.id);
    await store.close();
  });

  it('does not save after a short catch-up', async () => {
    const { store, snapshots } = await countingOver(20, { snapshotEvery: 50 });
    expect(snapshots.saved).to.deep.equal([]);
    await store.close();
  });
});
