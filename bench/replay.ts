/**
 * Child process: replays a ledger into every projection (`allProjections()`, the server's set)
 * from seq 1 in a fresh heap, with nothing persisted to start from (an in-memory snapshot store,
 * so the measurement does not depend on how the server persists its read models). Prints one JSON
 * line: wall time, the CPU time this process spent on it, RSS after it and the process's peak RSS.
 *
 *   node --import tsx bench/replay.ts <DATA_DIR>
 */
import { join } from 'node:path';
import { allProjections } from '../projections/index.js';
import { systemClock } from '../src/platform/clock.js';
import { SqliteEventStore } from '../src/platform/event-store/sqlite.js';
import { MemorySnapshotStore, ProjectionRuntime } from '../src/platform/projections/runtime.js';

const [dataDir] = process.argv.slice(2);
const store = SqliteEventStore.open(join(dataDir!, 'ledger.db'));
const runtime = new ProjectionRuntime(store, allProjections(), new MemorySnapshotStore(), systemClock, {
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
// The process's peak so far: module loading, then the replay (nothing else has run).
const peakReplay = process.resourceUsage().maxRSS * 1024;
await store.close();
process.stdout.write(
  `${JSON.stringify({
    events: runtime.position,
    replay_seconds: replayMs / 1000,
    replay_cpu_seconds: (cpu.user + cpu.system) / 1e6,
    events_per_second: Math.round((runtime.position * 1000) / replayMs),
    rss_bytes: rssAfterReplay,
    max_rss_bytes: peakReplay,
    heap_used_bytes: process.memoryUsage().heapUsed,
  })}\n`,
);
process.exit(0);
