/**
 * Runs a project CLI (scripts/*.ts) as a child process, the way `npm run` does, with its own env;
 * and says how a child node starts any project entry point (see {@link entryArgs}).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '../../src/platform/event-store/sqlite.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What `npm run build` compiles into dist/ (tsconfig.build.json), and the static files it copies. */
const BUILT_SOURCES = ['src', 'projections', 'scripts', 'static'];

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

let distFresh: boolean | undefined;

/**
 * True when dist/ was built from the sources as they are now: every compiled source and copied
 * static file has its dist/ counterpart, written no earlier than the source was last changed.
 * static/sdk is left out: it is itself built from src/sdk (checked through dist/src/sdk), and specs
 * rebuild it while the suite runs. A source without a compiled twin is one the build skips (or a new
 * file, which is only reached through a changed, hence newer, importer — or started, and then
 * {@link entryArgs} finds no twin).
 */
function distIsFresh(): boolean {
  if (distFresh !== undefined) return distFresh;
  const dist = join(REPO_ROOT, 'dist');
  distFresh =
    existsSync(join(dist, 'src', 'main.js')) &&
    BUILT_SOURCES.flatMap((dir) => filesUnder(join(REPO_ROOT, dir))).every((source) => {
      const rel = relative(REPO_ROOT, source);
      if (rel.startsWith(join('static', 'sdk'))) return true;
      const built = join(
        dist,
        rel.endsWith('.ts') && !rel.endsWith('.d.ts') ? rel.replace(/\.ts$/, '.js') : rel,
      );
      if (!existsSync(built)) return !rel.startsWith('static');
      return statSync(built).mtimeMs >= statSync(source).mtimeMs;
    });
  return distFresh;
}

/**
 * Node arguments that start the project entry point `entry` (e.g. `src/main.ts`,
 * `scripts/witness.ts`) in a child process run from REPO_ROOT: its compiled dist/ twin
 * (`node dist/src/main.js`, what the production image runs) when `npm run build` has produced an
 * up-to-date dist/ — as `npm test` does first — which starts in about half the time of a `tsx`
 * compile; otherwise, or for a script the build skips, the TypeScript source under `tsx`. Specs
 * about the service's or a CLI's behaviour use this; specs about `npm start` or tsx itself spawn tsx.
 */
export function entryArgs(entry: string): string[] {
  const built = join('dist', entry.replace(/\.ts$/, '.js'));
  if (distIsFresh() && existsSync(join(REPO_ROOT, built))) return [built];
  return ['--import', 'tsx', entry];
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runScript(script: string, args: string[], env: Record<string, string>): CliRun {
  const out = spawnSync(process.execPath, [...entryArgs(`scripts/${script}`), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** The head seq of the embedded ledger in `dataDir` (what a CLI spec checks it left unchanged). */
export async function ledgerHeadOf(dataDir: string): Promise<number> {
  const store = SqliteEventStore.open(join(dataDir, 'ledger.db'));
  try {
    return (await store.head()).seq;
  } finally {
    await store.close();
  }
}
