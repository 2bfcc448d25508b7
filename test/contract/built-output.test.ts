/**
 * The built output (`npm run build`, which `npm test` runs first, in scripts/checks.sh) is what the
 * production image runs: `node dist/src/main.js`, with no tsx and no TypeScript at run time,
 * serving /healthz and the static assets copied beside it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { freePort } from '../../bench/lib/child.js';
import { REPO_ROOT } from '../support/cli.js';

const ENTRY = join(REPO_ROOT, 'dist/src/main.js');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(join(dir, d.name)) : [join(dir, d.name)],
  );
}

describe('the built output (dist/)', function () {
  this.timeout(60_000);

  it('holds compiled JavaScript only, no TypeScript sources and no tests', () => {
    expect(existsSync(ENTRY), 'dist/src/main.js is missing: run `npm run build`').to.equal(true);
    const files = filesUnder(join(REPO_ROOT, 'dist')).map((f) => f.slice(REPO_ROOT.length));
    expect(
      files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('dist/static/')),
    ).to.deep.equal([]);
    expect(files.some((f) => f.startsWith('dist/test/'))).to.equal(false);
    expect(files).to.include('dist/static/sdk/plumbline.js');
  });

  it('starts with plain node (no tsx loader) and answers /healthz 200 and a static page', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'plumbline-dist-'));
    const port = await freePort();
    const child = spawn(process.execPath, [ENTRY], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        DEMO: '0',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    try {
      let health = 0;
      for (let i = 0; i < 400 && health !== 200 && child.exitCode === null; i += 1) {
        health = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.status,
          () => 0,
        );
        if (health !== 200) await new Promise((r) => setTimeout(r, 50));
      }
      expect(health, output).to.equal(200);
      const sdk = await fetch(`http://127.0.0.1:${port}/sdk/plumbline.js`);
      expect(sdk.status).to.equal(200);
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
