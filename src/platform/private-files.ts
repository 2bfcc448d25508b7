/**
 * Files only the service's own user may read (issue 13 item 8, OWASP API8): the data directory is
 * 0700 and the ledger, its WAL and shared-memory files, the other SQLite files and the secrets file
 * are 0600, whatever the umask. A database file is created 0600 before SQLite opens it, because
 * SQLite gives the -wal and -shm files it creates later the main file's mode; files left 0644 by an
 * older version are tightened on the next start.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

function tighten(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch (error) {
    // A directory the service does not own (e.g. a mounted volume) keeps its mode; files inside
    // stay private on their own.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}

/** Creates `dir` (and parents) 0700, or tightens it to 0700 when it exists. */
export function ensurePrivateDir(dir: string): void {
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir, PRIVATE_DIR_MODE);
}

/**
 * Before SQLite opens `path`: its directory private, the file created 0600 (or tightened), and any
 * -wal/-shm/-journal beside it tightened too.
 */
export function preparePrivateDatabase(path: string): void {
  if (path === ':memory:') return;
  ensurePrivateDir(dirname(path));
  if (!existsSync(path)) closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`])
    if (existsSync(file)) tighten(file, PRIVATE_FILE_MODE);
}
