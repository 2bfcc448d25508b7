/**
 * rebuild (SPEC §12): projection replay events/s at each size (target ≥ 150k/s), the replay's RSS
 * (target < 1 GiB), and startup-to-ready of the real server (`node --import tsx src/main.ts`,
 * process spawn → first `/readyz` 200) on the largest ledger with its snapshots (target < 3 s).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { childFlags, freePort, lastJson, REPO_ROOT, runTs } from './lib/child.js';
import { copyOf, removeDir, type Dataset } from './lib/datasets.js';

export interface ReplayMeasurement {
  events: number;
  events_per_second: number;
  replay_seconds: number;
  rss_bytes: number;
  max_rss_bytes: number;
  /** Peak including the snapshot save (JSON text of every state beside the states). */
  max_rss_with_save_bytes: number;
  save_seconds: number;
  snapshot_bytes: number;
}

/**
 * Replays a copy of the dataset (the replay clears and may save snapshots: the cached ledger is
 * never written). With `keep`, the copy — holding the saved snapshots — is returned for
 * `measureStartup`; the caller removes it.
 */
export async function measureReplay(
  ds: Dataset,
  opts: { save: boolean; keep?: boolean },
): Promise<ReplayMeasurement & { dataDir?: string }> {
  const dataDir = copyOf(ds, 'replay');
  try {
    const run = await runTs('bench/replay.ts', [dataDir, ...(opts.save ? ['--save'] : [])]);
    if (run.code !== 0) throw new Error(`replay failed (exit ${run.code}):\n${run.stderr}`);
    const measured = lastJson<ReplayMeasurement>(run, 'replay');
    return opts.keep ? { ...measured, dataDir } : measured;
  } finally {
    if (!opts.keep) removeDir(dataDir);
  }
}

export interface StartupMeasurement {
  events: number;
  ready_ms: number;
  rss_bytes: number;
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb === undefined ? 0 : Number(kb) * 1024;
}

/**
 * Spawns the real entry on a copy of the dataset (it may append) and polls /readyz. Start it from
 * snapshots by passing the data dir `measureReplay(…, { save: true, keep: true })` left.
 */
export async function measureStartup(ds: Dataset): Promise<StartupMeasurement> {
  const dataDir = copyOf(ds, 'startup');
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...childFlags, '--import', 'tsx', 'src/main.ts'], {
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
      if (ok) break;
      if (performance.now() - started > 120_000) throw new Error(`server not ready after 120 s:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const readyMs = performance.now() - started;
    return { events: ds.events, ready_ms: Math.round(readyMs), rss_bytes: rssOf(child.pid!) };
  } finally {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
    removeDir(dataDir);
  }
}
