/**
 * EsdbEventStore against the in-process gRPC stand-in: the shared EventStore contract, the ESDB
 * rules the stand-in copies (also run against a real server by esdb-real.test.ts), and what only
 * this adapter has to get right — its wire mapping, ESDB's answers, and a server going away.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import {
  chunksBelow,
  EsdbEventStore,
  type EsdbEventStoreOptions,
} from '../../src/platform/event-store/esdb.js';
import type { EventStore } from '../../src/platform/event-store/port.js';
import {
  AppendConflict,
  AppendTooLarge,
  EMPTY_HEAD,
  InvalidAppend,
  StoreAccessDenied,
  StoreNotLeader,
  StoreUnavailable,
  type SealedEvent,
} from '../../src/platform/ledger/index.js';
import { runEsdbAssumptions } from '../support/esdb-standin/assumptions.js';
import {
  DEFAULT_MAX_APPEND_SIZE,
  startEsdbStandin,
  type EsdbStandin,
  type StandinCall,
} from '../support/esdb-standin/index.js';
import { chain, eventually, freshChain, headOf, TEST_META, testId } from '../support/events.js';
import { runEventStoreContract } from './event-store.contract.js';

/** Settles `promise` and returns what it rejected with (undefined when it fulfilled). */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return undefined;
}

function appendsTo(standin: EsdbStandin, stream: string): StandinCall[] {
  return standin.journal.filter((c) => c.method === 'BatchAppend' && c.stream === stream);
}

/** The counted reads of `stream` journaled from index `since` on, as "from: events". */
function readsOf(standin: EsdbStandin, stream: string, since: number): string[] {
  return standin.journal
    .slice(since)
    .filter((c) => c.method === 'Read' && c.stream === stream && c.mode !== 'subscription')
    .map((c) => (c.method === 'Read' ? `${c.mode} ${c.from}: ${c.events}` : ''));
}

/** Everything an index file holds, in a stable order. */
function dumpIndex(path: string): unknown {
  const db = new Database(path, { readonly: true });
  try {
    return {
      ids: db.prepare('SELECT id, seq FROM ids ORDER BY seq, id').all(),
      streams: db.prepare('SELECT stream, seq FROM streams ORDER BY stream, seq').all(),
      meta: db.prepare('SELECT head_seq, head_hash FROM meta').all(),
    };
  } finally {
    db.close();
  }
}

