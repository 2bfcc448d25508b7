/**
 * The EventStore contract (ARCHITECTURE §3.3): one suite, run against every adapter.
 * `makeStore` returns a fresh, empty store; `reopen` (optional) a second handle on the same data.
 */
import { expect } from 'chai';
import type { EventStore } from '../../src/platform/event-store/port.js';
import { AppendConflict, Ledger, verifyLedger, type SealedEvent } from '../../src/platform/ledger/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { chain, eventually, headOf, TEST_META } from '../support/events.js';

export interface ContractFixture {
  makeStore(): Promise<EventStore>;
  /** A second, independent handle on the store `makeStore` last made (another "process"). */
  secondHandle: () => Promise<EventStore>;
}

export function runEventStoreContract(name: string, fixture: ContractFixture): void {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    const opened: EventStore[] = [];
    beforeEach(async () => {
      store = await fixture.makeStore();
      opened.push(store);
    });
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
    });

    it('starts empty at the genesis head', async () => {
      const head = await store.head();
      expect(head.seq).to.equal(0);
      expect(head.hash).to.equal('0'.repeat(64));
      expect(await store.read(1, 10)).to.deep.equal([]);
    });

    it('appends a batch atomically with the expected head and reads it back by seq', async () => {
      const events = chain(3);
      const result = await store.append(events, 0);
      expect(result.duplicate).to.equal(false);
      expect(result.head).to.deep.equal(headOf(events));
      const back = await store.read(1, 10);
      expect(back).to.deep.equal(events);
      expect((await store.read(2, 1)).map((e) => e.seq)).to.deep.equal([2]);
    });

    it('refuses an append at a stale expected head with AppendConflict and stores nothing', async () => {
      const first = chain(2);
      await store.append(first, 0);
      const stale = chain(1, { seq: 0, hash: '0'.repeat(64) }, 9);
      let caught: unknown;
      try {
        await store.append(stale, 0);
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(AppendConflict);
      expect((await store.head()).seq).to.equal(2);
      expect(await store.read(1, 10)).to.have.length(2);
    });

    it('is idempotent on event id: re-appending returns the original positions', async () => {
      const events = chain(2);
      await store.append(events, 0);
      const more = chain(1, headOf(events), 1);
      await store.append(more, 2);
      const again = await store.append(events, 3);
      expect(again.duplicate).to.equal(true);
      expect(again.events.map((e) => [e.seq, e.id])).to.deep.equal(events.map((e) => [e.seq, e.id]));
      expect((await store.head()).seq).to.equal(3);
    });

    it('reads one stream in order, after a position, and an unknown stream as empty', async () => {
      const a = chain(2, undefined, 0, 'project-prj_a');
      const b = chain(2, headOf(a), 1, 'project-prj_b');
      const c = chain(1, headOf(b), 2, 'project-prj_a');
      await store.append(a, 0);
      await store.append(b, 2);
      await store.append(c, 4);
      const streamA = await store.readStream('project-prj_a');
      expect(streamA.map((e) => e.seq)).to.deep.equal([1, 2, 5]);
      expect((await store.readStream('project-prj_a', { after: 1 })).map((e) => e.seq)).to.deep.equal([2, 5]);
      expect(await store.readStream('project-prj_none')).to.deep.equal([]);
    });

    it('keeps stored events verifiable and returns stored records for verification', async () => {
      const events = chain(5);
      await store.append(events, 0);
      expect(verifyLedger(await store.read(1, 100)).ok).to.equal(true);
      const records = await store.readRecords(1, 100);
      expect(records.map((r) => r.hash)).to.deep.equal(events.map((e) => e.hash));
    });

    it('subscribes: catches up from a position, then delivers live appends', async () => {
      const first = chain(3);
      await store.append(first, 0);
      const seen: number[] = [];
      const sub = store.subscribe(2, (e: SealedEvent) => {
        seen.push(e.seq);
      });
      await sub.ready;
      expect(seen).to.deep.equal([2, 3]);
      await store.append(chain(2, headOf(first), 1), 3);
      await eventually(() => seen.length === 4);
      expect(seen).to.deep.equal([2, 3, 4, 5]);
      await sub.close();
    });

    it('lets exactly one of two Ledger writers win each race, leaving a gapless chain', async () => {
      const other = await fixture.secondHandle();
      opened.push(other);
      const clock = new ManualClock('2026-01-01T00:00:00Z');
      const ledgerA = await Ledger.open(store, clock);
      const ledgerB = await Ledger.open(other, clock);
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? ledgerA : ledgerB).append(
            [{ stream: 'race-1', type: 'RaceRun', data: { i } }],
            TEST_META,
          ),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(20);
      const all = await store.read(1, 100);
      expect(all.map((e) => e.seq)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(verifyLedger(all).ok).to.equal(true);
      expect(ledgerA.conflicts + ledgerB.conflicts).to.be.greaterThan(0);
    });

    it('rejects a raw race at one head: exactly one of two appends at the same expected head wins', async () => {
      const other = await fixture.secondHandle();
      opened.push(other);
      const x = chain(1, undefined, 1);
      const y = chain(1, undefined, 2);
      const results = await Promise.allSettled([store.append(x, 0), other.append(y, 0)]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      expect(won).to.have.length(1);
      expect(lost).to.have.length(1);
      expect((lost[0] as PromiseRejectedResult).reason).to.be.instanceOf(AppendConflict);
      expect((await store.head()).seq).to.equal(1);
    });
  });
}
