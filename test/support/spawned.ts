/**
 * A long-running project CLI (scripts/*.ts) as a child process, for servers such as the witness:
 * resolves once it prints its listening URL, and stops it by its own pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { REPO_ROOT } from './cli.js';

export interface Spawned {
  child: ChildProcess;
  baseUrl: string;
  stdout(): string;
  stop(): Promise<number | null>;
}

export async function spawnServer(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Spawned> {
  const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}`, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        child.stdout.off('data', onData);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}: ${err}`)));
  });
  return {
    child,
    baseUrl,
    stdout: () => out,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

/** Runs a project CLI to completion without blocking this process (it may call a server here). */
export async function runScriptAsync(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}`, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [status] = (await once(child, 'exit')) as [number | null];
  return { status, stdout, stderr };
}
