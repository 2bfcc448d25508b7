import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { SqliteEventStore } from '../../../../src/platform/event-store/sqlite.js';
import { EMPTY_HEAD, type LedgerHead } from '../../../../src/platform/ledger/envelope.js';
import { BackgroundVerifier } from '../../../../src/platform/ledger/background-verifier.js';
import { leafHash } from '../../../../src/platform/tlog/merkle.js';
import { SqliteTileStorage } from '../../../../src/platform/tlog/sqlite-tiles.js';
import { catchUpTree, TileTree } from '../../../../src/platform/tlog/tree.js';
import { verifyPrefix, type PrefixSource } from '../../../../src/platform/tlog/verify-prefix.js';
import { ThreadedVerifier } from '../../../../src/platform/tlog/verify-thread.js';
import { chain } from '../../../support/events.js';

/**
 * The background verifier's long passes on a thread of their own (src/platform/tlog/verify-thread.ts):
 * a stretch is "clean through seq N" only when its chain and each leaf against its stored tile
 * verify; anything else is declined, and the verifier's own pass then names it.
 */
const EVENTS = 3_000; // 11 full tiles (2,816 leaves) and 184 leaves in the partial one
const FULL = 11 * 256;

interface Ledger {
  dir: string;
  path: string;
  store: SqliteEventStore;
  tiles: SqliteTileStorage;
  tree: TileTree;
}

async function ledger(): Promise<Ledger> {
  const dir = mkdtempSync(join(tmpdir(), 'plumbline-verify-thread-'));
  const path = join(dir, 'ledger.db');
  const store = SqliteEventStore.open(path);
  await store.append(chain(EVENTS), 0);
  const tiles = new SqliteTileStorage(store.database);
  const tree = new TileTree(tiles);
  await catchUpTree(tree, store);
  return { dir, path, store, tiles, tree };
}

function sourceOf(store: SqliteEventStore): PrefixSource {
  const row = store.database.prepare<[number], LedgerHead>('SELECT seq, hash FROM events WHERE seq = ?');
  return {
    readRows: (next, limit) => store.readRows(next, limit),
    readPacked: (first, last) => store.readPacked(first, last),
    stored: (seq) => row.get(seq),
  };
}

/** Plays the insider: drops the immutability triggers and runs `sql` on the file. */
function tamper(l: Ledger, sql: string): void {
  l.store.database.exec(
    'DROP TRIGGER IF EXISTS events_are_immutable; DROP TRIGGER IF EXISTS events_are_permanent;',
  );
  l.store.database.exec(sql);
}

