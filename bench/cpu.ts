/**
 * CPU per request of the HTTP read paths (issue 19 item 3): the server process's own CPU time
 * (utime + stime from /proc/<pid>/stat) divided by the requests it answered, while autocannon sends
 * at a fixed rate the server can keep up with (`--connections 50 --rate 3000` saturates it instead).
 * It moves far less than throughput when other work shares the machine (±10 % between rounds on a
 * loaded box, against 2× for req/s), so two trees, or a tree and bare Express, can be compared run
 * against run. CPU per request falls as the rate rises (writes and wake-ups batch): compare at one rate.
 *
 *   npm run bench:cpu                             usage, score and bare Express at 300 req/s, 8 s, 2 rounds
 *   npx tsx bench/cpu.ts --only score,writes      score read-only, then score while observations on the
 *                                                 key's projects are recorded at a tenth of the rate
 *                                                 (server CPU per score answered, the writes' included)
 *   npx tsx bench/cpu.ts --rate 200 --seconds 10 --rounds 3 --only usage,express
 *   npx tsx bench/cpu.ts --threads               also the CPU per request of each of the server's threads
 *                                                 (/proc/<pid>/task/*: main, libuv pool, V8 workers, …)
 *   npx tsx bench/cpu.ts --profile                every server under --cpu-prof (profiles in the cache dir;
 *                                                 the measured window is the last `--seconds` before exit)
 *
 * Runs on a copy of the cached 100k-event bench dataset (`--events` for another size). Prints one
 * line per measurement and a JSON summary (µs of server CPU per answered request, medians).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { childFlags, startTs, type RunningChild } from './lib/child.js';
import { cacheRoot, copyOf, dataset, removeDir } from './lib/datasets.js';
import { load, type LoadResult } from './lib/load.js';
import { entitiesToScore, projectsOf } from './lib/sample.js';

const TARGETS = ['usage', 'score', 'writes', 'express'] as const;
type Target = (typeof TARGETS)[number];

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '300' },
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '2' },
    events: { type: 'string', default: '100000' },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
    connections: { type: 'string', default: '10' },
    threads: { type: 'boolean', default: false },
  },
});
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const only = (values.only?.split(',') ?? [...TARGETS]).filter((t): t is Target =>
  (TARGETS as readonly string[]).includes(t),
);
if (values.profile) {
  const dir = join(cacheRoot(), 'profiles');
  mkdirSync(dir, { recursive: true });
  childFlags.push('--cpu-prof', `--cpu-prof-dir=${dir}`);
  process.stderr.write(`profiles go to ${dir}\n`);
}

const TICK_US = 1e6 / 100; // USER_HZ is 100 on Linux

/** utime + stime of a process, µs. */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

