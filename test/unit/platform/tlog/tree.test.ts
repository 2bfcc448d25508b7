/**
 * The tile tree kept beside the ledger agrees with the RFC 9162 tree computed from scratch at every
 * size, across tile boundaries and tile levels, after a reopen from its stored tiles, and serves
 * tlog-tiles whose hashes are the tree's own nodes.
 */
import { expect } from 'chai';
import { linkHash, GENESIS_HASH } from '../../../../src/platform/ledger/envelope.js';
import {
  memorySource,
  rootOfLeafHashes,
  verifyConsistency,
  verifyInclusion,
} from '../../../../src/platform/tlog/merkle.js';
import { MemoryTileStorage } from '../../../../src/platform/tlog/sqlite-tiles.js';
import {
  catchUpTree,
  eventLeafHash,
  LeafRun,
  TileTree,
  tileRootsOf,
  type LeafEvent,
} from '../../../../src/platform/tlog/tree.js';

/** A chain of link fields, as the ledger would hold them. */
function chain(n: number): (LeafEvent & { hash: string })[] {
  const out: (LeafEvent & { hash: string })[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq += 1) {
    const content_hash = linkHash(seq, 'c', String(seq));
    const hash = linkHash(seq, prev, content_hash);
    out.push({ seq, prev_hash: prev, content_hash, hash });
    prev = hash;
  }
  return out;
}

