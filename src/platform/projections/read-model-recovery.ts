/**
 * Opening the node's read-model file when it may be damaged (ARCHITECTURE §5). The file holds only
 * what folding the ledger gives, so a file SQLite cannot read (truncated, overwritten, not a
 * database) never stops a start, and one that lost a table its checkpoints rely on is never
 * served: either is set aside (`read-models.db.damaged-<time>`, with its -wal and -shm, kept for
 * a post-mortem) and the read models are rebuilt from the ledger. A file another live process
 * keeps is never touched (`ReadModelFileBusy`, as `ReadModelFile.own`).
 */
import { existsSync, renameSync } from 'node:fs';
import Database from 'better-sqlite3';
import { liveOwnerOf, ReadModelFile, ReadModelFileBusy } from './read-model-file.js';

/** The tables a read-model file of the current layout has beside `rm_projections` (its checkpoints). */
const DATA_TABLES = ['rm_records', 'rm_digests', 'rm_digest_sets'] as const;

/** An error of SQLite's saying the file is not a readable database (as opposed to busy, full…). */
export function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/**
 * What is wrong with the read-model file at `path`, or null when nothing is seen (no file, a new
 * one, or one whose tables are all there). Read-only: safe while another process keeps the file.
 */
export function readModelDamage(path: string): string | null {
  if (!existsSync(path)) return null;
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
 * Moves the file (and its -wal and -shm) to `<path>.damaged-<time>`, unless another live process
 * keeps it (ReadModelFileBusy). Answers where it went.
 */
export function setAsideReadModels(path: string, now: Date = new Date()): string {
  const owner = liveOwnerOf(path);
  if (owner !== null) throw new ReadModelFileBusy(path, owner);
  const aside = `${path}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', '-wal', '-shm'])
    if (existsSync(`${path}${suffix}`)) renameSync(`${path}${suffix}`, `${aside}${suffix}`);
  return aside;
}

/** Told when a damaged file was set aside: why, and where it now is. */
export type OnDamaged = (damage: { path: string; reason: string; set_aside_to: string }) => void;

/**
 * `ReadModelFile.own`, except that a damaged file (see `readModelDamage`, or one SQLite finds
 * corrupt while opening) is set aside and a new one opened, which the runtime then fills from the
 * ledger.
 */
export function ownReadModels(
  path: string,
  opts: { cacheRecords?: number; onDamaged?: OnDamaged } = {},
): ReadModelFile {
  const own = () =>
    ReadModelFile.own(path, opts.cacheRecords !== undefined ? { cacheRecords: opts.cacheRecords } : {});
  const setAside = (reason: string) => {
    const aside = setAsideReadModels(path);
    opts.onDamaged?.({ path, reason, set_aside_to: aside });
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
