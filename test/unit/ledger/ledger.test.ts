import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ManualClock } from '../../../src/platform/clock.js';
import { SqliteEventStore } from '../../../src/platform/event-store/sqlite.js';
import type { EventStore } from '../../../src/platform/event-store/port.js';
import {
  AppendConflict,
  ConflictRetriesExhausted,
  Ledger,
  QUEUE_TURN_MS,
  StoreUnavailable,
  verifyLedger,
} from '../../../src/platform/ledger/index.js';
import { ProjectionRuntime, type Projection } from '../../../src/platform/projections/index.js';
import { TEST_META, testId } from '../../support/events.js';

describe('Ledger (single writer, ARCHITECTURE §3.2)', () => {
  let dir: string;
  let store: SqliteEventStore;
  const clock = new ManualClock('2026-03-01T12:00:00Z');
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-ledger-'));
    store = SqliteEventStore.open(join(dir, 'ledger.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serializes concurrent commits into a gapless, verifiable chain stamped by the injected clock', async () => {
    const ledger = await Ledger.open(store, clock);
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        ledger.append([{ stream: `s-${i % 3}`, type: 'ThingNoted', data: { i } }], TEST_META),
      ),
    );
    const events = await store.read(1, 100);
    expect(events.map((e) => e.seq)).to.deep.equal(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(events.every((e) => e.recorded_at === '2026-03-01T12:00:00.000Z')).to.equal(true);
    expect(verifyLedger(events).ok).to.equal(true);
    expect(ledger.head.seq).to.equal(25);
  });

  it('appends a command’s events atomically: one unhashable event means none are stored', async () => {
    const ledger = await Ledger.open(store, clock);
    let caught: unknown;
    try {
      await ledger.append(
        [
          { stream: 's', type: 'Fine', data: { ok: true } },
          { stream: 's', type: 'Broken', data: { n: 10n } },
        ],
        TEST_META,
      );
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(TypeError);
    expect((await store.head()).seq).to.equal(0);
  });

  it('re-runs the decision after another writer moved the head, with the read side caught up first', async () => {
    const other = SqliteEventStore.open(store.path);
    const writerA = await Ledger.open(store, clock);
    const conflictsSeen: number[] = [];
    const writerB = await Ledger.open(other, clock, {
      onConflict: (head) => void conflictsSeen.push(head.seq),
      random: () => 0,
    });
    await writerA.append([{ stream: 'x', type: 'First', data: {} }], TEST_META);
    const headsDecidedAt: number[] = [];
    const result = await writerB.commit((head) => {
      headsDecidedAt.push(head.seq);
      return { events: [{ stream: 'x', type: 'Second', data: { after: head.seq } }], result: head.seq };
    }, TEST_META);
    expect(headsDecidedAt).to.deep.equal([0, 1]);
    expect(conflictsSeen).to.deep.equal([1]);
    expect(result.result).to.equal(1);
    expect(result.events[0]!.seq).to.equal(2);
    await other.close();
  });

  describe('decisions on read models at the head (settle)', () => {
    /** Commands of two events, Open then Close: any state between them is half an append. */
    const pairs: Projection<{ opened: number; closed: number }> = {
      name: 'pairs',
      version: 1,
      init: () => ({ opened: 0, closed: 0 }),
      evolve: (s, e) =>
        e.type === 'Open'
          ? { ...s, opened: s.opened + 1 }
          : e.type === 'Close'
            ? { ...s, closed: s.closed + 1 }
            : s,
    };
    const openClose = [
      { stream: 'p', type: 'Open', data: {} },
      { stream: 'p', type: 'Close', data: {} },
    ];

    /** This node: a runtime (no live subscription: the spec applies what "arrived") and its Ledger. */
    async function node() {
      const runtime = new ProjectionRuntime(store, [pairs], null, clock);
      await runtime.start();
      const ledger = await Ledger.open(store, clock, {
        settle: (head) => runtime.settle(head),
        onAppended: (events) => runtime.apply(events),
      });
      const seen: { position: number; opened: number; closed: number }[] = [];
      const decideOnce = () =>
        ledger.commit(() => {
          seen.push({ position: runtime.position, ...runtime.state(pairs) });
          return { events: [{ stream: 'q', type: 'Mine', data: {} }], result: null };
        }, TEST_META);
      return { runtime, ledger, seen, decideOnce };
    }

    it("never decides on half of another writer's append (its first event applied, not its second)", async () => {
      const here = await node();
      const other = SqliteEventStore.open(store.path);
      const otherNode = await Ledger.open(other, clock);
      const theirs = await otherNode.append(openClose, TEST_META);
      // The subscription has delivered the first of their two events only.
      await here.runtime.apply([theirs.events[0]!]);
      expect(here.runtime.position).to.equal(1);
      const mine = await here.decideOnce();
      expect(here.seen).to.deep.equal([{ position: 2, opened: 1, closed: 1 }]);
      expect(mine.events[0]!.seq).to.equal(3);
      await other.close();
    });

    it('never decides on read models behind the head its append expects', async () => {
      const other = SqliteEventStore.open(store.path);
      const here = await node();
      const otherNode = await Ledger.open(other, clock);
      await otherNode.append(openClose, TEST_META);
      // This writer learns the new head (as after a conflict) while its read models have not moved.
      await here.ledger.refresh();
      expect([here.ledger.head.seq, here.runtime.position]).to.deep.equal([2, 0]);
      await here.decideOnce();
      expect(here.seen).to.deep.equal([{ position: 2, opened: 1, closed: 1 }]);
      await other.close();
    });
  });

  it('gives up with ConflictRetriesExhausted when the head keeps moving', async () => {
    const alwaysBehind: EventStore = {
      kind: 'always-behind',
      append: () => Promise.reject(new AppendConflict(0, 99)),
      head: () => store.head(),
      read: (from, limit) => store.read(from, limit),
      readRecords: (from, limit) => store.readRecords(from, limit),
      readStream: (stream, opts) => store.readStream(stream, opts),
      subscribe: (from, onEvent) => store.subscribe(from, onEvent),
      close: () => Promise.resolve(),
    };
    const ledger = await Ledger.open(alwaysBehind, clock, { maxAttempts: 3, random: () => 0 });
    let caught: unknown;
    try {
      await ledger.append([{ stream: 's', type: 'Never', data: {} }], TEST_META);
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(ConflictRetriesExhausted);
    expect((caught as ConflictRetriesExhausted).attempts).to.equal(3);
  });

  it('treats a re-append of the same event ids as the original, not a new fact', async () => {
    const ledger = await Ledger.open(store, clock);
    const first = await ledger.append(
      [{ id: testId(1), stream: 's', type: 'Once', data: { v: 1 } }],
      TEST_META,
    );
    await ledger.append([{ stream: 's', type: 'Other', data: {} }], TEST_META);
    const again = await ledger.append(
      [{ id: testId(1), stream: 's', type: 'Once', data: { v: 1 } }],
      TEST_META,
    );
    expect(again.duplicate).to.equal(true);
    expect(again.events[0]!.seq).to.equal(first.events[0]!.seq);
    expect(again.events[0]!.hash).to.equal(first.events[0]!.hash);
    expect((await store.head()).seq).to.equal(2);
  });

  it('appends nothing for a decision with no events', async () => {
    const ledger = await Ledger.open(store, clock);
    const result = await ledger.commit(() => ({ events: [], result: 'nothing to do' }), TEST_META);
    expect(result.result).to.equal('nothing to do');
    expect((await store.head()).seq).to.equal(0);
  });

  it('tells the read side about every append, in order', async () => {
    const seen: number[] = [];
    const ledger = await Ledger.open(store, clock, {
      onAppended: (events) => void seen.push(...events.map((e) => e.seq)),
    });
    await ledger.append(
      [
        { stream: 'a', type: 'A', data: {} },
        { stream: 'a', type: 'B', data: {} },
      ],
      TEST_META,
    );
    await ledger.append([{ stream: 'a', type: 'C', data: {} }], TEST_META);
    expect(seen).to.deep.equal([1, 2, 3]);
  });

  it('hands the read side each event as the store holds it, not the decider’s objects', async () => {
    const seen: unknown[] = [];
    const ledger = await Ledger.open(store, clock, { onAppended: (events) => void seen.push(...events) });
    const data = { zeta: 1, alpha: { y: 2, x: undefined as number | undefined, b: [3] } };
    await ledger.append([{ stream: 'a', type: 'A', data }], TEST_META);
    const [live] = seen as { data: unknown; meta: unknown }[];
    const [stored] = await store.read(1, 1);
    expect(JSON.stringify(live!.data)).to.equal(JSON.stringify(stored!.data));
    expect(JSON.stringify(live!.data)).to.equal('{"alpha":{"b":[3],"y":2},"zeta":1}');
    expect(JSON.stringify(live!.meta)).to.equal(JSON.stringify(stored!.meta));
    expect(live!.data).to.not.equal(data);
  });

  describe('the commit queue and the event loop', () => {
    /** Holds the thread for `ms`, as a first score's derivation inside its decide does. */
    const busy = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };
    /** `n` commands queued in one turn, each noting its decide in `order` and holding the thread `ms`. */
    const queue = (ledger: Ledger, n: number, ms: number, order: string[]) =>
      Array.from({ length: n }, (_, i) =>
        ledger.commit(() => {
          order.push(`decide ${i}`);
          busy(ms);
          return { events: [{ stream: 'q', type: 'Queued', data: { i } }], result: i };
        }, TEST_META),
      );

    it('lets the event loop turn once queued commands have held the thread for QUEUE_TURN_MS, in order', async () => {
      const ledger = await Ledger.open(store, clock);
      const order: string[] = [];
      // Eight commands of 30 ms queued in one turn: 240 ms back to back without a yield.
      const commits = queue(ledger, 8, 30, order);
      // What a health check or another socket would be: it runs between commands, not after all.
      setImmediate(() => order.push('immediate'));
      setTimeout(() => order.push('timer'), 0);
      const results = await Promise.all(commits);
      expect(results.map((r) => r.result)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(results.map((r) => r.events[0]!.seq)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8]);
      const firstYield = order.indexOf('immediate');
      // Within the first 50 ms: after the second command (60 ms), never after the last.
      expect(firstYield, order.join(', ')).to.be.within(1, Math.ceil(QUEUE_TURN_MS / 30) + 1);
      expect(order.indexOf('timer'), order.join(', ')).to.be.below(order.indexOf('decide 7'));
      expect(order.filter((o) => o.startsWith('decide'))).to.deep.equal(
        Array.from({ length: 8 }, (_, i) => `decide ${i}`),
      );
      expect(verifyLedger(await store.read(1, 10)).ok).to.equal(true);
    });

    it('never yields for a queue of quick commands, so it costs ordinary loads nothing', async () => {
      const ledger = await Ledger.open(store, clock);
      const order: string[] = [];
      const commits = queue(ledger, 20, 0, order);
      setImmediate(() => order.push('immediate'));
      await Promise.all(commits);
      // Every command was decided and committed in the turn they were queued in; the immediate after.
      expect(order, order.join(', ')).to.deep.equal([
        ...Array.from({ length: 20 }, (_, i) => `decide ${i}`),
        'immediate',
      ]);
    });
  });

  describe('group commit', () => {
    /** The SQLite store, with each append's durability held until the test releases it. */
    function heldStore(inner: SqliteEventStore) {
      const held: { release: () => void; fail: (e: Error) => void }[] = [];
      const store: EventStore = {
        kind: 'held',
        append: (events, head) => inner.append(events, head),
        async appendGrouped(events, head) {
          const { durable, ...result } = await inner.appendGrouped(events, head);
          await durable;
          return {
            ...result,
            durable: new Promise<void>((resolve, reject) => held.push({ release: resolve, fail: reject })),
          };
        },
        head: () => inner.head(),
        read: (from, limit) => inner.read(from, limit),
        readRecords: (from, limit) => inner.readRecords(from, limit),
        readStream: (stream, opts) => inner.readStream(stream, opts),
        subscribe: (from, onEvent) => inner.subscribe(from, onEvent),
        close: () => inner.close(),
      };
      return { store, held };
    }
    const until = async (condition: () => boolean) => {
      for (let i = 0; i < 200 && !condition(); i += 1) await new Promise((r) => setTimeout(r, 5));
      expect(condition()).to.equal(true);
    };

    it('decides and commits the next command before the last is durable, and answers each only once it is', async () => {
      const { store: held, held: syncs } = heldStore(store);
      const applied: number[] = [];
      const ledger = await Ledger.open(held, clock, {
        onAppended: (events) => void applied.push(...events.map((e) => e.seq)),
      });
      const answered: string[] = [];
      const seenBy: number[] = [];
      const first = ledger
        .commit((head) => {
          seenBy.push(head.seq);
          return { events: [{ stream: 'a', type: 'A', data: {} }], result: 'first' };
        }, TEST_META)
        .then((r) => answered.push(r.result));
      const second = ledger
        .commit((head) => {
          seenBy.push(head.seq);
          return { events: [{ stream: 'a', type: 'B', data: {} }], result: 'second' };
        }, TEST_META)
        .then((r) => answered.push(r.result));
      await until(() => syncs.length === 2);
      expect(seenBy, 'the second decided on top of the first').to.deep.equal([0, 1]);
      expect(applied, 'both applied to the read side').to.deep.equal([1, 2]);
      expect(answered, 'nobody answered before a sync').to.deep.equal([]);
      syncs[0]!.release();
      await first;
      expect(answered).to.deep.equal(['first']);
      syncs[1]!.release();
      await second;
      expect(answered).to.deep.equal(['first', 'second']);
    });

    it('answers a decision that appends nothing only once what it saw is durable', async () => {
      const { store: held, held: syncs } = heldStore(store);
      const ledger = await Ledger.open(held, clock);
      const answered: string[] = [];
      const write = ledger
        .append([{ stream: 'a', type: 'A', data: {} }], TEST_META)
        .then(() => answered.push('write'));
      const read = ledger
        .commit((head) => ({ events: [], result: `saw ${head.seq}` }), TEST_META)
        .then((r) => answered.push(r.result));
      await until(() => syncs.length === 1);
      await new Promise((r) => setTimeout(r, 20));
      expect(answered).to.deep.equal([]);
      syncs[0]!.release();
      await Promise.all([write, read]);
      expect(answered).to.have.members(['write', 'saw 1']);
    });

    it('fails the caller whose sync failed', async () => {
      const { store: held, held: syncs } = heldStore(store);
      const ledger = await Ledger.open(held, clock);
      const pending = ledger.append([{ stream: 'a', type: 'A', data: {} }], TEST_META);
      await until(() => syncs.length === 1);
      syncs[0]!.fail(new StoreUnavailable('ledger sync failed (EIO)'));
      let error: unknown;
      await pending.catch((e: unknown) => (error = e));
      expect(error).to.be.instanceOf(StoreUnavailable);
    });

    it('covers many concurrent commands with fewer syncs of the SQLite WAL, each answered once durable', async () => {
      const ledger = await Ledger.open(store, clock);
      const before = store.syncs;
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          ledger.append([{ stream: 'a', type: 'A', data: { i } }], TEST_META),
        ),
      );
      const syncs = store.syncs - before;
      expect(syncs).to.be.at.least(1).and.below(50);
      expect((await store.head()).seq).to.equal(50);
      expect(verifyLedger(await store.read(1, 100)).ok).to.equal(true);
    });

    it('resolves a plain append only after a sync that began after its commit', async () => {
      const before = store.syncs;
      const ledger = await Ledger.open(store, clock);
      await ledger.append([{ stream: 'a', type: 'A', data: {} }], TEST_META);
      expect(store.syncs).to.equal(before + 1);
    });
  });
});
