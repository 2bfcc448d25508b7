/**
 * Generated ledgers are cached under the OS temp dir (a million events take a couple of minutes
 * to generate and ~1 GB on disk), keyed by generator version, seed and size, with a manifest that
 * records the head hash. Measurements that write work on a copy, never on the cached file.
 */
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDataset, GENERATOR_VERSION, type GeneratedDataset } from './generate.js';

export const BENCH_SEED = 'plumbline-bench-1';

export interface Dataset extends GeneratedDataset {
  dataDir: string;
  /** Whether this run generated it (false: read from the cache). */
  generated: boolean;
}

export function cacheRoot(): string {
  return join(tmpdir(), 'plumbline-bench');
}

/** The cached dataset of `events` events, generating it first when absent (or `fresh`). */
export async function dataset(
  events: number,
  opts: { seed?: string; fresh?: boolean; onProgress?: (done: number) => void } = {},
): Promise<Dataset> {
  const seed = opts.seed ?? BENCH_SEED;
  const dataDir = join(cacheRoot(), `v${GENERATOR_VERSION}-${seed}-${events}`);
  const manifest = join(dataDir, 'manifest.json');
  if (!opts.fresh && existsSync(manifest)) {
    const stored = JSON.parse(readFileSync(manifest, 'utf8')) as GeneratedDataset;
    return { ...stored, dataDir, generated: false };
  }
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const made = await generateDataset({
    dataDir,
    events,
    seed,
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
  writeFileSync(manifest, `${JSON.stringify(made, null, 2)}\n`);
  return { ...made, dataDir, generated: true };
}

/**
 * A scratch DATA_DIR holding a copy of everything in the dataset's dir: the ledger (and its WAL,
 * without which a copy could miss committed pages), secrets, the account vault, and whatever a
 * server version keeps beside them (read-model files) — no fixed list to fall behind. The manifest
 * is the cache's own and stays behind.
 */
export function copyOf(ds: Dataset, label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `plumbline-bench-${label}-`));
  for (const name of readdirSync(ds.dataDir)) {
    if (name === 'manifest.json') continue;
    cpSync(join(ds.dataDir, name), join(dir, name), { recursive: true });
  }
  return dir;
}

/** Total bytes of the regular files under `dir` (what a server keeps on disk). */
export function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += lstatSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