/** utime and stime of each thread of a process, µs, keyed `tid name`. */
function threadCpuOf(pid: number): Map<string, { user: number; kernel: number }> {
  const out = new Map<string, { user: number; kernel: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(`${tid} ${name}`, {
        user: Number(fields[11]) * TICK_US,
        kernel: Number(fields[12]) * TICK_US,
      });
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/**
 * µs per request by thread over a window: the main thread (tid = pid) split into user and kernel
 * time, and each other thread as `tid name`, user + kernel (Node names none of its threads: V8's
 * platform workers — GC helpers, concurrent compilation — come first by tid, then libuv's pool as
 * it is first used, then any worker_threads).
 */
function perThread(
  pid: number,
  before: Map<string, { user: number; kernel: number }>,
  after: Map<string, { user: number; kernel: number }>,
  requests: number,
): Record<string, number> {
  const used: Record<string, number> = {};
  for (const [key, t] of after) {
    const was = before.get(key) ?? { user: 0, kernel: 0 };
    if (key.startsWith(`${String(pid)} `)) {
      used['main user'] = t.user - was.user;
      used['main kernel'] = t.kernel - was.kernel;
    } else used[key] = t.user + t.kernel - was.user - was.kernel;
  }
  return Object.fromEntries(
    Object.entries(used)
      .filter(([, us]) => us > 0)
      .sort(([, a], [, b]) => b - a)
      .map(([name, us]) => [name, Math.round(us / Math.max(1, requests))]),
  );
}

interface CpuResult {
  target: Target;
  requests: number;
  non_2xx: number;
  /** Observations recorded meanwhile (target `writes`), and how many were refused. */
  writes?: number;
  writes_non_2xx?: number;
  us_per_request: number;
  /** With `--threads`: µs per request by thread name. */
  threads?: Record<string, number>;
}

async function measure(
  target: Target,
  server: RunningChild,
  key: string,
  bodies: string[],
): Promise<CpuResult> {
  const pid = Number(server.ready.pid);
  const path = target === 'usage' ? '/api/lender-credit?action=usage' : '/api/lender-credit?action=score';
  const url = (p: string): string => `http://127.0.0.1:${String(server.ready.port)}${p}`;
  // Under writes: observations on the key's projects at a tenth of the score rate, as `npm run bench`.
  const writing = (seconds: number): Promise<LoadResult | null> =>
    target === 'writes'
      ? load({
          url: url('/api/observations'),
          headers: { 'x-plumbline-api-key': key },
          bodies: observationBodies,
          connections: 2,
          overallRate: Math.max(1, Math.round(rate / 10)),
          warmupSeconds: 0,
          seconds,
        })
      : Promise.resolve(null);
  const opts = {
    url: url(path),
    headers: { 'x-plumbline-api-key': key },
    bodies: target === 'usage' ? ['{}'] : bodies,
    connections: Number(values.connections),
    overallRate: rate,
  };
  await Promise.all([load({ ...opts, warmupSeconds: 0, seconds: 4 }), writing(4)]);
  const threadsBefore = values.threads ? threadCpuOf(pid) : null;
  const before = cpuOf(pid);
  const [r, w] = await Promise.all([load({ ...opts, warmupSeconds: 0, seconds }), writing(seconds)]);
  const used = cpuOf(pid) - before;
  const threads = threadsBefore ? perThread(pid, threadsBefore, threadCpuOf(pid), r.requests) : null;
  return {
    target,
    requests: r.requests,
    non_2xx: r.non_2xx,
    ...(w ? { writes: w.requests, writes_non_2xx: w.non_2xx } : {}),
    us_per_request: Math.round(used / Math.max(1, r.requests)),
    ...(threads ? { threads } : {}),
  };
}

const ds = await dataset(Number(values.events));
const key = ds.keys[0]!.key;
const bodies = entitiesToScore(ds, 40).map((entity) => JSON.stringify({ entity }));
const today = new Date().toISOString().slice(0, 10);
const observationBodies = projectsOf(ds, ds.keys[0]!.org_id, 20).map((project_id) =>
  JSON.stringify({ project_id, kind: 'hours_worked', hours: 8, observed_on: today }),
);
const scratch = mkdtempSync(join(tmpdir(), 'plumbline-bench-cpu-'));
const results: CpuResult[] = [];
try {
  const dataDir = copyOf(ds, 'cpu');
  let sample: string;
  try {
    const service = await startTs('bench/servers.ts', ['service', dataDir]);
    try {
      const res = await fetch(
        `http://127.0.0.1:${String(service.ready.port)}/api/lender-credit?action=score`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-plumbline-api-key': key },
          body: bodies[0]!,
        },
      );
      sample = await res.text();
      if (res.status !== 200) throw new Error(`score answered ${res.status}: ${sample}`);
      for (let round = 0; round < rounds; round += 1)
        for (const target of only.filter((t) => t !== 'express')) {
          const r = await measure(target, service, key, bodies);
          results.push(r);
          process.stderr.write(`${JSON.stringify(r)}\n`);
        }
    } finally {
      await service.stop();
    }
  } finally {
    removeDir(dataDir);
  }
  if (only.includes('express')) {
    const bodyFile = join(scratch, 'score.json');
    writeFileSync(bodyFile, sample);
    const server = await startTs('bench/servers.ts', ['bare-express', bodyFile]);
    try {
      for (let round = 0; round < rounds; round += 1) {
        const r = await measure('express', server, key, bodies);
        results.push(r);
        process.stderr.write(`${JSON.stringify(r)}\n`);
      }
    } finally {
      await server.stop();
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
};
const summary = Object.fromEntries(
  only.map((t) => [t, median(results.filter((r) => r.target === t).map((r) => r.us_per_request))]),
);
process.stdout.write(`${JSON.stringify({ rate, seconds, rounds, us_per_request: summary })}\n`);
