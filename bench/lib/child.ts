/**
 * Child processes for the benchmarks: measurements that need a clean heap (replay, RSS), their own
 * event loop (servers under load) or the real CLI (`ledger:verify`) run in one, and answer with a
 * JSON line on stdout. `--cpu-prof` is passed through when the bench runs with `--profile`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Extra node flags for every child (e.g. `--cpu-prof --cpu-prof-dir=…` under `--profile`). */
export const childFlags: string[] = [];

export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `node --import tsx <script> …args` to completion. */
export async function runTs(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<ChildRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [...childFlags, '--import', 'tsx', script, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-20_000)));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr, ms: performance.now() - started };
}

/**
 * The last top-level JSON document a child printed on stdout (one line, or pretty-printed as the
 * CLIs' `--json` does); throws with its stderr when there is none.
 */
export function lastJson<T>(run: ChildRun, what: string): T {
  const out = run.stdout.trimEnd();
  const at = out.lastIndexOf('\n{');
  const text = at >= 0 ? out.slice(at + 1) : out;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`${what} printed no JSON (exit ${run.code}):\n${run.stderr}`);
  }
}

export interface RunningChild {
  child: ChildProcess;
  /** The first JSON line the child printed (its "ready" message). */
  ready: Record<string, unknown>;
  stop(): Promise<void>;
}

/** Starts a long-running child and waits for its first JSON line on stdout. */
export async function startTs(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<RunningChild> {
  const child = spawn(process.execPath, [...childFlags, '--import', 'tsx', script, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-20_000)));
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('{')) resolve(JSON.parse(line) as Record<string, unknown>);
    });
    child.once('exit', (code) =>
      reject(new Error(`${script} exited ${code} before it was ready:\n${stderr}`)),
    );
  });
  return {
    child,
    ready,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * A TCP port nobody listens on right now, drawn at random below Linux's ephemeral range
 * (32768–60999): a caller that frees the port and binds it again later (a restarted child, a
 * restarted redis-server) cannot lose it to another process's `listen(0)` in between, which
 * matters when test files run side by side (`mocha --parallel`). Falls back to the kernel's
 * choice if no drawn port binds.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await binds(port)) return port;
  }
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

/** True when a listener can bind 127.0.0.1:`port` now (it is closed again before this resolves). */
function binds(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export function mib(bytes: number): number {
  return Math.round(bytes / 2 ** 20);
}
