import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ledgerHeadOf, runScript } from '../support/cli.js';

/** `npm run keys -- create|revoke|list`: what it records takes the rules POST /api/admin/* applies. */
describe('keys CLI', function () {
  this.timeout(120_000);
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'keys-cli-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
  const keys = (...args: string[]) => runScript('keys.ts', args, { DATA_DIR: dataDir });

  const ledgerHead = () => ledgerHeadOf(dataDir);

  it('refuses a control character in an org name, label or reason, or an overlong label (exit 2, nothing recorded)', async () => {
    const created = keys('create', '--org', 'Harbor', '--scopes', 'credit:read', '--json');
    expect(created.status, created.stderr).to.equal(0);
    const { key_id } = JSON.parse(created.stdout) as { key_id: string };
    expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).to.equal(0o600);
    const head = await ledgerHead();
    const refused = [
      keys('create', '--org', 'Bell\u0007 Lending', '--scopes', 'credit:read'),
      keys('create', '--org', 'Harbor', '--scopes', 'credit:read', '--label', 'ci\u001b[2J'),
      keys('create', '--org', 'Harbor', '--scopes', 'credit:read', '--label', 'x'.repeat(101)),
      keys('revoke', key_id, '--reason', 'left\u0001'),
    ];
    expect(refused.map((r) => r.status)).to.deep.equal([2, 2, 2, 2]);
    expect(refused[0]!.stderr).to.match(/^--org: must not contain control characters\n/);
    expect(refused[2]!.stderr).to.match(/^--label: /);
    expect(await ledgerHead()).to.equal(head);
    // Free text keeps its layout: a reason may span lines.
    expect(keys('revoke', key_id, '--reason', 'left the firm\nticket 42').status).to.equal(0);
  });
});
