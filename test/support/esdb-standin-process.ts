/**
 * The EventStoreDB stand-in as its own process (`npm run esdb:standin`), for specs where several
 * processes — CLIs, service nodes — share one ledger stream, as they would share a real server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { entryArgs, REPO_ROOT } from './cli.js';

export interface StandinProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `scripts/esdb-standin.ts` on a free port; resolves once it prints its URL. */
export async function startStandinProcess(args: string[] = []): Promise<StandinProcess> {
  const child = spawn(process.execPath, [...entryArgs('scripts/esdb-standin.ts'), '--port', '0', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /listening on (esdb:\/\/\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`esdb stand-in exited ${code}: ${stderr}`)));
  });
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