describe('tlog tile tree', () => {
  const events = chain(70_000);
  const leaves = events.map(eventLeafHash);

  it('has the from-scratch root at sizes around tile boundaries, appended one by one or in batches', () => {
    const tree = new TileTree(new MemoryTileStorage());
    const sizes = new Set([1, 2, 255, 256, 257, 511, 512, 4096, 65_535, 65_536, 65_537, 70_000]);
    let at = 0;
    for (const size of [...sizes].sort((a, b) => a - b)) {
      tree.append(events.slice(at, size));
      at = size;
      expect(tree.root().equals(rootOfLeafHashes(leaves.slice(0, size))), `size ${size}`).to.equal(true);
    }
  });

  it('refuses a leaf that is not the next one', () => {
    const tree = new TileTree(new MemoryTileStorage());
    tree.append(events.slice(0, 3));
    expect(() => tree.append(events.slice(4, 5))).to.throw(/cannot append seq 5/);
  });

  it('reopens from stored full tiles, catches up from the ledger, and proves what it held', async () => {
    const storage = new MemoryTileStorage();
    const first = new TileTree(storage);
    first.append(events.slice(0, 66_000));
    const reopened = new TileTree(storage);
    expect(reopened.size).to.equal(65_792); // 257 full tiles; the partial tail comes from the ledger
    await catchUpTree(reopened, {
      readRecords: (from, limit) => Promise.resolve(events.slice(from - 1, from - 1 + limit)),
    });
    expect(reopened.size).to.equal(70_000);
    const root = rootOfLeafHashes(leaves);
    expect(reopened.root().equals(root)).to.equal(true);
    for (const i of [0, 255, 256, 65_535, 65_536, 69_999]) {
      expect(verifyInclusion(i, 70_000, leaves[i]!, reopened.inclusionProof(i), root), `leaf ${i}`).to.equal(
        true,
      );
    }
    for (const m of [1, 256, 1000, 65_536, 66_000]) {
      const old = rootOfLeafHashes(leaves.slice(0, m));
      expect(verifyConsistency(m, 70_000, old, root, reopened.consistencyProof(m)), `${m}`).to.equal(true);
    }
  });

  it('keeps no pyramid of the tiles a catch-up closes, and still proves every leaf from the stored tiles', async () => {
    const storage = new MemoryTileStorage();
    const live = new TileTree(new MemoryTileStorage());
    live.append(events.slice(0, 5_000));
    // Live appends keep the tiles they close, for the receipts that follow.
    expect(live.cachedTiles).to.equal(Math.floor(5_000 / 256));
    const built = new TileTree(storage);
    await catchUpTree(built, {
      readRecords: (from, limit) => Promise.resolve(events.slice(from - 1, from - 1 + limit)),
    });
    expect(built.size).to.equal(70_000);
    // A first start on a ledger with no stored tiles: 273 level-0 tiles and one level-1 tile closed,
    // none kept (a million events kept 4,096 pyramids, 88 MB, until this).
    expect(built.cachedTiles).to.equal(0);
    expect(storage.fullTiles(0)).to.equal(273);
    const root = rootOfLeafHashes(leaves);
    expect(built.root().equals(root)).to.equal(true);
    for (const i of [0, 255, 256, 65_535, 65_536, 69_999]) {
      expect(verifyInclusion(i, 70_000, leaves[i]!, built.inclusionProof(i), root), `leaf ${i}`).to.equal(
        true,
      );
    }
    // Proofs load the pyramids they need, and only those.
    expect(built.cachedTiles).to.be.within(1, 12);
    // Live appends after the catch-up keep theirs again.
    const more = chain(70_256).slice(70_000);
    const before = built.cachedTiles;
    built.append(more);
    expect(built.cachedTiles).to.equal(before + 1);
  });

  it('serves tiles whose hashes are the nodes at level 8L, full and partial', () => {
    const tree = new TileTree(new MemoryTileStorage());
    tree.append(events);
    const src = memorySource(leaves);
    const level0 = tree.tile(0, 3, 256)!;
    expect(level0.subarray(0, 32).equals(leaves[768]!)).to.equal(true);
    expect(level0.length).to.equal(256 * 32);
    const level1 = tree.tile(1, 1, 17)!; // 70,000 leaves: 273 hashes at level 8, the second tile has 17
    expect(level1.length).to.equal(17 * 32);
    expect(level1.subarray(0, 32).equals(src.node(8, 256))).to.equal(true);
    expect(tree.tile(1, 1, 18)).to.equal(null);
    expect(tree.tile(0, 273, 112)!.length).to.equal(112 * 32);
    expect(tree.tile(0, 274, 1)).to.equal(null);
    expect(tree.tile(2, 0, 1)!.equals(src.node(16, 0))).to.equal(true); // one complete 65,536-leaf subtree
    expect(tree.tile(2, 0, 2)).to.equal(null);
  });

  it("grows the same tree from runs of leaf hashes with their tiles' roots (ledger:verify's threads) as from the leaves alone", () => {
    const src = memorySource(leaves);
    const bytes = Buffer.concat(leaves);
    // Roots of whole tiles only, each the node of height 8 over its 256 leaves; a run's tail has none.
    const roots = tileRootsOf(bytes.subarray(0, 600 * 32));
    expect(roots.length).to.equal(2 * 32);
    expect(roots.subarray(32).equals(src.node(8, 1))).to.equal(true);
    // Runs as a parallel pass cuts them: whole tiles, then a ragged one and runs after it, whose
    // roots start off a tile boundary and so must be ignored (they are another run's tiles).
    const cuts = [0, 2560, 5120, 65_536, 65_700, 66_048, 70_000];
    const withRoots = new TileTree(new MemoryTileStorage());
    const plain = new TileTree(new MemoryTileStorage());
    for (let i = 1; i < cuts.length; i += 1) {
      const run = bytes.subarray(cuts[i - 1]! * 32, cuts[i]! * 32);
      withRoots.appendLeafHashes(run, tileRootsOf(run));
      plain.appendLeafHashes(run);
      expect(withRoots.root().equals(plain.root()), `after ${cuts[i]}`).to.equal(true);
    }
    expect(withRoots.root().equals(rootOfLeafHashes(leaves))).to.equal(true);
    for (const [level, count] of [
      [0, 273],
      [1, 1],
      [2, 0],
    ] as const) {
      for (let t = 0; t < count; t += 1)
        expect(
          withRoots.tile(level, t, 256)!.equals(plain.tile(level, t, 256)!),
          `tile ${level}/${t}`,
        ).to.equal(true);
    }
    for (const i of [0, 300, 65_535, 69_999])
      expect(verifyInclusion(i, 70_000, leaves[i]!, withRoots.inclusionProof(i), withRoots.root())).to.equal(
        true,
      );
    // A wrong root is taken as given: the tree is then not the leaves' (ledger:verify reports it).
    const lied = new TileTree(new MemoryTileStorage());
    const run = bytes.subarray(0, 512 * 32);
    lied.appendLeafHashes(run, Buffer.alloc(64, 7));
    expect(lied.root().equals(rootOfLeafHashes(leaves.slice(0, 512)))).to.equal(false);
  });

  it("gathers a walk's leaf hashes a tile at a time: the same bytes, and tileRootsOf's roots when it starts a tile", () => {
    const bytes = Buffer.concat(leaves);
    // Leaves arrive as pushRow hands them over: 32-character latin1 strings.
    for (const [from, to] of [
      [0, 0],
      [0, 255],
      [0, 256],
      [0, 600],
      [256, 1280],
      [100, 700],
    ] as const) {
      const run = new LeafRun(to - from + 3, from % 256 === 0);
      for (let i = from; i < to; i += 1) run.push(leaves[i]!.toString('latin1'));
      expect(run.length).to.equal(to - from);
      const got = run.leaves();
      expect(got.equals(bytes.subarray(from * 32, to * 32)), `leaves ${from}–${to}`).to.equal(true);
      const roots = run.tileRoots();
      if (from % 256 !== 0) expect(roots, `roots ${from}–${to}`).to.equal(null);
      else expect(roots!.equals(tileRootsOf(got)), `roots ${from}–${to}`).to.equal(true);
    }
    const full = new LeafRun(1, true);
    full.push(leaves[0]!.toString('latin1'));
    expect(() => full.push(leaves[1]!.toString('latin1'))).to.throw(RangeError);
  });
});
