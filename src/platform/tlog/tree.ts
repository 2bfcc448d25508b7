/**
 * The ledger's Merkle tree, kept as C2SP tiles of height 8 beside the ledger. In memory: the
 * right edge only (the partial tile of each tile level, at most 255 hashes each) and a small cache
 * of full tiles with their interior levels. Stored: every full tile, written once when it fills
 * (once per 256 appends at level 0), never changed. Appending a leaf costs one leaf hash plus, once
 * per 256 leaves, the 255 hashes that close a tile: O(1) amortized, O(log n) at worst.
 *
 * The partial tiles are not stored: on open they are recomputed from the stored full tiles and the
 * ledger's tail, so a crash between a ledger commit and a tile write loses nothing — and a stored
 * tile that disagrees with the ledger is found by `checkAgainst` (ledger:verify, the verifier).
 */
import { hash } from 'node:crypto';
import { linkJson } from '../ledger/envelope.js';
import {
  consistencyProof,
  inclusionProof,
  leafHash,
  HASH_SIZE,
  NODE_INPUT_SIZE,
  nodeHash,
  rangeRoot,
  type HashSource,
} from './merkle.js';
import { TILE_HEIGHT, TILE_WIDTH } from './tiles.js';

export interface StoredTile {
  level: number;
  index: number;
  /** 256 × 32 bytes. */
  hashes: Buffer;
}

/** Where full tiles and the log's small state (last checkpoint, integrity marker) are kept. */
export interface TileStorage {
  /** How many full tiles are stored at tile level `level` (they are 0 … n − 1). */
  fullTiles(level: number): number;
  loadTile(level: number, index: number): Buffer | undefined;
  saveTiles(tiles: StoredTile[]): void;
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string | null): void;
  /** Drops every tile (a rebuild); the meta values stay. */
  clearTiles(): void;
  close(): void;
}

/** The link fields of an event: all the tree needs. */
export interface LeafEvent {
  seq: number;
  prev_hash: string;
  content_hash: string;
}

export function leafInput(e: LeafEvent): string {
  return linkJson(e.seq, e.prev_hash, e.content_hash);
}

export function eventLeafHash(e: LeafEvent): Buffer {
  return leafHash(leafInput(e));
}

/**
 * A full tile with its interior levels: levels[r] holds the 256 >> r hashes of height 8L + r,
 * 32 bytes each, in one buffer (level 0 is the tile's own bytes). A node is a view taken when
 * asked for, not one kept per node: a tree rebuilt from a million leaves (ledger:verify) would make
 * two million views it never reads.
 */
type Pyramid = Buffer[];

/**
 * The inputs of one level's interior nodes (0x01 ‖ left ‖ right) side by side, reused for every
 * level of every tile, with a view per node made once: a level is written in with one call and
 * each node hashed from its view, no copy per node.
 */
const PAIRS = Buffer.alloc((TILE_WIDTH / 2) * NODE_INPUT_SIZE);
const PAIR_VIEWS = Array.from({ length: TILE_WIDTH / 2 }, (_, i) =>
  PAIRS.subarray(i * NODE_INPUT_SIZE, (i + 1) * NODE_INPUT_SIZE),
);

/**
 * `tile` (256 × 32 bytes) with its 255 interior hashes. Digests travel as 32-character latin1
 * ('binary') strings, one byte per character: a level's node inputs are joined into one string and
 * written into PAIRS at once, and its digests joined into its buffer at once — a rebuild of a
 * million leaves (ledger:verify) hashes a million nodes, and copying each pair in and each digest
 * out cost about as much again as the hash.
 */
function pyramidOf(tile: Buffer): Pyramid {
  const levels: Pyramid = [tile];
  let below = tile.toString('latin1');
  for (let r = 1; r <= TILE_HEIGHT; r += 1) {
    below = levelAbove(below);
    levels.push(Buffer.from(below, 'latin1'));
  }
  return levels;
}

