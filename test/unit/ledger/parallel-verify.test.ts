import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { verifyInParallel } from '../../../scripts/lib/parallel-verify.js';
import { VerifyWorkers } from '../../../scripts/lib/verify-workers.js';
import { SqliteEventStore } from '../../../src/platform/event-store/sqlite.js';
import { verifyStore } from '../../../src/platform/ledger/verify-store.js';
import { eventLeafHash } from '../../../src/platform/tlog/tree.js';
import { TreeOfLeaves } from '../../../src/platform/tlog/verify-tree.js';
import { chain } from '../../support/events.js';

const EVENTS = 300;
/** 3 threads cut 300 events into chunks of 25: seqs 25 and 26 sit on either side of a boundary. */
const THREADS = 3;

const TAMPERING: { name: string; sql: string }[] = [
  {
    name: 'a content edit',
    sql: `UPDATE events SET content = replace(content, 'event', 'evnt') WHERE seq = 140`,
  },
  {
    name: 'a hash edit on the last seq of a chunk',
    sql: `UPDATE events SET hash = '${'e'.repeat(64)}' WHERE seq = 25`,
  },
  { name: 'a deletion of the first seq of a chunk', sql: 'DELETE FROM events WHERE seq = 26' },
  {
    name: 'a reordering across a chunk boundary',
    sql: 'UPDATE events SET seq = -1 WHERE seq = 50; UPDATE events SET seq = 50 WHERE seq = 51; UPDATE events SET seq = 51 WHERE seq = -1;',
  },
  {
    name: 'a content edit of the last seq',
    sql: `UPDATE events SET content = replace(content, 'event', 'evnt') WHERE seq = ${EVENTS}`,
  },
  {
    name: 'two edits far apart',
    sql: 'DELETE FROM events WHERE seq = 270; DELETE FROM events WHERE seq = 90',
  },
];

describe('ledger:verify across threads (scripts/lib/parallel-verify.ts)', function () {
  this.timeout(60_000);
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-parallel-verify-'));
    path = join(dir, 'ledger.db');
    const store = SqliteEventStore.open(path);
    await store.append(chain(EVENTS), 0);
    await store.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The answer a sequential pass gives, and the parallel one with and without the main thread. */
  async function passes(head: number): Promise<unknown[]> {
    const store = SqliteEventStore.open(path);
    try {
      const sequential = await verifyStore(store, { stopAtFirstIssue: true, to: head });
      const opts = { stopAtFirstIssue: true };
      const withMain = await verifyInParallel(store, head, VerifyWorkers.boot(THREADS - 1), opts);
      const workersOnly = await verifyInParallel(store, head, VerifyWorkers.boot(THREADS), {
        ...opts,
        mainThreadVerifies: false,
      });
      // `checked` differs by design: other threads keep going past the first bad seq.
      return [sequential, withMain, workersOnly].map(({ checked: _checked, ...rest }) =>
        'chunks' in rest ? (({ chunks: _c, ...r }) => r)(rest) : rest,
      );
    } finally {
      await store.close();
    }
  }

  it('verifies an untouched ledger in full, whichever threads do the work', async () => {
    const [sequential, ...parallel] = await passes(EVENTS);
    expect(sequential).to.deep.include({ ok: true, verified_through: EVENTS });
    for (const result of parallel) expect(result).to.deep.equal(sequential);
  });

  it("hands over every event's Merkle leaf hash, byte for byte the tree's, from the one read", async () => {
    const store = SqliteEventStore.open(path);
    try {
      const records = await store.readRecords(1, EVENTS);
      const want = Buffer.concat(records.map((r) => eventLeafHash(r)));
      for (const mainThreadVerifies of [true, false]) {
        const runs = new Map<number, Uint8Array>();
        const tree = new TreeOfLeaves();
        const result = await verifyInParallel(store, EVENTS, VerifyWorkers.boot(THREADS - 1), {
          stopAtFirstIssue: true,
          mainThreadVerifies,
          onLeaves: (index, leaves) => {
            runs.set(index, leaves);
            tree.add(index, leaves);
          },
        });
        expect(result.ok).to.equal(true);
        expect(runs.size).to.equal(result.chunks);
        const got = Buffer.concat([...runs.keys()].sort((a, b) => a - b).map((i) => runs.get(i)!));
        expect(got.equals(want), `main thread verifies: ${mainThreadVerifies}`).to.equal(true);
        expect(tree.has(result.chunks)).to.equal(true);
      }
    } finally {
      await store.close();
    }
  });

  for (const { name, sql } of TAMPERING) {
    it(`names the same first bad seq, issues and watermark as one sequential pass after ${name}`, async () => {
      const raw = SqliteEventStore.open(path);
      raw.database.exec('DROP TRIGGER events_are_immutable; DROP TRIGGER events_are_permanent;');
      raw.database.exec(sql);
      await raw.close();
      const [sequential, ...parallel] = await passes(EVENTS);
      expect(sequential).to.have.property('ok', false);
      for (const result of parallel) expect(result).to.deep.equal(sequential);
    });
  }
});
