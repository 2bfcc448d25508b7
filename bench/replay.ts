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
const runtime = new ProjectionRuntime(store, allProjections(), snapshots, systemClock, { snapshotEvery: 0 });
const started = performance.now();
await runtime.start();
const replayMs = performance.now() - started;
const rssAfterReplay = process.memoryUsage().rss;
// Peak of the replay itself; serializing snapshots (below) briefly holds a second copy as JSON.
const peakReplay = process.resourceUsage().maxRSS * 1024;
let saveMs = 0;
let snapshotBytes = 0;
if (flag === '--save') {
  const t = performance.now();
  runtime.saveSnapshots();
  saveMs = performance.now() - t;
  for (const name of runtime.names()) snapshotBytes += snapshots.load(name)?.state.length ?? 0;
}
await store.close();
process.stdout.write(
  `${JSON.stringify({
    events: runtime.position,
    replay_seconds: replayMs / 1000,
    events_per_second: Math.round((runtime.position * 1000) / replayMs),
    rss_bytes: rssAfterReplay,
    max_rss_bytes: peakReplay,
    max_rss_with_save_bytes: process.resourceUsage().maxRSS * 1024,
    heap_used_bytes: process.memoryUsage().heapUsed,
    save_seconds: saveMs / 1000,
    snapshot_bytes: snapshotBytes,
  })}\n`,
);
process.exit(0);
