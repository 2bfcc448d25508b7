import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { runScript } from '../support/cli.js';

/**
 * Counts and ports on the command line are decimal digits: `Number()` read `1e3` as 1000, `0x10`
 * as 16 and an empty value as 0 (a witness on any free port), none of which the usage promises.
 */
describe('operations CLIs: numeric flags', function () {
  this.timeout(120_000);
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'cli-numbers-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
  const run = (script: string, ...args: string[]) => runScript(script, args, { DATA_DIR: dataDir });

  it('refuses 1e3, 0x10 and empty values with exit 2 and the usage, before opening anything', () => {
    const runs = [
      run('ledger-generate.ts', '--events', '1e3'),
      run('ledger-generate.ts', '--events', '10', '--batch', '0x10'),
      run('ledger-verify.ts', '--workers', '0x2'),
      run('seed-demo.ts', '--projects', '1e1'),
      run(
        'witness.ts',
        '--key',
        join(dataDir, 'w.key'),
        '--state',
        join(dataDir, 'w.json'),
        '--log',
        'localhost:18721/ledger+dd6783fc+ARcB1Go+GTCza5vq2GwNdUnoP8UBHftr5Ecg3KsuFOub',
        '--port=',
      ),
    ];
    expect(runs.map((r) => r.status)).to.deep.equal([2, 2, 2, 2, 2]);
    for (const r of runs) expect(r.stderr).to.match(/must be|is 0–65535/);
    expect(run('ledger-generate.ts', '--events', '12', '--json').status).to.equal(0);
  });
});
