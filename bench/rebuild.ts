/**
 * rebuild (SPEC §12, ISSUE 19): projection replay at each size — events/s (target ≥ 150k/s), the
 * CPU-seconds the replaying child spent, its peak RSS (target < 512 MiB at 1M) — and start-to-ready
 * of the real server as the production image starts it (`node dist/src/main.js`, built here first;
 * process spawn → first `/readyz` 200) with its RSS at ready, from the state a previous run of the
 * server left behind. (Under `tsx` a start also compiles the TypeScript it loads: ~3 s here with an
 * empty ledger, which is the compiler's cost, not the read models'.)
 *
 * Nothing here knows how the server persists its read models: the startup measurement copies the
 * whole data dir, starts the server once, stops it with SIGTERM (so it persists whatever it
 * persists, wherever in DATA_DIR), and times a second start on what is left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { childFlags, freePort, lastJson, REPO_ROOT, runTs } from './lib/child.js';
import { copyOf, dirBytes, removeDir, type Dataset } from './lib/datasets.js';

export interface ReplayMeasurement {
  events: number;
  events_per_second: number;
  replay_seconds: number;
  /** User + system CPU time of the replaying child during the replay. */
  replay_cpu_seconds: number;
  /** RSS right after the replay. */
  rss_bytes: number;
  /** The replaying child's peak RSS (getrusage maxrss). */
  max_rss_bytes: number;
  heap_used_bytes: number;
}

/** Replays a copy of the dataset in a child (opening the store may write; the cache is never written). */
export async function measureReplay(ds: Dataset): Promise<ReplayMeasurement> {
  const dataDir = copyOf(ds, 'replay');
  try {
    const run = await runTs('bench/replay.ts', [dataDir]);
    if (run.code !== 0) throw new Error(`replay failed (exit ${run.code}):\n${run.stderr}`);
    return lastJson<ReplayMeasurement>(run, 'replay');
  } finally {
    removeDir(dataDir);
  }
}

export interface StartupMeasurement {
  events: number;
  /** The measured start: spawn → first /readyz 200, on the state the first run left. */
  ready_ms: number;
  /** RSS of the server the moment /readyz first answered 200 (second start). */
  rss_bytes: number;
  /** The first start on the copy (whatever the dataset holds: usually a full replay). */
  first_ready_ms: number;
  first_rss_bytes: number;
  /** SIGTERM → exit of the first run (where a server persists its read models at shutdown). */
  first_stop_ms: number;
  /** Growth of the data dir over the first run (what it persisted, WAL included). */
  persisted_bytes: number;
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb === undefined ? 0 : Number(kb) * 1024;
}

interface Started {
  child: ChildProcess;
  ready_ms: number;
  rss_bytes: number;
}

/** Spawns the real entry on `dataDir` and polls /readyz until it answers 200. */
async function startServer(dataDir: string): Promise<Started> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...childFlags, 'dist/src/main.js'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-10_000)));
  try {
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`server exited ${child.exitCode} before ready:\n${stderr}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`)
        .then((r) => r.status === 200)
        .catch(() => false);
      if (ok) {
        const ready_ms = Math.round(performance.now() - started);
        return { child, ready_ms, rss_bytes: rssOf(child.pid!) };
      }
      if (performance.now() - started > 300_000) throw new Error(`server not ready after 300 s:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } catch (error) {
    await stopServer(child);
    throw error;
  }
}

/** SIGTERM, then the time until the process has exited (its shutdown work included). */
async function stopServer(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null || child.signalCode !== null) return 0;
  const t = performance.now();
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const [code] = (await exited) as [number | null];
  if (code !== 0) throw new Error(`server exited ${code} after SIGTERM`);
  return Math.round(performance.now() - t);
}

/**
 * Start-to-ready on a copy of the dataset (the server may append and persist): a first run brings
 * the copy to the state a stopped server leaves, the second start is the measurement.
 */
let built = false;

/** `npm run build` once per bench run (emit only: the startup row needs today's dist/, not a type check). */
async function buildOnce(): Promise<void> {
  if (built) return;
  const run = await runTs('scripts/build.ts', ['--no-typecheck']);
  if (run.code !== 0) throw new Error(`build failed (exit ${run.code}):\n${run.stderr}`);
  built = true;
}

export async function measureStartup(ds: Dataset): Promise<StartupMeasurement> {
  await buildOnce();
  const dataDir = copyOf(ds, 'startup');
  try {
    const before = dirBytes(dataDir);
    const first = await startServer(dataDir);
    const firstStopMs = await stopServer(first.child);
    const persisted = dirBytes(dataDir) - before;
    const second = await startServer(dataDir);
    await stopServer(second.child);
    return {
      events: ds.events,
      ready_ms: second.ready_ms,
      rss_bytes: second.rss_bytes,
      first_ready_ms: first.ready_ms,
      first_rss_bytes: first.rss_bytes,
      first_stop_ms: firstStopMs,
      persisted_bytes: persisted,
    };
  } finally {
    removeDir(dataDir);
  }
}
