/**
 * A private redis-server for tests (ARCHITECTURE §9): spawned from PATH on a free loopback port,
 * with persistence off, and able to die and come back on the same port so tests can prove the
 * client fails fast and recovers. A missing binary fails the test with the install hint.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createConnection } from 'node:net';
import { freePort } from '../../bench/lib/child.js';

const INSTALL_HINT = 'redis-server was not found on PATH; install it with `apt-get install -y redis-server`';
const START_TIMEOUT_MS = 5000;

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** SIGTERM, then waits for the process to exit. */
  stop(): Promise<void>;
  /** SIGKILL (a crash), then waits for the process to exit. */
  kill(): Promise<void>;
  /** Starts again on the same port (stopping first if still running) and waits for PING. */
  restart(): Promise<void>;
  /** SIGSTOP: the port stays open but nothing answers, like a hung server. */
  pause(): void;
  /** SIGCONT after {@link RedisServer.pause}. */
  resume(): void;
}

/** One PING over a raw socket; true on `+PONG`. */
export function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString('utf8').startsWith('+PONG')));
  });
}

function spawnRedis(binary: string, port: number): Promise<ChildProcess> {
  const args = ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'ENOENT' ? new Error(INSTALL_HINT, { cause: error }) : error);
    });
    child.once('exit', (code, signal) => {
      reject(new Error(`redis-server exited during start (code ${code}, signal ${signal}):\n${output}`));
    });
  });
  const state = { settled: false };
  const started = waitForPing(port, state).then(() => child);
  return Promise.race([started, failed]).then(
    (ready) => {
      state.settled = true;
      return ready;
    },
    (error: unknown) => {
      state.settled = true;
      child.kill('SIGKILL');
      throw error;
    },
  );
}

/** Polls until PING answers; stops quietly once the start has been decided elsewhere. */
async function waitForPing(port: number, state: { settled: boolean }): Promise<void> {
  const until = Date.now() + START_TIMEOUT_MS;
  while (!state.settled) {
    if (await answersPing(port)) return;
    if (Date.now() > until)
      throw new Error(`redis-server on port ${port} did not answer PING within ${START_TIMEOUT_MS} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function terminate(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  // A paused server would hold SIGTERM pending forever.
  child.kill('SIGCONT');
  await exited;
}

export interface RedisServerOptions {
  /** Executable name or path; default `redis-server` from PATH. */
  binary?: string;
}

/** Starts a redis-server; throws (failing the test) when the binary is missing or it will not start. */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const binary = options.binary ?? 'redis-server';
  const port = await freePort();
  let child: ChildProcess | undefined = await spawnRedis(binary, port);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async () => {
      await terminate(child, 'SIGTERM');
      child = undefined;
    },
    kill: async () => {
      await terminate(child, 'SIGKILL');
      child = undefined;
    },
    restart: async () => {
      await terminate(child, 'SIGTERM');
      child = await spawnRedis(binary, port);
    },
    pause: () => {
      child?.kill('SIGSTOP');
    },
    resume: () => {
      child?.kill('SIGCONT');
    },
  };
}