describe('ledger verification off the service thread', function () {
  this.timeout(60_000);
  let l: Ledger;
  beforeEach(async () => {
    l = await ledger();
  });
  afterEach(async () => {
    await l.store.close();
    rmSync(l.dir, { recursive: true, force: true });
  });

  describe('verifyPrefix', () => {
    it('verifies a clean ledger through its last full tile, answering that row’s stored head', () => {
      const through = verifyPrefix(sourceOf(l.store), l.tiles, EMPTY_HEAD, EVENTS);
      expect(through).to.deep.equal(sourceOf(l.store).stored(FULL));
    });

    it('starts after a given head and stops at `to`', () => {
      const from = sourceOf(l.store).stored(1_000)!;
      expect(verifyPrefix(sourceOf(l.store), l.tiles, from, 1_500)).to.deep.equal(
        sourceOf(l.store).stored(1_500),
      );
      // Nothing to walk: the head it was given.
      expect(verifyPrefix(sourceOf(l.store), l.tiles, from, 1_000)).to.deep.equal(from);
    });

    it('declines a content edit, a hash edit and a deleted row', () => {
      const kinds = [
        `UPDATE events SET content = replace(content, '"event 700"', '"event 7OO"') WHERE seq = 700`,
        `UPDATE events SET hash = '${'e'.repeat(64)}' WHERE seq = 900`,
        'DELETE FROM events WHERE seq = 1200',
      ];
      for (const sql of kinds) {
        l.store.database.exec('SAVEPOINT drill');
        tamper(l, sql);
        expect(verifyPrefix(sourceOf(l.store), l.tiles, EMPTY_HEAD, EVENTS), sql).to.equal(null);
        l.store.database.exec('ROLLBACK TO drill; RELEASE drill');
        expect(verifyPrefix(sourceOf(l.store), l.tiles, EMPTY_HEAD, EVENTS)).to.not.equal(null);
      }
    });

    it('declines a leaf that differs from its stored tile, and a tile missing or cut short', () => {
      const tile = l.tiles.loadTile(0, 3)!;
      const edited = Buffer.from(tile);
      edited.set(leafHash('{"forged":true}'), 17 * 32);
      const save = l.store.database.prepare('UPDATE tlog_tiles SET hashes = ? WHERE level = 0 AND idx = 3');
      save.run(edited);
      expect(verifyPrefix(sourceOf(l.store), l.tiles, EMPTY_HEAD, EVENTS)).to.equal(null);
      save.run(tile.subarray(0, 255 * 32));
      expect(verifyPrefix(sourceOf(l.store), l.tiles, EMPTY_HEAD, EVENTS)).to.equal(null);
      save.run(tile);
      expect(verifyPrefix(sourceOf(l.store), l.tiles, EMPTY_HEAD, EVENTS)).to.not.equal(null);
      const missing = {
        fullTiles: () => 11,
        loadTile: (level: number, i: number) => (i === 5 ? undefined : l.tiles.loadTile(level, i)),
      };
      expect(verifyPrefix(sourceOf(l.store), missing, EMPTY_HEAD, EVENTS)).to.equal(null);
    });
  });

  describe('the thread and the background verifier', () => {
    it('verifies on a worker thread through its own connection, and declines a tampered file', async () => {
      const threaded = new ThreadedVerifier(l.path, { minEvents: 1 });
      expect(await threaded.verify(EMPTY_HEAD, EVENTS)).to.deep.equal(sourceOf(l.store).stored(FULL));
      tamper(
        l,
        `UPDATE events SET content = replace(content, '"event 1700"', '"event 17OO"') WHERE seq = 1700`,
      );
      expect(await threaded.verify(EMPTY_HEAD, EVENTS)).to.equal(null);
    });

    it('declines a ledger gone from its path, creating no file there', async () => {
      const gone = join(l.dir, 'moved', 'ledger.db');
      expect(await new ThreadedVerifier(gone, { minEvents: 1 }).verify(EMPTY_HEAD, EVENTS)).to.equal(null);
      expect(existsSync(gone)).to.equal(false);
    });

    it('ends a running pass on cancel', async () => {
      const errors: Error[] = [];
      const threaded = new ThreadedVerifier(l.path, { minEvents: 1, onError: (e) => errors.push(e) });
      const pass = threaded.verify(EMPTY_HEAD, EVENTS);
      await threaded.cancel();
      expect(await pass).to.equal(null);
      expect(errors).to.deep.equal([]);
    });

    /** The tree's leaves as the service's verifier checks them (compose.ts). */
    const treeOf = (tree: TileTree) => ({
      leaf: (seq: number) => (seq > tree.size ? undefined : tree.leafHash(seq - 1)),
      hashLeaf: leafHash,
    });
    const checkpoint = () => Promise.resolve(null);

    it('takes the watermark from the thread and walks only the rest itself', async () => {
      const asked: [LedgerHead, number][] = [];
      const threaded = new ThreadedVerifier(l.path, { minEvents: 1 });
      const offload = {
        minEvents: 1,
        verify: (from: LedgerHead, to: number) => {
          asked.push([from, to]);
          return threaded.verify(from, to);
        },
        cancel: () => threaded.cancel(),
      };
      const verifier = new BackgroundVerifier(
        l.store,
        () => new Date(),
        () => 0,
        0,
        {
          log: { tree: treeOf(l.tree), checkpoint },
          offload,
        },
      );
      const status = await verifier.run();
      expect(status).to.deep.include({ ok: true, verified_through: EVENTS, head: EVENTS });
      expect(asked).to.deep.equal([[EMPTY_HEAD, EVENTS]]);
      // The partial tile's leaves (after seq 2,816) are the service's own to check: a forged leaf
      // there is found by its pass, not passed over.
      await l.store.append(chain(300, sourceOf(l.store).stored(EVENTS)), EVENTS);
      await catchUpTree(l.tree, l.store);
      expect((await verifier.run()).verified_through).to.equal(EVENTS + 300);
      expect(asked.at(-1)).to.deep.equal([sourceOf(l.store).stored(EVENTS), EVENTS + 300]);
    });

    it('names the first bad seq itself when the thread declines', async () => {
      tamper(l, `UPDATE events SET hash = '${'e'.repeat(64)}' WHERE seq = 1234`);
      const verifier = new BackgroundVerifier(
        l.store,
        () => new Date(),
        () => 0,
        0,
        {
          log: { tree: treeOf(l.tree), checkpoint },
          offload: new ThreadedVerifier(l.path, { minEvents: 1 }),
        },
      );
      const status = await verifier.run();
      expect(status.ok).to.equal(false);
      expect(status.issues[0]).to.include({ code: 'hash_mismatch', seq: 1234 });
      expect(status.verified_through).to.equal(1233);
    });

    it('finds a leaf forged past the stored tiles, where the thread does not look', async () => {
      // The tree's partial tile lives in memory: the thread verifies through seq 2,816 only.
      const forged = {
        leaf: (seq: number) => (seq === 2_900 ? leafHash('{"forged":true}') : treeOf(l.tree).leaf(seq)),
        hashLeaf: leafHash,
      };
      const verifier = new BackgroundVerifier(
        l.store,
        () => new Date(),
        () => 0,
        0,
        {
          log: { tree: forged, checkpoint },
          offload: new ThreadedVerifier(l.path, { minEvents: 1 }),
        },
      );
      const status = await verifier.run();
      expect(status.ok).to.equal(false);
      expect(status.issues[0]).to.include({ code: 'tree_mismatch', seq: 2_900 });
    });

    it('re-checks a verified slice on the thread, and a slice edited since is named', async () => {
      const threaded = new ThreadedVerifier(l.path, { minEvents: 1 });
      const verifier = new BackgroundVerifier(
        l.store,
        () => new Date(),
        () => 0,
        1_000,
        {
          log: { tree: treeOf(l.tree), checkpoint },
          offload: threaded,
        },
      );
      expect((await verifier.run()).ok).to.equal(true);
      // Behind the watermark: only a re-check slice can find it (slices of 1,000 from seq 1).
      tamper(l, `UPDATE events SET content = replace(content, '"event 500"', '"event 5OO"') WHERE seq = 500`);
      const status = await verifier.run();
      expect(status.ok).to.equal(false);
      expect(status.issues[0]).to.include({ code: 'content_hash_mismatch', seq: 500 });
    });
  });
});
