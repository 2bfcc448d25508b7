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
  verifyLedger,
} from '../../../src/platform/ledger/index.js';
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
});
