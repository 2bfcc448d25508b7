/**
 * The EventStoreDB behaviour EsdbEventStore is built on, stated against the bare client. Run
 * against the stand-in, they pin what the test double copies; run against a real server
 * (esdb-real.test.ts), they check that the double copies the real thing.
 */
import { expect } from 'chai';
import {
  EventStoreDBClient,
  jsonEvent,
  NO_STREAM,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import type { AppendExpectedRevision, ReadRevision } from '@eventstore/db-client';
import { testId } from '../events.js';

const PROBE_FAMILY = 77;

function probe(n: number, id = testId(n, PROBE_FAMILY)) {
  return jsonEvent({ id, type: 'ProbeRecorded', data: { n } });
}

/** Registers the suite; `url` is read when it starts, `prefix` keeps its streams apart from others'. */
export function runEsdbAssumptions(name: string, url: () => string, prefix = 'assumption'): void {
  describe(`ESDB behaviour the adapter relies on: ${name}`, () => {
    let client: EventStoreDBClient;
    let streams = 0;
    const fresh = (): string => `${prefix}-${(streams += 1)}`;

    before(() => {
      client = EventStoreDBClient.connectionString(url());
    });
    after(() => client.dispose());

    async function append(stream: string, ns: number[], expectedRevision: AppendExpectedRevision) {
      return client.appendToStream(
        stream,
        ns.map((n) => probe(n)),
        { expectedRevision },
      );
    }
    async function readIds(
      stream: string,
      fromRevision: ReadRevision = 'start',
    ): Promise<[number, string][]> {
      const out: [number, string][] = [];
      for await (const resolved of client.readStream(stream, { fromRevision })) {
        out.push([Number(resolved.event!.revision), resolved.event!.id]);
      }
      return out;
    }

    it('reads from a revision inclusively', async () => {
      const stream = fresh();
      await append(stream, [1, 2, 3], NO_STREAM);
      expect((await readIds(stream, 1n)).map(([revision]) => revision)).to.deep.equal([1, 2]);
    });

    it('subscribes after a revision (exclusively), says caughtUp, then delivers live appends', async () => {
      const stream = fresh();
      await append(stream, [1, 2, 3], NO_STREAM);
      const revisions: number[] = [];
      let caughtUp = false;
      const sub = client.subscribeToStream(stream, { fromRevision: 0n });
      sub.on('data', (resolved) => void revisions.push(Number(resolved.event!.revision)));
      sub.on('caughtUp', () => (caughtUp = true));
      await until(() => caughtUp && revisions.length === 2);
      await append(stream, [4], 2n);
      await until(() => revisions.length === 3);
      await sub.unsubscribe();
      expect(revisions).to.deep.equal([1, 2, 3]);
    });

    it('writes ids again when an append names the current end, though they are already stored', async () => {
      const stream = fresh();
      await append(stream, [1, 2], NO_STREAM);
      const again = await append(stream, [1], 1n);
      expect(again.nextExpectedRevision).to.equal(2n);
      expect((await readIds(stream)).map(([, id]) => id)).to.deep.equal([
        testId(1, PROBE_FAMILY),
        testId(2, PROBE_FAMILY),
        testId(1, PROBE_FAMILY),
      ]);
    });

    it('acknowledges a repeat of an append at its original expected revision and writes nothing', async () => {
      const stream = fresh();
      await append(stream, [1, 2], NO_STREAM);
      await append(stream, [3], 1n);
      const repeat = await append(stream, [1, 2], NO_STREAM);
      expect(repeat.success).to.equal(true);
      expect(await readIds(stream)).to.have.length(3);
    });

    it('answers a stale expected revision with new ids by WrongExpectedVersion naming the last revision', async () => {
      const stream = fresh();
      await append(stream, [1, 2], NO_STREAM);
      let caught: unknown;
      try {
        await append(stream, [3], 0n);
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(WrongExpectedVersionError);
      expect((caught as WrongExpectedVersionError).actualVersion).to.equal(1n);
    });

    it('hands event ids back lower-case, whatever case they were sent in', async () => {
      const stream = fresh();
      const id = testId(1, PROBE_FAMILY);
      await client.appendToStream(stream, probe(1, id.toUpperCase()), { expectedRevision: NO_STREAM });
      expect(await readIds(stream)).to.deep.equal([[0, id]]);
    });

    it('answers a read of a stream that was never written with StreamNotFound', async () => {
      let caught: unknown;
      try {
        await readIds(fresh());
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(StreamNotFoundError);
    });
  });
}

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
