/**
 * Checks the stored Merkle tree against the ledger it was built from, and signed checkpoints
 * against both (ledger:verify). The tree is rebuilt in memory from the ledger's link fields; every
 * stored tile must be the rebuilt one, no stored tile may cover leaves the ledger lacks, and a
 * checkpoint's root must be the rebuilt tree's root at its size — a checkpoint larger than the
 * ledger means events were cut off after it was signed.
 */
import type { VerifyIssue } from '../ledger/verify.js';
import type { Checkpoint } from './checkpoint.js';
import { MemoryTileStorage } from './sqlite-tiles.js';
import { TILE_WIDTH } from './tiles.js';
import { TileTree, type LeafEvent, type TileStorage } from './tree.js';

export interface TreeVerification {
  ok: boolean;
  /** Leaves rebuilt from the ledger. */
  size: number;
  root: Buffer;
  issues: VerifyIssue[];
}

export async function verifyTree(
  source: { readRecords(from: number, limit: number): Promise<LeafEvent[]> },
  stored: TileStorage,
  checkpoints: { label: string; checkpoint: Checkpoint }[] = [],
  opts: { pageSize?: number; onProgress?: (n: number) => void } = {},
): Promise<TreeVerification> {
  const rebuilt = new TileTree(new MemoryTileStorage());
  const pageSize = opts.pageSize ?? 1000;
  for (;;) {
    const page = await source.readRecords(rebuilt.size + 1, pageSize);
    const next = page.filter((e, i) => e.seq === rebuilt.size + 1 + i);
    if (next.length === 0) break;
    rebuilt.append(next);
    opts.onProgress?.(rebuilt.size);
    if (page.length < pageSize || next.length < page.length) break;
  }
  return checkTree(rebuilt, stored, checkpoints);
}

/**
 * The tree rebuilt from leaf hashes the caller already has (ledger:verify's chain walk hashes each
 * event's leaf as it reads the row, so the ledger is not read twice). Runs of leaves may arrive out
 * of order, as the walk's chunks finish on different threads; each is added once every run before
 * it is in, so the tree grows while the walk goes on.
 */
export class TreeOfLeaves {
  readonly #tree = new TileTree(new MemoryTileStorage());
  readonly #waiting = new Map<number, { leaves: Uint8Array; tileRoots?: Uint8Array }>();
  #next = 0;

  /**
   * Run `index` (0, 1, 2, …) of leaf hashes, 32 bytes each, leaves in seq order within it, and
   * optionally the roots of its whole tiles (`tileRootsOf`, used when the run starts at a tile
   * boundary). The tree keeps the run's bytes as they are (`appendLeafHashes`): not to be changed.
   */
  add(index: number, leaves: Uint8Array, tileRoots?: Uint8Array): void {
    this.#waiting.set(index, tileRoots ? { leaves, tileRoots } : { leaves });
    for (let run = this.#waiting.get(this.#next); run; run = this.#waiting.get(this.#next)) {
      this.#waiting.delete(this.#next);
      this.#tree.appendLeafHashes(run.leaves, run.tileRoots);
      this.#next += 1;
    }
  }

  /** Whether runs 0 … count − 1 are all in. */
  has(count: number): boolean {
    return this.#next === count && this.#waiting.size === 0;
  }

  /** `verifyTree`'s checks against this tree. */
  verify(
    stored: TileStorage,
    checkpoints: { label: string; checkpoint: Checkpoint }[] = [],
  ): TreeVerification {
    return checkTree(this.#tree, stored, checkpoints);
  }
}

/** Every stored tile and every checkpoint against the tree rebuilt from the ledger. */
function checkTree(
  rebuilt: TileTree,
  stored: TileStorage,
  checkpoints: { label: string; checkpoint: Checkpoint }[],
): TreeVerification {
  const issues: VerifyIssue[] = [];
  for (let level = 0; ; level += 1) {
    const count = stored.fullTiles(level);
    if (count === 0) break;
    for (let t = 0; t < count; t += 1) {
      const want = rebuilt.tile(level, t, TILE_WIDTH);
      const have = stored.loadTile(level, t);
      const firstLeaf = t * TILE_WIDTH * TILE_WIDTH ** level;
      if (!want) {
        issues.push({
          code: 'truncated',
          seq: rebuilt.size + 1,
          expected: `ledger ≥ ${firstLeaf + TILE_WIDTH ** (level + 1)} events (stored tile ${level}/${t})`,
          actual: `ledger ${rebuilt.size}`,
        });
        break;
      }
      if (!have || !have.equals(want)) {
        issues.push({
          code: 'tree_mismatch',
          seq: firstLeaf + 1 + firstDifference(have, want) * TILE_WIDTH ** level,
          expected: `stored tile ${level}/${t} = the tree of the ledger's events`,
          actual: have ? 'a different tile' : 'tile missing',
        });
        break;
      }
    }
    if (issues.length > 0) break;
  }
  for (const { label, checkpoint } of checkpoints) {
    if (checkpoint.size > rebuilt.size) {
      issues.push({
        code: 'truncated',
        seq: rebuilt.size + 1,
        expected: `ledger ≥ ${checkpoint.size} events (${label})`,
        actual: `ledger ${rebuilt.size}`,
      });
    } else if (!rebuilt.root(checkpoint.size).equals(checkpoint.root)) {
      issues.push({
        code: 'checkpoint_mismatch',
        seq: checkpoint.size,
        expected: `root ${checkpoint.root.toString('base64')} at size ${checkpoint.size} (${label})`,
        actual: `root ${rebuilt.root(checkpoint.size).toString('base64')} from the ledger`,
      });
    }
  }
  return { ok: issues.length === 0, size: rebuilt.size, root: rebuilt.root(), issues };
}

/** Index of the first differing 32-byte hash of two tiles (0 when one is missing). */
function firstDifference(a: Buffer | undefined, b: Buffer): number {
  if (!a) return 0;
  for (let i = 0; i < TILE_WIDTH; i += 1) {
    if (!a.subarray(i * 32, i * 32 + 32).equals(b.subarray(i * 32, i * 32 + 32))) return i;
  }
  return 0;
}