/** One level of a tile's interior: the node hashes over `below`'s pairs, as latin1 strings. */
function levelAbove(below: string): string {
  const count = below.length / (2 * HASH_SIZE);
  const inputs: string[] = new Array<string>(count);
  for (let i = 0; i < count; i += 1)
    inputs[i] = `\x01${below.substring(2 * HASH_SIZE * i, 2 * HASH_SIZE * (i + 1))}`;
  PAIRS.write(inputs.join(''), 0, count * NODE_INPUT_SIZE, 'latin1');
  const digests: string[] = new Array<string>(count);
  for (let i = 0; i < count; i += 1) digests[i] = hash('sha256', PAIR_VIEWS[i]!, 'binary');
  return digests.join('');
}

/** The root of one whole tile given as its 256 leaf hashes in one latin1 string (`levelAbove`). */
function tileRootOfText(tile: string): string {
  let below = tile;
  for (let r = 1; r <= TILE_HEIGHT; r += 1) below = levelAbove(below);
  return below;
}

/**
 * The roots of the whole tiles (256 leaves each) in a run of leaf hashes that starts at a tile
 * boundary, 32 bytes each; a partial tile at the end has none. `ledger:verify`'s threads take them
 * with the leaves they hash (`LeafRun`), so the thread that grows the tree (`appendLeafHashes`)
 * hashes only the levels above: a tile's 255 interior hashes were about a tenth of a pass, all on
 * one thread.
 */
export function tileRootsOf(leaves: Uint8Array): Buffer {
  const tileBytes = TILE_WIDTH * HASH_SIZE;
  const whole = Math.floor(leaves.length / tileBytes);
  const text = Buffer.from(leaves.buffer, leaves.byteOffset, whole * tileBytes).toString('latin1');
  const roots: string[] = new Array<string>(whole);
  for (let t = 0; t < whole; t += 1)
    roots[t] = tileRootOfText(text.substring(t * tileBytes, (t + 1) * tileBytes));
  return Buffer.from(roots.join(''), 'latin1');
}

/**
 * A run of leaf hashes as the chain walk hands them over (`ChainVerifier.pushRow`: 32-character
 * latin1 strings), gathered a tile at a time: each 256 leaves are joined once, written into the
 * run's buffer and — when the run starts at a tile boundary — hashed into their tile's root there
 * and then (`tileRootsOf`'s roots, without reading the leaves back out of the buffer). So no leaf
 * outlives its tile: a run's strings were all kept until its end (10,240 of them in a chunk of
 * `ledger:verify`), outlived the young generation and were promoted, copied and collected again.
 */
export class LeafRun {
  readonly #bytes: Buffer;
  // Filled up front: its first leaf then changes no map (a deoptimization in each thread's first chunk).
  readonly #tile: string[] = new Array<string>(TILE_WIDTH).fill('');
  /** Whole tiles' roots (preallocated, like `#tile`), or null when the run does not start a tile. */
  readonly #roots: string[] | null;
  #rootCount = 0;
  #inTile = 0;
  #length = 0;

  /** Room for `capacity` leaves; `startsTile`: the run's first leaf is a tile's first. */
  constructor(capacity: number, startsTile: boolean) {
    this.#bytes = Buffer.allocUnsafeSlow(capacity * HASH_SIZE);
    this.#roots = startsTile ? new Array<string>(Math.floor(capacity / TILE_WIDTH)).fill('') : null;
  }

  get length(): number {
    return this.#length;
  }

