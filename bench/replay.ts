/**
 * Child process: replays a ledger into every projection (`allProjections()`, the server's set)
 * from seq 1, as the server keeps them: onto a fresh read-model file in DATA_DIR (a copy), or with
 * `--heap` in the heap alone (the form before issue 19, for comparison). Prints one JSON line:
 * wall time, the CPU time this process spent on it, RSS after it and the process's peak RSS.
 *
 *   node --import tsx bench/replay.ts <DATA_DIR> [--heap]
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { allProjections } from '../projections/index.js';
import { systemClock } from '../src/platform/clock.js';
import { SqliteEventStore } from '../src/platform/event-store/sqlite.js';
import { MemorySnapshotStore, ProjectionRuntime, ReadModelFile } from '../src/platform/projections/index.js';

const [dataDir, mode] = process.argv.slice(2);
const store = SqliteEventStore.open(join(dataDir!, 'ledger.db'));
const path = join(dataDir!, 'read-models.db');
for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
const disk = mode === '--heap' ? null : ReadModelFile.own(path);
const runtime = new ProjectionRuntime(store, allProjections(), new MemorySnapshotStore(), systemClock, {
  snapshotEvery: 0,
  ...(disk ? { disk } : {}),
  ...(process.env.PAGE_SIZE ? { pageSize: Number(process.env.PAGE_SIZE) } : {}),
  ...(process.env.FLUSH_EVERY ? { flushEvery: Number(process.env.FLUSH_EVERY) } : {}),
  ...(process.env.FLUSH_RECORDS ? { flushRecords: Number(process.env.FLUSH_RECORDS) } : {}),
});
const started = performance.now();
const cpuBefore = process.cpuUsage();
await runtime.start();
const replayMs = performance.now() - started;
// CPU time (this process, all threads) beside wall time: on a shared machine it moves less.
const cpu = process.cpuUsage(cpuBefore);
const rssAfterReplay = process.memoryUsage().rss;
const stats = disk ? { ...disk.stats } : null;
disk?.close();
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
    // What the flushes wrote: records, their JSON's length, and how many flushes.
    ...(stats ? { flushes: stats.flushes, records_written: stats.writes, json_bytes: stats.bytes } : {}),
  })}\n`,
);
process.exit(0);
