/**
 * Generated ledgers are cached under the OS temp dir (a million events take a couple of minutes
 * to generate and ~1 GB on disk), keyed by generator version, seed and size, with a manifest that
 * records the head hash. Measurements that write work on a copy, never on the cached file.
 */
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
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

/** A scratch DATA_DIR holding a copy of the dataset's ledger, secrets and account vault (for runs that write). */
export function copyOf(ds: Dataset, label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `plumbline-bench-${label}-`));
  // The WAL too when there is one: without it a copy could miss committed pages.
  for (const file of ['ledger.db', 'ledger.db-wal', 'secrets.json']) {
    if (existsSync(join(ds.dataDir, file))) copyFileSync(join(ds.dataDir, file), join(dir, file));
  }
  // The account vault: without it every registered account reads erased and no payment can be built.
  const vault = join(ds.dataDir, 'vault');
  if (existsSync(vault)) cpSync(vault, join(dir, 'vault'), { recursive: true });
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
