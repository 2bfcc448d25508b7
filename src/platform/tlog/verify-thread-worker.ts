/**
 * The background verifier's thread (`verify-thread.ts`): opens the ledger file through a
 * connection of its own, walks the stretch it was given (`verifyPrefix`), posts the stored head it
 * verified through (or null) and ends. It runs at a lower priority than the service's thread
 * (nice +10, this thread only: Linux applies setpriority to the calling thread), so on a busy
 * machine requests keep the CPU and the pass takes longer.
 */
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteEventStore } from '../event-store/sqlite.js';
import type { LedgerHead } from '../ledger/envelope.js';
import { SqliteTileStorage } from './sqlite-tiles.js';
import { verifyPrefix } from './verify-prefix.js';

export interface VerifyThreadTask {
  path: string;
  from: LedgerHead;
  to: number;
}

export interface VerifyThreadAnswer {
  through: LedgerHead | null;
}

const BACKGROUND_NICE = 10;

try {
  setPriority(BACKGROUND_NICE);
} catch {
  // Not permitted here (a container without the capability is still allowed to lower it; if
  // even that is refused, the pass runs at the service's priority).
}
const { path, from, to } = (workerData as { data: VerifyThreadTask }).data;
// Opening creates a missing file: a ledger gone from its path is declined, not made anew.
if (!existsSync(path)) {
  parentPort!.postMessage({ through: null } satisfies VerifyThreadAnswer);
  process.exit(0);
}
const store = SqliteEventStore.open(path);
try {
  const row = store.database.prepare<[number], LedgerHead>('SELECT seq, hash FROM events WHERE seq = ?');
  const source = {
    readRows: (next: number, limit: number) => store.readRows(next, limit),
    readPacked: (first: number, last: number) => store.readPacked(first, last),
    stored: (seq: number) => row.get(seq),
  };
  const through = verifyPrefix(source, new SqliteTileStorage(store.database), from, to);
  parentPort!.postMessage({ through } satisfies VerifyThreadAnswer);
} finally {
  await store.close();
}
