import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { entryArgs, REPO_ROOT } from '../support/cli.js';

/**
 * `npm start` on a port something else holds: the one-line refusal comes before anything is
 * opened or written. It used to come after the demo had been seeded into DATA_DIR (~15 s of
 * writes on a fresh clone), leaving a seeded ledger behind for a start that never served.
 */
describe('the real server on a port already in use', function () {
  this.timeout(60_000);

  it('exits 1 with one line naming the port, and writes nothing into DATA_DIR', async () => {
    const holder = createServer();
    holder.listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const port = (holder.address() as { port: number }).port;
    const dataDir = join(mkdtempSync(join(tmpdir(), 'plumbline-port-in-use-')), 'data');
    try {
      const child = spawn(process.execPath, entryArgs('src/main.ts'), {
        cwd: REPO_ROOT,
        env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code, stderr).to.equal(1);
      expect(stderr).to.include(`plumbline: port ${port} is already in use`);
      expect(stderr).not.to.include('Seeding the demo dataset');
      expect(existsSync(dataDir) ? readdirSync(dataDir) : []).to.deep.equal([]);
    } finally {
      holder.close();
      rmSync(join(dataDir, '..'), { recursive: true, force: true });
    }
  });
});
