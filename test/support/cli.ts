/**
 * Runs a project CLI (scripts/*.ts) as a child process, the way `npm run` does, with its own env.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runScript(script: string, args: string[], env: Record<string, string>): CliRun {
  const out = spawnSync(process.execPath, ['--import', 'tsx', `scripts/${script}`, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}
