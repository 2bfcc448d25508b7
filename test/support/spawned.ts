/**
 * Project CLIs (scripts/*.ts) as child processes without blocking this one: a long-running server
 * (the witness) that resolves once it prints its listening URL, and a run to completion that may
 * call a server living in this process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { entryArgs, REPO_ROOT } from './cli.js';

export interface Spawned {
  child: ChildProcess;
  baseUrl: string;
  stdout(): string;
  stop(): Promise<number | null>;
}

/** `node dist/scripts/<script>.js` or `node --import tsx scripts/<script>` ({@link entryArgs}), collecting its output as it comes. */
function spawnScript(script: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [...entryArgs(`scripts/${script}`), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  return { child, output };
}

export async function spawnServer(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Spawned> {
  const { child, output } = spawnScript(script, args, env);
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output.stdout);
      if (match?.[1]) {
        child.stdout.off('data', onData);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}: ${output.stderr}`)));
  });
  return {
    child,
    baseUrl,
    stdout: () => output.stdout,
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
  const { child, output } = spawnScript(script, args, env);
  const [status] = (await once(child, 'exit')) as [number | null];
  return { status, ...output };
}
