/**
 * `npm run build` — what the production image runs: the SDK bundle (static/sdk), TypeScript compiled
 * to JavaScript in dist/ (src, projections and the operations CLIs; no tsx at run time), and the
 * static assets beside it (dist/static, where the compiled src/ finds them as the sources find
 * static/). Start the result with `node dist/src/main.js`; CLIs are `node dist/scripts/<name>.js`.
 * `--no-typecheck` emits without type-checking (tsc --noCheck; the same bytes): for `npm test`,
 * whose `tsc --noEmit` beside it checks these files and the rest (scripts/checks.sh).
 * Exit 0 built, 1 failed.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildSdk, ROOT } from './lib/sdk-build.js';

const started = performance.now();
const typecheck = !process.argv.slice(2).includes('--no-typecheck');
try {
  await buildSdk();
  const dist = join(ROOT, 'dist');
  rmSync(dist, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(
    process.execPath,
    [tsc, '-p', join(ROOT, 'tsconfig.build.json'), ...(typecheck ? [] : ['--noCheck'])],
    { stdio: 'inherit' },
  );
  cpSync(join(ROOT, 'static'), join(dist, 'static'), { recursive: true });
  process.stdout.write(
    `build: dist/ (node dist/src/main.js) in ${Math.round(performance.now() - started)} ms\n`,
  );
} catch (error) {
  process.stderr.write(`build failed: ${(error as Error).message}\n`);
  process.exit(1);
}
