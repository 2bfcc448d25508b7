import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { chunkStartsFor, verifyInParallel } from '../../../scripts/lib/parallel-verify.js';
import { VerifyWorkers } from '../../../scripts/lib/verify-workers.js';
import { SqliteEventStore } from '../../../src/platform/event-store/sqlite.js';
import { verifyStore } from '../../../src/platform/ledger/verify-store.js';
import { MemoryTileStorage } from '../../../src/platform/tlog/sqlite-tiles.js';
import { eventLeafHash, TileTree, tileRootsOf } from '../../../src/platform/tlog/tree.js';
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

describe('ledger:verify chunks of whole Merkle tiles (scripts/lib/parallel-verify.ts)', function () {
  this.timeout(60_000);

  it('cuts a ledger into chunks of whole tiles once a chunk holds one, shrinking toward the end', () => {
    const sizesOf = (head: number, threads: number): number[] => {
      const starts = chunkStartsFor(head, threads);
      return starts.map((start, i) => (starts[i + 1] ?? head + 1) - start);
    };
    // A small ledger: about four equal chunks per thread (the tamper specs above cut at 25).
    expect(sizesOf(300, 3)).to.deep.equal(Array<number>(12).fill(25));
    expect(chunkStartsFor(300, 3).slice(0, 3)).to.deep.equal([1, 26, 51]);
    for (const [head, threads] of [
      [2_100, 2],
      [60_000, 2],
      [100_000, 2],
      [1_000_000, 2],
      [1_000_000, 4],
    ] as const) {
      const starts = chunkStartsFor(head, threads);
      const sizes = sizesOf(head, threads);
      expect(starts[0]).to.equal(1);
      expect(
        sizes.reduce((a, b) => a + b, 0),
        `${head}`,
      ).to.equal(head);
      // Whole tiles: every chunk starts at a tile boundary; at most 40 tiles; never growing.
      for (const start of starts) expect((start - 1) % 256).to.equal(0);
      for (const [i, size] of sizes.entries()) {
        expect(size).to.be.within(1, 10_240);
        if (i > 0) expect(size, `${head}: chunk ${i}`).to.be.at.most(sizes[i - 1]!);
      }
    }
    // The 100k bench ledger on two threads: 40-tile chunks, then shrinking to 4 tiles.
    expect(sizesOf(100_000, 2)).to.deep.equal([
      ...Array<number>(6).fill(10_240),
      9_728,
      7_424,
      5_376,
      4_096,
      3_072,
      2_304,
      1_792,
      1_280,
      1_024,
      1_024,
      1_024,
      416,
    ]);
    expect(sizesOf(2_100, 2)).to.deep.equal([768, 512, 512, 308]);
  });

  it("hands each chunk's tile roots with its leaves, and the tree grown from them is the ledger's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plumbline-parallel-tiles-'));
    const store = SqliteEventStore.open(join(dir, 'ledger.db'));
    try {
      const events = 2_100;
      await store.append(chain(events), 0);
      const records = await store.readRecords(1, events);
      const want = new TileTree(new MemoryTileStorage());
      want.append(records);
      for (const mainThreadVerifies of [true, false]) {
        const tree = new TreeOfLeaves();
        const runs = new Map<number, { leaves: Uint8Array; tileRoots: Uint8Array | undefined }>();
        const result = await verifyInParallel(store, events, VerifyWorkers.boot(1), {
          stopAtFirstIssue: true,
          mainThreadVerifies,
          onLeaves: (index, leaves, tileRoots) => {
            runs.set(index, { leaves, tileRoots });
            tree.add(index, leaves, tileRoots);
          },
        });
        // Two threads: chunks of 768, 512, 512 and 308 events; the worker alone: 1,280, 768, 52.
        // Every chunk starts at a tile boundary and hands over the roots of all its whole tiles
        // (the short last chunk has none).
        const starts = chunkStartsFor(events, mainThreadVerifies ? 2 : 1);
        expect(starts).to.deep.equal(mainThreadVerifies ? [1, 769, 1281, 1793] : [1, 1281, 2049]);
        expect(result).to.deep.include({ ok: true, chunks: starts.length });
        for (const [index, run] of runs) {
          const length = (starts[index + 1] ?? events + 1) - starts[index]!;
          expect(run.leaves.length, `chunk ${index}`).to.equal(length * 32);
          expect(run.tileRoots?.length, `chunk ${index}`).to.equal(Math.floor(length / 256) * 32);
          expect(Buffer.from(run.tileRoots!).equals(tileRootsOf(run.leaves)), `chunk ${index}`).to.equal(
            true,
          );
        }
        const verified = tree.verify(new MemoryTileStorage(), [
          { label: 'the tree of the records', checkpoint: { origin: 'o', size: events, root: want.root() } },
        ]);
        expect(verified, `main thread verifies: ${mainThreadVerifies}`).to.deep.include({
          ok: true,
          size: events,
        });
        expect(verified.root.equals(want.root())).to.equal(true);
      }
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