describe('EsdbEventStore (gRPC stand-in)', () => {
  let standin: EsdbStandin;
  const opened: EventStore[] = [];
  let streams = 0;
  let lastStream = '';

  before(async () => {
    standin = await startEsdbStandin();
  });
  after(async () => {
    for (const s of opened.splice(0)) await s.close();
    await standin.stop();
  });

  function open(stream: string, opts: EsdbEventStoreOptions = {}): EsdbEventStore {
    const store = EsdbEventStore.connect(standin.url, { stream, resubscribeDelayMs: 20, ...opts });
    opened.push(store);
    return store;
  }
  function freshStream(): string {
    streams += 1;
    lastStream = `ledger-${streams}`;
    return lastStream;
  }

  runEventStoreContract('EsdbEventStore on the gRPC stand-in', {
    makeStore: () => Promise.resolve(EsdbEventStore.connect(standin.url, { stream: freshStream() })),
    secondHandle: () => Promise.resolve(EsdbEventStore.connect(standin.url, { stream: lastStream })),
  });

  runEsdbAssumptions('the gRPC stand-in', () => standin.url);

  describe('wire mapping', () => {
    it('stores each envelope as one JSON event: id, type, data, the other fields as metadata, at revision seq − 1', async () => {
      const stream = freshStream();
      const events = chain(2);
      await open(stream).append(events, 0);
      const records = standin.records(stream);
      expect(records.map((r) => [r.revision, r.id, r.type, r.contentType])).to.deep.equal([
        [0, testId(1), 'TestHappened', 'application/json'],
        [1, testId(2), 'TestHappened', 'application/json'],
      ]);
      const first = events[0]!;
      expect(JSON.parse(Buffer.from(records[0]!.data).toString('utf8'))).to.deep.equal({
        n: 1,
        note: 'event 1',
      });
      expect(JSON.parse(Buffer.from(records[0]!.customMetadata).toString('utf8'))).to.deep.equal({
        seq: 1,
        stream: 'test-stream',
        schema: 1,
        meta: TEST_META,
        recorded_at: '2026-01-01T00:00:01.000Z',
        content_hash: first.content_hash,
        prev_hash: '0'.repeat(64),
        hash: first.hash,
      });
    });

    it('appends with the exact expected revision: NO_STREAM on an empty ledger, then head − 1, never ANY', async () => {
      const stream = freshStream();
      const store = open(stream);
      const first = chain(2);
      await store.append(first, 0);
      await store.append(chain(1, headOf(first), 1), 2);
      expect(appendsTo(standin, stream).map((c) => c.method === 'BatchAppend' && c.expected)).to.deep.equal([
        'no_stream',
        'revision 1',
      ]);
    });

    it('refuses ids that ESDB would hand back spelled differently, before sending anything', async () => {
      const stream = freshStream();
      const [event] = chain(1, undefined, 1); // family 1 ids carry hex letters
      const shouted = { ...event!, id: event!.id.toUpperCase() };
      const error = await rejectionOf(open(stream).append([shouted], 0));
      expect(error).to.be.instanceOf(InvalidAppend);
      expect(appendsTo(standin, stream)).to.deep.equal([]);
    });

    it('asks for a subscription after revision from − 2, or from the start for seq 1', async () => {
      const stream = freshStream();
      const store = open(stream);
      await store.append(chain(3), 0);
      const fromOne: number[] = [];
      const fromThree: number[] = [];
      const one = store.subscribe(1, (e) => void fromOne.push(e.seq));
      await one.ready;
      const three = store.subscribe(3, (e) => void fromThree.push(e.seq));
      await three.ready;
      const subscriptions = standin.journal.filter(
        (c) => c.method === 'Read' && c.stream === stream && c.mode === 'subscription',
      );
      expect(subscriptions.map((c) => c.method === 'Read' && c.from)).to.deep.equal(['start', 'revision 1']);
      expect([fromOne, fromThree]).to.deep.equal([[1, 2, 3], [3]]);
      await Promise.all([one.close(), three.close()]);
    });
  });

  describe("ESDB's answers", () => {
    it('maps WrongExpectedVersion to AppendConflict naming the head the server reported', async () => {
      const stream = freshStream();
      const behind = open(stream);
      const first = freshChain(2);
      await behind.append(first, 0);
      const second = freshChain(1, headOf(first));
      await open(stream).append(second, 2);
      // `behind` still holds seq 2 as the head: only the server can tell it moved on.
      const error = await rejectionOf(behind.append(freshChain(1, headOf(first), { family: 1 }), 2));
      expect(error).to.be.instanceOf(AppendConflict);
      expect([(error as AppendConflict).expectedHead, (error as AppendConflict).actualHead]).to.deep.equal([
        2, 3,
      ]);
      expect(appendsTo(standin, stream).map((c) => c.method === 'BatchAppend' && c.outcome)).to.deep.equal([
        'written',
        'written',
        'wrong_expected_version',
      ]);
    });

    it('reads a ledger stream the server has never seen as empty, at the genesis head', async () => {
      const stream = freshStream();
      const store = open(stream);
      expect(await store.head()).to.deep.equal(EMPTY_HEAD);
      expect(await store.read(1, 10)).to.deep.equal([]);
      expect(await store.readRecords(1, 10)).to.deep.equal([]);
      expect(await store.readStream('test-stream')).to.deep.equal([]);
      const reads = standin.journal.filter((c) => c.method === 'Read' && c.stream === stream);
      expect(reads.map((c) => c.method === 'Read' && c.outcome)).to.deep.equal([
        'stream_not_found',
        'stream_not_found',
        'stream_not_found',
        'stream_not_found',
      ]);
    });

    it('returns the stored originals when ESDB acknowledges ids another handle already wrote at those positions', async () => {
      const stream = freshStream();
      const originals = chain(2);
      await open(stream).append(originals, 0);
      const resealed = chain(2, undefined, 0, 'project-prj_other'); // same ids, different content
      const result = await open(stream).append(resealed, 0);
      expect(result.duplicate).to.equal(true);
      expect(result.events).to.deep.equal(originals);
      expect(appendsTo(standin, stream).map((c) => c.method === 'BatchAppend' && c.outcome)).to.deep.equal([
        'written',
        'idempotent',
      ]);
      expect(standin.records(stream)).to.have.length(2);
    });
  });

  describe('the batch path and the server limits', () => {
    const SMALL_LIMIT = 4096;
    afterEach(() => {
      standin.behaviour.maxAppendSize = DEFAULT_MAX_APPEND_SIZE;
      standin.behaviour.denyWrites = false;
      standin.behaviour.notLeader = undefined;
    });

    it('appends through BatchAppend, as the client does against any server that lists it', async () => {
      const stream = freshStream();
      const store = open(stream);
      const first = freshChain(2);
      await store.append(first, 0);
      await store.append(freshChain(1, headOf(first)), 2);
      const calls = standin.journal.filter((c) => c.stream === stream);
      expect(calls.filter((c) => c.method === 'Append')).to.deep.equal([]);
      expect(appendsTo(standin, stream)).to.have.length(2);
    });

    it('writes a fresh-id append at the head it knows with one head read and no read-back', async () => {
      const stream = freshStream();
      const store = open(stream);
      let head = EMPTY_HEAD;
      for (let i = 0; i < 5; i += 1) {
        const events = freshChain(2, head);
        await store.append(events, head.seq);
        head = headOf(events);
      }
      const calls = standin.journal.filter((c) => c.stream === stream);
      expect(calls.map((c) => (c.method === 'Read' ? `Read ${c.mode}` : c.method))).to.deep.equal([
        'Read backwards',
        ...Array<string>(5).fill('BatchAppend'),
      ]);
    });

    it('splits an append over the maximum size into chunks below it, each at its exact revision', async () => {
      standin.behaviour.maxAppendSize = SMALL_LIMIT;
      const stream = freshStream();
      const store = open(stream, { maxAppendBytes: SMALL_LIMIT });
      const events = freshChain(12, EMPTY_HEAD, { pad: 1000 });
      const result = await store.append(events, 0);
      expect(result.head).to.deep.equal(headOf(events));
      const calls = appendsTo(standin, stream).filter((c) => c.method === 'BatchAppend');
      expect(calls.length).to.be.greaterThan(1);
      for (const call of calls) {
        expect(call.method === 'BatchAppend' && call.outcome).to.equal('written');
        expect(call.method === 'BatchAppend' && call.bytes).to.be.at.most(SMALL_LIMIT);
      }
      expect(calls[0]!.method === 'BatchAppend' && calls[0]!.expected).to.equal('no_stream');
      expect((await store.read(1, 100)).map((e) => e.hash)).to.deep.equal(events.map((e) => e.hash));
    });

    it('completes a split append that stopped between chunks when the same events are appended again', async () => {
      const stream = freshStream();
      const store = open(stream, { maxAppendBytes: SMALL_LIMIT });
      const events = freshChain(10, EMPTY_HEAD, { pad: 1000 });
      await open(stream).append(events.slice(0, 4), 0); // what the first chunks left behind
      const result = await store.append(events, 0);
      expect(result.duplicate).to.equal(false);
      expect((await store.read(1, 100)).map((e) => e.hash)).to.deep.equal(events.map((e) => e.hash));
    });

    it('never writes a chunk on top of one ESDB acknowledged for another writer sealing the same ids', async () => {
      const stream = freshStream();
      const ours = chain(10, EMPTY_HEAD, 0, 'test-stream', testId, 1000);
      const theirs = chain(10, EMPTY_HEAD, 0, 'project-prj_other', testId, 1000); // same ids
      const firstChunk = chunksBelow(theirs, SMALL_LIMIT)[0]!.length;
      expect(chunksBelow(ours, SMALL_LIMIT)[0]).to.have.length(firstChunk);
      // The other writer has landed its first chunk; ESDB will acknowledge ours at those positions.
      await open(stream).append(theirs.slice(0, firstChunk), 0);
      const store = open(stream, { maxAppendBytes: SMALL_LIMIT });
      expect(await rejectionOf(store.append(ours, 0))).to.be.instanceOf(AppendConflict);
      expect(appendsTo(standin, stream).map((c) => c.method === 'BatchAppend' && c.outcome)).to.deep.equal([
        'written',
        'idempotent',
      ]);
      expect(standin.records(stream)).to.have.length(firstChunk);
      // Once the other writer's command is whole, the same append is answered with its originals.
      await open(stream, { maxAppendBytes: SMALL_LIMIT }).append(theirs, 0);
      const again = await store.append(ours, 0);
      expect(again.duplicate).to.equal(true);
      expect(again.events).to.deep.equal(theirs);
    });

    it('refuses one event over the limit with AppendTooLarge before sending anything', async () => {
      const stream = freshStream();
      const error = await rejectionOf(
        open(stream, { maxAppendBytes: SMALL_LIMIT }).append(freshChain(1, EMPTY_HEAD, { pad: 5000 }), 0),
      );
      expect(error).to.be.instanceOf(AppendTooLarge);
      expect(appendsTo(standin, stream)).to.deep.equal([]);
    });

    it("maps the server's MaximumAppendSizeExceeded to AppendTooLarge naming its limit, not StoreUnavailable", async () => {
      standin.behaviour.maxAppendSize = SMALL_LIMIT;
      const stream = freshStream();
      const error = await rejectionOf(open(stream).append(freshChain(8, EMPTY_HEAD, { pad: 1000 }), 0));
      expect(error).to.be.instanceOf(AppendTooLarge);
      expect((error as AppendTooLarge).maxBytes).to.equal(SMALL_LIMIT);
      expect(appendsTo(standin, stream).map((c) => c.method === 'BatchAppend' && c.outcome)).to.deep.equal([
        'maximum_append_size_exceeded',
      ]);
      expect(standin.records(stream)).to.deep.equal([]);
    });

    it('maps AccessDenied to StoreAccessDenied, not StoreUnavailable', async () => {
      standin.behaviour.denyWrites = true;
      const error = await rejectionOf(open(freshStream()).append(freshChain(1), 0));
      expect(error).to.be.instanceOf(StoreAccessDenied);
      expect(error).not.to.be.instanceOf(StoreUnavailable);
    });

    it('maps NotLeader to StoreNotLeader naming the leader, not StoreUnavailable', async () => {
      standin.behaviour.notLeader = { host: '127.0.0.1', port: standin.port };
      const error = await rejectionOf(open(freshStream()).append(freshChain(1), 0));
      expect(error).to.be.instanceOf(StoreNotLeader);
      expect((error as StoreNotLeader).leader).to.equal(`127.0.0.1:${standin.port}`);
    });
  });

  describe('the index file (DATA_DIR/esdb-index.db)', () => {
    let dir: string;
    let files = 0;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'plumbline-esdb-index-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    function indexFile(): string {
      files += 1;
      return join(dir, `esdb-index-${files}.db`);
    }
    async function closeStore(store: EsdbEventStore): Promise<void> {
      opened.splice(opened.indexOf(store), 1);
      await store.close();
    }

    it('lets a restarted handle read only the events after its checkpoint, where one without it reads them all', async () => {
      const stream = freshStream();
      const indexPath = indexFile();
      const first = open(stream, { indexPath });
      const seeded = chain(40); // UUIDv5-like ids: the checked path, which fills the index
      await first.append(seeded, 0);
      expect(await first.readStream('test-stream')).to.have.length(40);
      await closeStore(first);
      const later = freshChain(5, headOf(seeded));
      await open(stream).append(later, 40); // another node, while this one was down

      const since = standin.journal.length;
      const restarted = open(stream, { indexPath });
      expect(await restarted.readStream('nothing-here')).to.deep.equal([]);
      // The checkpoint's own event (to tell it is this ledger) and the 5 after it: not 45.
      expect(readsOf(standin, stream, since)).to.deep.equal(['forwards revision 39: 6']);
      expect((await restarted.readStream('test-stream')).map((e) => e.hash)).to.deep.equal(
        [...seeded, ...later].map((e) => e.hash),
      );

      const cold = standin.journal.length;
      expect(await open(stream).readStream('nothing-here')).to.deep.equal([]);
      expect(readsOf(standin, stream, cold)).to.deep.equal(['forwards revision 0: 45']);
    });

    it('answers a repeat of repeatable ids after a restart as a duplicate with the originals, without writing', async () => {
      const stream = freshStream();
      const indexPath = indexFile();
      const first = open(stream, { indexPath });
      const originals = chain(3);
      await first.append(originals, 0);
      await first.append(freshChain(30, headOf(originals)), 3);
      await closeStore(first);

      const since = standin.journal.length;
      const resealed = chain(3, undefined, 0, 'project-prj_other'); // same ids, other content
      const result = await open(stream, { indexPath }).append(resealed, 0);
      expect(result.duplicate).to.equal(true);
      expect(result.events).to.deep.equal(originals);
      expect(result.head.seq).to.equal(33);
      expect(appendsTo(standin, stream).length).to.equal(2);
      // The checkpoint's event, then the three originals: no scan of the 33 events.
      expect(readsOf(standin, stream, since)).to.deep.equal([
        'backwards end: 1',
        'forwards revision 32: 1',
        'forwards revision 0: 3',
      ]);
    });

    it('holds what a rebuild from the stream holds, written by two handles at once and across a restart', async () => {
      const stream = freshStream();
      const indexPath = indexFile();
      const a = open(stream, { indexPath, maxAppendBytes: 4096 });
      const b = open(stream, { indexPath });
      let head = EMPTY_HEAD;
      for (let i = 0; i < 4; i += 1) {
        const keyed = chain(2, head, 10 + i, `project-prj_${i % 2}`);
        await (i % 2 ? a : b).append(keyed, head.seq);
        head = headOf(keyed);
        const fresh = freshChain(3, head, { family: 20 + i, pad: i === 2 ? 1500 : 0 }); // one split append
        await (i % 2 ? b : a).append(fresh, head.seq);
        head = headOf(fresh);
        await (i % 2 ? a : b).readStream(`project-prj_${i % 2}`);
      }
      await closeStore(a);
      const more = chain(2, head, 30, 'project-prj_1');
      await open(stream).append(more, head.seq);
      expect(await b.readStream('project-prj_1')).to.have.length(6);
      await closeStore(b);

      const rebuilt = indexFile();
      await open(stream, { indexPath: rebuilt }).readStream('test-stream');
      expect(dumpIndex(indexPath)).to.deep.equal(dumpIndex(rebuilt));
      const records = standin.records(stream);
      expect((dumpIndex(indexPath) as { ids: unknown[] }).ids).to.deep.equal(
        records.map((r) => ({ id: r.id, seq: r.revision + 1 })),
      );
    });

    it('rebuilds a file that describes another ledger: one that ends before its checkpoint, or holds another event there', async () => {
      for (const [otherLength, expected] of [
        [2, 'the ledger stream ends before the index checkpoint (seq 4)'],
        [6, 'the ledger stream holds another event at seq 4 than the index checkpoint'],
      ] as const) {
        const indexPath = indexFile();
        const before = chain(4, undefined, 40); // the ledger the file was built on
        const builder = open(freshStream(), { indexPath });
        await builder.append(before, 0);
        await closeStore(builder);

        const stream = freshStream(); // another ledger, where the file now points
        const other = chain(otherLength, undefined, 41, 'project-prj_reset');
        await open(stream).append(other, 0);
        const rebuilds: string[] = [];
        const store = open(stream, { indexPath, onIndexRebuild: (reason) => rebuilds.push(reason) });
        expect(await store.readStream('test-stream')).to.deep.equal([]);
        expect(await store.readStream('project-prj_reset')).to.deep.equal(other);
        expect(rebuilds).to.deep.equal([expected]);
        // The old ledger's ids are gone: re-appending its events is a race lost, not a repeat.
        const error = await rejectionOf(store.append(before, 0));
        expect(error).to.be.instanceOf(AppendConflict);
        await closeStore(store);
        const rebuilt = indexFile();
        await open(stream, { indexPath: rebuilt }).readStream('test-stream');
        expect(dumpIndex(indexPath)).to.deep.equal(dumpIndex(rebuilt));
      }
    });
  });

  describe('subscription readiness', () => {
    it("resolves ready on the server's caughtUp even while the head read is held", async () => {
      const stream = freshStream();
      const store = open(stream);
      await store.append(chain(2), 0);
      let release!: () => void;
      standin.behaviour.holdBackwardReads = new Promise<void>((resolve) => (release = resolve));
      try {
        const seen: number[] = [];
        const sub = store.subscribe(1, (e) => void seen.push(e.seq));
        await sub.ready;
        expect(seen).to.deep.equal([1, 2]);
        await sub.close();
      } finally {
        standin.behaviour.holdBackwardReads = undefined;
        release();
      }
    });
  });

  describe('on a server that never sends caughtUp (before 23.10)', () => {
    let old: EsdbStandin;
    before(async () => {
      old = await startEsdbStandin({ behaviour: { sendCaughtUp: false } });
    });
    after(() => old.stop());

    it('resolves ready once every event up to the head read at subscribe time is handled', async () => {
      const store = EsdbEventStore.connect(old.url, { stream: 'ledger-old' });
      opened.push(store);
      await store.append(chain(3), 0);
      const seen: number[] = [];
      const sub = store.subscribe(2, (e) => void seen.push(e.seq));
      await sub.ready;
      expect(seen).to.deep.equal([2, 3]);
      await sub.close();
    });

    it('resolves ready at once on an empty ledger and then delivers the first append', async () => {
      const store = EsdbEventStore.connect(old.url, { stream: 'ledger-old-empty' });
      opened.push(store);
      const seen: number[] = [];
      const sub = store.subscribe(1, (e) => void seen.push(e.seq));
      await sub.ready;
      await store.append(chain(1), 0);
      await eventually(() => seen.length === 1);
      expect(seen).to.deep.equal([1]);
      await sub.close();
    });
  });

  describe('when the server goes away', () => {
    let flaky: EsdbStandin;
    beforeEach(async () => {
      flaky = await startEsdbStandin();
    });
    afterEach(() => flaky.stop());

    it('answers StoreUnavailable from every call while nothing listens', async () => {
      await flaky.stop();
      const store = EsdbEventStore.connect(flaky.url, { stream: 'ledger-gone' });
      opened.push(store);
      const errors = await Promise.all([
        rejectionOf(store.head()),
        rejectionOf(store.read(1, 10)),
        rejectionOf(store.readStream('test-stream')),
        rejectionOf(store.append(chain(1), 0)),
        rejectionOf(store.subscribe(1, () => undefined).ready),
      ]);
      expect(errors.map((e) => e instanceof StoreUnavailable)).to.deep.equal([true, true, true, true, true]);
    });

    it('recovers on the same handle after a restart, with the data the server kept', async () => {
      const store = EsdbEventStore.connect(flaky.url, { stream: 'ledger-restart' });
      opened.push(store);
      const first = chain(2);
      await store.append(first, 0);
      await flaky.stop();
      expect(await rejectionOf(store.head())).to.be.instanceOf(StoreUnavailable);
      await flaky.restart();
      expect(await store.head()).to.deep.equal(headOf(first));
      const more = chain(1, headOf(first), 1);
      expect((await store.append(more, 2)).head).to.deep.equal(headOf(more));
    });

    it('keeps a live subscription going across a restart: resumes at the next seq, no gaps, no repeats', async () => {
      const reported: unknown[] = [];
      const store = EsdbEventStore.connect(flaky.url, {
        stream: 'ledger-resume',
        resubscribeDelayMs: 20,
        onSubscriptionError: (error) => reported.push(error),
      });
      opened.push(store);
      const first = chain(2);
      await store.append(first, 0);
      const seen: SealedEvent[] = [];
      const sub = store.subscribe(1, (e) => void seen.push(e));
      await sub.ready;
      await flaky.stop();
      await eventually(() => reported.length > 0);
      await flaky.restart();
      const more = chain(2, headOf(first), 1);
      await store.append(more, 2);
      await eventually(() => seen.length >= 4);
      expect(seen.map((e) => e.seq)).to.deep.equal([1, 2, 3, 4]);
      expect(reported[0]).to.be.instanceOf(StoreUnavailable);
      await sub.close();
    });
  });
});
