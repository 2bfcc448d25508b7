/**
 * `npm run build:sdk` — bundles src/sdk into static/sdk/plumbline.js and plumbline.d.ts (SPEC §8).
 * Runs before `npm start` (prestart) and in `npm test` (scripts/build.ts, from scripts/checks.sh),
 * since static/sdk is not committed.
 * Exit 0 built, 1 failed (type errors, a node: import, declarations that do not match the bundle).
 */
import { relative } from 'node:path';
import { buildSdk, ROOT } from './lib/sdk-build.js';

try {
  const started = performance.now();
  const built = await buildSdk();
  const ms = Math.round(performance.now() - started);
  process.stdout.write(
    `sdk: ${relative(ROOT, built.js)} + ${relative(ROOT, built.dts)} (${built.exports.length} exports) in ${ms} ms\n`,
  );
} catch (error) {
  process.stderr.write(`sdk build failed: ${(error as Error).message}\n`);
  process.exit(1);
}
