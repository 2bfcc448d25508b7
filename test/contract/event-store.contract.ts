/**
 * The EventStore contract (ARCHITECTURE §3.3): one suite, run against every adapter.
 * `makeStore` returns a fresh, empty store; `reopen` (optional) a second handle on the same data.
 */
import { expect } from 'chai';
import type { EventStore } from '../../src/platform/event-store/port.js';
import {
  AppendConflict,
  GENESIS_HASH,
  InvalidAppend,
  Ledger,
  verifyLedger,
  type SealedEvent,
} from '../../src/platform/ledger/index.js';
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

    it('delivers live appends of this handle and another, interleaved, each once and in order', async () => {
      const other = await fixture.secondHandle();
      opened.push(other);
      const seen: number[] = [];
      const sub = store.subscribe(1, (e: SealedEvent) => {
        seen.push(e.seq);
      });
      await sub.ready;
      let head = { seq: 0, hash: GENESIS_HASH };
      for (let i = 0; i < 6; i += 1) {
        const events = chain(2, head, 10 + i);
        await (i % 3 === 1 ? other : store).append(events, head.seq);
        head = headOf(events);
      }
      await eventually(() => seen.length === 12);
      expect(seen).to.deep.equal(Array.from({ length: 12 }, (_, i) => i + 1));
      await sub.close();
    });

    it('lets exactly one of two Ledger writers win each race, leaving a gapless chain', async () => {
      const other = await fixture.secondHandle();
      opened.push(other);
      const clock = new ManualClock('2026-01-01T00:00:00Z');
      // Each writer queues 10 commands, so one command can lose at most 10 races: 11 attempts make
      // "all 20 land" a property of the store rather than of its latency (a networked store's
      // winner appends faster than the loser re-reads, re-decides and retries).
      const ledgerA = await Ledger.open(store, clock, { maxAttempts: 11 });
      const ledgerB = await Ledger.open(other, clock, { maxAttempts: 11 });
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

    it('treats an id as unique across positions: the same ids sealed again at a later head are a duplicate', async () => {
      const events = chain(2);
      await store.append(events, 0);
      const more = chain(1, headOf(events), 1);
      await store.append(more, 2);
      // What a retried command does: same ids (from its idempotency key), sealed at the new head.
      const resealed = chain(2, headOf(more), 0, 'project-prj_retry').map((e, i) => ({
        ...e,
        id: events[i]!.id,
      }));
      const again = await store.append(resealed, 3);
      expect(again.duplicate).to.equal(true);
      expect(again.events).to.deep.equal(events);
      expect((await store.read(1, 10)).map((e) => e.id)).to.deep.equal([...events, ...more].map((e) => e.id));
    });

    it('refuses an append whose ids are only partly stored, and stores nothing', async () => {
      const events = chain(2);
      await store.append(events, 0);
      const mixed = chain(2, headOf(events), 0); // ids of seq 3 and 4: new
      mixed[0] = { ...mixed[0]!, id: events[1]!.id }; // ...but the first repeats seq 2's id
      let caught: unknown;
      try {
        await store.append(mixed, 2);
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(InvalidAppend);
      expect((await store.head()).seq).to.equal(2);
    });

    it('refuses an append that does not link to the head it names, and stores nothing', async () => {
      const events = chain(2);
      await store.append(events, 0);
      const unlinked = chain(1, { seq: 2, hash: 'f'.repeat(64) }, 1);
      let caught: unknown;
      try {
        await store.append(unlinked, 2);
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(InvalidAppend);
      expect((await store.head()).seq).to.equal(2);
    });

    it('reads one stream up to a limit', async () => {
      await store.append(chain(4, undefined, 0, 'project-prj_a'), 0);
      expect(
        (await store.readStream('project-prj_a', { after: 1, limit: 2 })).map((e) => e.seq),
      ).to.deep.equal([2, 3]);
    });

    it('subscribes from beyond the head: delivers from that seq on once it is appended', async () => {
      const first = chain(2);
      await store.append(first, 0);
      const seen: number[] = [];
      const sub = store.subscribe(4, (e: SealedEvent) => {
        seen.push(e.seq);
      });
      await sub.ready;
      await store.append(chain(3, headOf(first), 1), 2);
      await eventually(() => seen.length === 2);
      expect(seen).to.deep.equal([4, 5]);
      await sub.close();
    });

    it('subscribes on an empty store: ready at once, then delivers the first appends', async () => {
      const seen: number[] = [];
      const sub = store.subscribe(1, (e: SealedEvent) => {
        seen.push(e.seq);
      });
      await sub.ready;
      expect(seen).to.deep.equal([]);
      await store.append(chain(2), 0);
      await eventually(() => seen.length === 2);
      expect(seen).to.deep.equal([1, 2]);
      await sub.close();
    });

    it('rejects ready with the handler error when a handler throws during catch-up', async () => {
      await store.append(chain(2), 0);
      const sub = store.subscribe(1, (e: SealedEvent) => {
        if (e.seq === 2) throw new Error('projection failed at seq 2');
      });
      let caught: unknown;
      try {
        await sub.ready;
      } catch (error) {
        caught = error;
      }
      expect((caught as Error | undefined)?.message).to.equal('projection failed at seq 2');
      await sub.close();
    });

    if (fixture.secondHandle) {
      const secondHandle = fixture.secondHandle.bind(fixture);

      it("shows one handle's appends to another: head, read, readStream and a live subscription", async () => {
        const other = await secondHandle();
        opened.push(other);
        const seen: number[] = [];
        const sub = other.subscribe(1, (e: SealedEvent) => {
          seen.push(e.seq);
        });
        await sub.ready;
        const events = chain(3, undefined, 0, 'project-prj_shared');
        await store.append(events, 0);
        expect(await other.head()).to.deep.equal(headOf(events));
        expect(await other.read(1, 10)).to.deep.equal(events);
        expect(await other.readStream('project-prj_shared')).to.deep.equal(events);
        await eventually(() => seen.length === 3);
        expect(seen).to.deep.equal([1, 2, 3]);
        await sub.close();
      });

      it("refuses a handle that has not seen the other handle's appends with AppendConflict naming the head", async () => {
        await store.append(chain(2), 0);
        const other = await secondHandle();
        opened.push(other);
        let caught: unknown;
        try {
          await other.append(chain(1, undefined, 9), 0);
        } catch (error) {
          caught = error;
        }
        expect(caught).to.be.instanceOf(AppendConflict);
        const conflict = caught as AppendConflict;
        expect([conflict.expectedHead, conflict.actualHead]).to.deep.equal([0, 2]);
      });

      it('gives a second writer repeating the same ids at the same head the stored originals, not its copy', async () => {
        const originals = chain(2);
        await store.append(originals, 0);
        const other = await secondHandle();
        opened.push(other);
        const resealed = chain(2, undefined, 0, 'project-prj_other'); // same ids and positions, other content
        const again = await other.append(resealed, 0);
        expect(again.duplicate).to.equal(true);
        expect(again.events).to.deep.equal(originals);
        expect(await store.read(1, 10)).to.deep.equal(originals);
      });
    }
  });
}