  push(leaf: string): void {
    if (this.#length * HASH_SIZE >= this.#bytes.length) throw new RangeError('the run is full');
    this.#tile[this.#inTile] = leaf;
    this.#inTile += 1;
    this.#length += 1;
    if (this.#inTile === TILE_WIDTH) this.#closeTile();
  }

  #closeTile(): void {
    const whole = this.#inTile === TILE_WIDTH;
    const text = (whole ? this.#tile : this.#tile.slice(0, this.#inTile)).join('');
    this.#bytes.write(text, (this.#length - this.#inTile) * HASH_SIZE, text.length, 'latin1');
    if (whole && this.#roots) {
      this.#roots[this.#rootCount] = tileRootOfText(text);
      this.#rootCount += 1;
    }
    this.#inTile = 0;
  }

  /** The leaves pushed, 32 bytes each (a view of the run's buffer), once the run is complete. */
  leaves(): Buffer {
    if (this.#inTile > 0) this.#closeTile();
    return this.#bytes.subarray(0, this.#length * HASH_SIZE);
  }

  /** The roots of the run's whole tiles (`tileRootsOf`), or null when it does not start a tile. */
  tileRoots(): Buffer | null {
    return this.#roots && Buffer.from(this.#roots.slice(0, this.#rootCount).join(''), 'latin1');
  }
}

function nodeOf(level: Buffer, index: number): Buffer {
  return level.subarray(index * HASH_SIZE, (index + 1) * HASH_SIZE);
}

/** Folds 2^r consecutive hashes into the hash of their complete subtree. */
function fold(hashes: Buffer[]): Buffer {
  let level = hashes;
  while (level.length > 1) {
    const up: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) up.push(nodeHash(level[i]!, level[i + 1]!));
    level = up;
  }
  return level[0]!;
}

/**
 * Tiles kept with their interior hashes (a pyramid: ~16 KiB each), least recently used evicted. An
 * inclusion proof of a leaf whose tile is not kept reads the tile and rehashes its 255 interior
 * nodes (~0.5 ms on the 2-core box); 4,096 pyramids (~64 MiB at most, filled only as proofs and
 * appends ask for them) hold every level-0 tile of a million-event log, so an auditor's receipts
 * over the whole history pay that once per tile. With 512, random proofs at 1M leaves measured p50
 * 0.49 ms, p99 2.8 ms on a slow day; with 4,096, p50 0.32 ms, p99 0.59 ms (issue 16: p99 < 2 ms).
 */
const CACHE_TILES = 4096;

export class TileTree implements HashSource {
  readonly storage: TileStorage;
  #size = 0;
  /** Per tile level: full tiles stored, and the hashes of the partial tile after them. */
  #full: number[] = [];
  #partial: Buffer[][] = [];
  readonly #cache = new Map<string, Pyramid>();
  /** Inside `appendCatchingUp`: the tiles it closes are stored, not kept in `#cache`. */
  #catchingUp = false;

  constructor(storage: TileStorage) {
    this.storage = storage;
    this.#restore();
  }

  get size(): number {
    return this.#size;
  }

  /** Full tiles from storage; the partial tiles above level 0 recomputed from them. */
  #restore(): void {
    const stored: number[] = [];
    for (let level = 0; ; level += 1) {
      const n = this.storage.fullTiles(level);
      if (n === 0) break;
      stored.push(n);
    }
    this.#full = [...stored, 0];
    this.#partial = this.#full.map(() => []);
    for (let level = 0; level < stored.length; level += 1) {
      const from = this.#full[level + 1]! * TILE_WIDTH;
      if (from > stored[level]!)
        throw new Error(`stored tiles disagree: level ${level + 1} covers more than level ${level}`);
      for (let t = from; t < stored[level]!; t += 1)
        this.#partial[level + 1]!.push(this.#pyramid(level, t)[TILE_HEIGHT]!);
    }
    this.#size = this.#full[0]! * TILE_WIDTH;
  }

  /** Appends events in seq order; each must be the next leaf. Returns the tiles that filled. */
  append(events: readonly LeafEvent[]): void {
    const filled: StoredTile[] = [];
    for (const e of events) {
      if (e.seq !== this.#size + 1) throw new Error(`tree at size ${this.#size} cannot append seq ${e.seq}`);
      this.#appendLeaf(eventLeafHash(e), filled);
    }
    if (filled.length > 0) this.storage.saveTiles(filled);
  }

  /**
   * Appends leaves given as their hashes, 32 bytes each, in seq order after the current size
   * (`ledger:verify`, whose chain walk hashed the leaves as it read the rows), with the roots of
   * the run's whole tiles when the walk took those too (`tileRootsOf`). The tree keeps views of
   * `hashes` rather than copies, so they must not change afterwards: `ledger:verify`'s runs are each
   * a buffer of their own (`LeafRun`), handed over whole — copying each tile out of them cost the
   * thread growing the tree a fresh allocation, page faults included, per 256 leaves.
   */
  appendLeafHashes(hashes: Uint8Array, tileRoots?: Uint8Array): void {
    if (hashes.length % 32 !== 0) throw new RangeError('leaf hashes come in 32-byte units');
    const filled: StoredTile[] = [];
    const bytes = Buffer.from(hashes.buffer, hashes.byteOffset, hashes.length);
    const tileBytes = TILE_WIDTH * HASH_SIZE;
    // The roots given (`tileRootsOf`) are those of the run's whole tiles counted from its start:
    // they are this tree's tiles only when the run starts at a tile boundary.
    const roots =
      tileRoots && (this.#partial[0]?.length ?? 0) === 0
        ? Buffer.from(tileRoots.buffer, tileRoots.byteOffset, tileRoots.length)
        : undefined;
    let at = 0;
    // Up to the next tile boundary leaf by leaf; then whole tiles straight from the run's bytes
    // (a view per tile, no copy), with no view per leaf.
    for (; at < bytes.length && (this.#partial[0]?.length ?? 0) > 0; at += 32)
      this.#appendLeaf(bytes.subarray(at, at + 32), filled);
    for (let t = 0; at + tileBytes <= bytes.length; at += tileBytes, t += 1) {
      this.#size += TILE_WIDTH;
      const root =
        roots && roots.length >= (t + 1) * HASH_SIZE
          ? roots.subarray(t * HASH_SIZE, (t + 1) * HASH_SIZE)
          : undefined;
      this.#closeTile(0, bytes.subarray(at, at + tileBytes), filled, root);
    }
    for (; at < bytes.length; at += 32) this.#appendLeaf(bytes.subarray(at, at + 32), filled);
    if (filled.length > 0) this.storage.saveTiles(filled);
  }

  #appendLeaf(hash: Buffer, filled: StoredTile[]): void {
    this.#partial[0] ??= [];
    this.#partial[0].push(hash);
    this.#size += 1;
    if (this.#partial[0].length === TILE_WIDTH) {
      const tile = Buffer.concat(this.#partial[0]);
      this.#partial[0] = [];
      this.#closeTile(0, tile, filled);
    }
  }

  /**
   * Level `level`'s next full tile, `bytes` (its 256 hashes): stored, its root one level up. Its
   * interior levels are computed and remembered unless its `root` is given (`appendLeafHashes`);
   * a node inside it is then computed from the stored tile when asked for.
   */
  #closeTile(level: number, bytes: Buffer, filled: StoredTile[], root?: Buffer): void {
    const index = this.#full[level] ?? 0;
    filled.push({ level, index, hashes: bytes });
    let top = root;
    if (!top) {
      const pyramid = pyramidOf(bytes);
      if (!this.#catchingUp) this.#remember(level, index, pyramid);
      top = pyramid[TILE_HEIGHT]!;
    }
    this.#full[level] = index + 1;
    this.#full[level + 1] ??= 0;
    const up = (this.#partial[level + 1] ??= []);
    up.push(top);
    if (up.length === TILE_WIDTH) {
      this.#partial[level + 1] = [];
      this.#closeTile(level + 1, Buffer.concat(up), filled);
    }
  }

  #remember(level: number, index: number, pyramid: Pyramid): void {
    const key = `${level}/${index}`;
    this.#cache.delete(key);
    this.#cache.set(key, pyramid);
    if (this.#cache.size > CACHE_TILES) this.#cache.delete(this.#cache.keys().next().value!);
  }

  #pyramid(level: number, index: number): Pyramid {
    const key = `${level}/${index}`;
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const bytes = this.storage.loadTile(level, index);
    if (!bytes || bytes.length !== TILE_WIDTH * 32) throw new Error(`tile ${key} is missing from storage`);
    const pyramid = pyramidOf(bytes);
    this.#remember(level, index, pyramid);
    return pyramid;
  }

  /** The hash of the complete subtree of height `level` at `index` (HashSource). */
  node(level: number, index: number): Buffer {
    const tileLevel = Math.floor(level / TILE_HEIGHT);
    const r = level % TILE_HEIGHT;
    const first = index * 2 ** r;
    const tile = Math.floor(first / TILE_WIDTH);
    if (tile < (this.#full[tileLevel] ?? 0)) {
      return nodeOf(this.#pyramid(tileLevel, tile)[r]!, (first - tile * TILE_WIDTH) / 2 ** r);
    }
    const partial = this.#partial[tileLevel] ?? [];
    const offset = first - tile * TILE_WIDTH;
    const run = partial.slice(offset, offset + 2 ** r);
    if (tile !== (this.#full[tileLevel] ?? 0) || run.length !== 2 ** r)
      throw new RangeError(`node ${level}/${index} is not in a tree of size ${this.#size}`);
    return fold(run);
  }

  root(size = this.#size): Buffer {
    if (size > this.#size) throw new RangeError(`no root for size ${size}: the tree has ${this.#size}`);
    return rangeRoot(this, 0, size);
  }

  leafHash(index: number): Buffer {
    return this.node(0, index);
  }

  inclusionProof(index: number, size = this.#size): Buffer[] {
    if (size > this.#size) throw new RangeError(`tree has ${this.#size} leaves, not ${size}`);
    return inclusionProof(this, index, size);
  }

  consistencyProof(from: number, to = this.#size): Buffer[] {
    if (to > this.#size) throw new RangeError(`tree has ${this.#size} leaves, not ${to}`);
    return consistencyProof(this, from, to);
  }

  /** The first `width` hashes of tile `index` at tile level `level`, or null while it is narrower. */
  tile(level: number, index: number, width: number): Buffer | null {
    const full = this.#full[level] ?? 0;
    if (index < full) {
      // A full tile is stored as these very bytes: read it rather than rebuild its interior levels.
      const cached = this.#cache.get(`${level}/${index}`);
      const bytes = cached ? Buffer.from(cached[0]!) : this.storage.loadTile(level, index);
      if (!bytes || bytes.length !== TILE_WIDTH * 32)
        throw new Error(`tile ${level}/${index} is missing from storage`);
      return width >= TILE_WIDTH ? bytes : bytes.subarray(0, width * 32);
    }
    if (index !== full) return null;
    const partial = this.#partial[level] ?? [];
    if (width >= TILE_WIDTH || partial.length < width) return null;
    return Buffer.concat(partial.slice(0, width));
  }

  /** Tiles whose interior hashes are kept for proofs (at most CACHE_TILES). */
  get cachedTiles(): number {
    return this.#cache.size;
  }

  /**
   * Appends a long run of the ledger's events (`catchUpTree`) without keeping the pyramid of each
   * tile it closes: a node's first start on a ledger with no stored tiles (or after
   * `projections:rebuild`) built the whole tree this way and kept 4,096 pyramids — 88 MB of a
   * 1M-event node's RSS at ready — that no proof had asked for. Proofs load them as they need them.
   */
  appendCatchingUp(events: readonly LeafEvent[]): void {
    this.#catchingUp = true;
    try {
      this.append(events);
    } finally {
      this.#catchingUp = false;
    }
  }

  /** Forgets everything and starts empty (projections:rebuild, then append the ledger again). */
  reset(): void {
    this.storage.clearTiles();
    this.#cache.clear();
    this.#restore();
  }
}

/** Appends to the tree whatever the ledger holds beyond it (start, other writers, rebuilds). */
export async function catchUpTree(
  tree: TileTree,
  store: { readRecords(from: number, limit: number): Promise<LeafEvent[]> },
  pageSize = 5000,
): Promise<void> {
  for (;;) {
    const page = await store.readRecords(tree.size + 1, pageSize);
    const fresh = page.filter((e) => e.seq > tree.size);
    if (fresh.length === 0) return;
    tree.appendCatchingUp(fresh);
    if (page.length < pageSize) return;
  }
}
