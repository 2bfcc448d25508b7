/**
 * Opening the node's read-model file when it may be damaged (ARCHITECTURE §5). The file holds only
 * what folding the ledger gives, so a file SQLite cannot read (truncated, overwritten, not a
 * database) never stops a start, and one that lost a table its checkpoints rely on, or that a node
 * found damaged while serving (its `.damage` marker), is never served again: either is set aside
 * (`read-models.db.damaged-<time>`, with its -wal, -shm and marker, kept for a post-mortem) and the
 * read models are rebuilt from the ledger. A file another live process keeps is never touched
 * (`ReadModelFileBusy`, as `ReadModelFile.own`).
 */
import { existsSync, renameSync } from 'node:fs';
import Database from 'better-sqlite3';
import { isCorruption, markedDamage, type ReadModelDamage } from './read-model-damage.js';
import { liveOwnerOf, ReadModelFile, ReadModelFileBusy } from './read-model-file.js';

export { isCorruption } from './read-model-damage.js';

/** The tables a read-model file of the current layout has beside `rm_projections` (its checkpoints). */
const DATA_TABLES = ['rm_records', 'rm_digests', 'rm_digest_sets'] as const;

/**
 * What is wrong with the read-model file at `path`, or null when nothing is seen (no file, a new
 * one, or one whose tables are all there and that no node found damaged). Read-only: safe while
 * another process keeps the file. Reads no data page: damage there is met while serving.
 */
export function readModelDamage(path: string): string | null {
  if (!existsSync(path)) return null;
  const marked = markedDamage(path);
  if (marked !== null)
    return `found damaged while serving at ${marked.detected_at} (${marked.code}: ${marked.reason})`;
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const tables = new Set(
      db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all(),
    );
    if (!tables.has('rm_projections')) return null;
    const stored = db.prepare<[], number>('SELECT COUNT(*) FROM rm_projections').pluck().get() ?? 0;
    if (stored === 0) return null;
    // Checkpoints without the records they describe: opened as it is, the missing table would be
    // created empty and every read model served empty at those checkpoints (no key, no project).
    const missing = DATA_TABLES.filter((t) => !tables.has(t));
    return missing.length > 0 ? `checkpoints stored without the table(s) ${missing.join(', ')}` : null;
  } catch (error) {
    if (isCorruption(error)) return (error as Error).message;
    throw error;
  } finally {
    db?.close();
  }
}

/**
 * Moves the file (and its -wal, -shm and damage marker) to `<path>.damaged-<time>`, unless another
 * live process keeps it (ReadModelFileBusy). Answers where it went.
 */
export function setAsideReadModels(path: string, now: Date = new Date()): string {
  const owner = liveOwnerOf(path);
  if (owner !== null) throw new ReadModelFileBusy(path, owner);
  const aside = `${path}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', '-wal', '-shm', '.damage'])
    if (existsSync(`${path}${suffix}`)) renameSync(`${path}${suffix}`, `${aside}${suffix}`);
  return aside;
}

/** Told when a damaged file was set aside: why, and where it now is. */
export type OnSetAside = (damage: { path: string; reason: string; set_aside_to: string }) => void;

export interface RecoveryOptions {
  cacheRecords?: number;
  /** Told when a damaged file was set aside (a new one is then filled from the ledger). */
  onSetAside?: OnSetAside;
  /** Told once when SQLite finds the opened file damaged while it is used (`ReadModelFile.damage`). */
  onDamage?: (damage: ReadModelDamage) => void;
}

/**
 * `ReadModelFile.own`, except that a damaged file (see `readModelDamage`, or one SQLite finds
 * corrupt while opening) is set aside and a new one opened, which the runtime then fills from the
 * ledger.
 */
export function ownReadModels(path: string, opts: RecoveryOptions = {}): ReadModelFile {
  const own = () =>
    ReadModelFile.own(path, {
      ...(opts.cacheRecords !== undefined ? { cacheRecords: opts.cacheRecords } : {}),
      ...(opts.onDamage ? { onDamage: opts.onDamage } : {}),
    });
  const setAside = (reason: string) => {
    const aside = setAsideReadModels(path);
    opts.onSetAside?.({ path, reason, set_aside_to: aside });
  };
  if (path !== ':memory:') {
    const damage = readModelDamage(path);
    if (damage !== null) setAside(damage);
  }
  try {
    return own();
  } catch (error) {
    if (!isCorruption(error) || path === ':memory:') throw error;
    setAside((error as Error).message);
    return own();
  }
}

/**
 * Opens the file (`ownReadModels`) and runs `fill` on it (a runtime's start, or a rebuild). When
 * SQLite finds the file damaged on the way (a data page no check at open reads), the file is closed
 * and set aside, and `fill` runs again on a new one. Answers the file and what `fill` gave.
 */
export async function fillReadModels<T>(
  path: string,
  opts: RecoveryOptions,
  fill: (file: ReadModelFile) => Promise<T>,
): Promise<{ file: ReadModelFile; filled: T }> {
  const file = ownReadModels(path, opts);
  try {
    return { file, filled: await fill(file) };
  } catch (error) {
    file.close();
    if (!isCorruption(error) || path === ':memory:') throw error;
    const aside = setAsideReadModels(path);
    opts.onSetAside?.({ path, reason: (error as Error).message, set_aside_to: aside });
    const fresh = ownReadModels(path, opts);
    try {
      return { file: fresh, filled: await fill(fresh) };
    } catch (again) {
      fresh.close();
      throw again;
    }
  }
}
