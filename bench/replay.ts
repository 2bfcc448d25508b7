/**
 * Child process: replays a ledger into every projection (`allProjections()`, the server's set)
 * from seq 1 in a fresh heap, timing the fold alone, then (with --save) persists the snapshots the
 * way the server does, timed separately. Prints one JSON line.
 *
 *   node --import tsx bench/replay.ts <DATA_DIR> [--save]
 */
import { join } from 'node:path';
import { allProjections } from '../projections/index.js';
import { systemClock } from '../src/platform/clock.js';
import { SqliteEventStore, SqliteSnapshotStore } from '../src/platform/event-store/sqlite.js';
import { ProjectionRuntime } from '../src/platform/projections/runtime.js';

const [dataDir, flag] = process.argv.slice(2);
const store = SqliteEventStore.open(join(dataDir!, 'ledger.db'));
const snapshots = new SqliteSnapshotStore(store);
snapshots.clear();
const runtime = new ProjectionRuntime(store, allProjections(), snapshots, systemClock, {
  snapshotEvery: 0,
  ...(process.env.PAGE_SIZE ? { pageSize: Number(process.env.PAGE_SIZE) } : {}),
});
const started = performance.now();
const cpuBefore = process.cpuUsage();
await runtime.start();
const replayMs = performance.now() - started;
// CPU time (this process, all threads) beside wall time: on a shared machine it moves less.
const cpu = process.cpuUsage(cpuBefore);
const rssAfterReplay = process.memoryUsage().rss;
// Peak of the replay itself; snapshots (below) are then written one projection at a time, in parts.
const peakReplay = process.resourceUsage().maxRSS * 1024;
let saveMs = 0;
let snapshotBytes = 0;
let peakWithSave = peakReplay;
if (flag === '--save') {
  const t = performance.now();
  runtime.saveSnapshots();
  saveMs = performance.now() - t;
  peakWithSave = process.resourceUsage().maxRSS * 1024;
  // Sized in SQL: loading them back would add their bytes to this process's peak.
  snapshotBytes = store.database
    .prepare<[], number>(
      `SELECT (SELECT COALESCE(SUM(LENGTH(state)), 0) FROM projection_snapshots) +
              (SELECT COALESCE(SUM(LENGTH(bytes)), 0) FROM projection_snapshot_parts)`,
    )
    .pluck(true)
    .get()!;
}
await store.close();
process.stdout.write(
  `${JSON.stringify({
    events: runtime.position,
    replay_seconds: replayMs / 1000,
    replay_cpu_seconds: (cpu.user + cpu.system) / 1e6,
    events_per_second: Math.round((runtime.position * 1000) / replayMs),
    rss_bytes: rssAfterReplay,
    max_rss_bytes: peakReplay,
    max_rss_with_save_bytes: peakWithSave,
    heap_used_bytes: process.memoryUsage().heapUsed,
    save_seconds: saveMs / 1000,
    snapshot_bytes: snapshotBytes,
  })}\n`,
);
process.exit(0);
