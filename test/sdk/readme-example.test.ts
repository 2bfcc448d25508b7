/**
 * The README's SDK example is executable documentation: this spec takes the ```js block after the
 * `<!-- sdk-example -->` marker, saves it beside the built bundle as a newcomer would (example.mjs
 * next to plumbline.js), and runs it with node against a service seeded with the demo dataset, the
 * README's `localhost:8080` pointed at the service and the demo key and secret in the environment.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { planDemo } from '../../src/demo/dataset.js';
import { runDemo } from '../../src/demo/run.js';
import { startService, type TestService } from '../support/service.js';
import { builtSdkFile, listen, type Listening } from './harness.js';

const run = promisify(execFile);
const README = fileURLToPath(new URL('../../README.md', import.meta.url));

/** The first ```js fenced block after the sdk-example marker. */
function sdkExample(markdown: string): string {
  const marker = markdown.indexOf('<!-- sdk-example');
  if (marker < 0) throw new Error('README.md has no <!-- sdk-example --> marker');
  const match = /```js\n([\s\S]*?)\n```/.exec(markdown.slice(marker));
  if (!match?.[1]) throw new Error('no ```js block follows the sdk-example marker');
  return match[1];
}

describe('README SDK example', function () {
  this.timeout(180_000);
  let svc: TestService;
  let server: Listening;
  let dir: string;
  let key: { key: string; signing_secret: string };

  before(async () => {
    // The SDK checks each response's signed time against its own clock, so the demo is planned up
    // to yesterday and the service then runs at the machine's now, as a started service does.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    svc = await startService({ now: `${yesterday}T00:00:00.000Z` });
    key = (await runDemo(svc.composed.deps, planDemo({ today: yesterday }))).demo_key;
    svc.clock.set(new Date().toISOString());
    server = await listen(svc.app);
    dir = mkdtempSync(join(tmpdir(), 'plumbline-sdk-example-'));
    copyFileSync(await builtSdkFile(), join(dir, 'plumbline.js'));
  });
  after(async () => {
    await server?.close();
    await svc?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs as written against the demo: a verified score, the refused push explained, a verified chain', async () => {
    const block = sdkExample(readFileSync(README, 'utf8'));
    expect(block).to.include("baseUrl: 'http://localhost:8080'");
    writeFileSync(join(dir, 'example.mjs'), block.replace('http://localhost:8080', server.baseUrl));
    const { stdout } = await run('node', ['example.mjs'], {
      cwd: dir,
      env: { ...process.env, KEY: key.key, SECRET: key.signing_secret },
    });
    const lines = stdout.split('\n');
    expect(lines[0]).to.match(/^\d+(\.\d)? [A-F] [0-9a-f]{64}$/);
    expect(lines[1]).to.match(/^404 NOT_FOUND no draw DRW-…/);
    expect(stdout).to.match(/ok: true,\s+checked: 500,/);
  });
});
