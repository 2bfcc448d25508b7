/**
 * `npm run ledger:audit`: a receipt verifies offline with the log's verifier key (exit 0); a receipt
 * for a forged or edited event, or under another key, exits 2 naming why.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runScript } from '../../support/cli.js';
import { chainLinks, logKey, TestLog, witnessKey } from '../../support/tlog-fixture.js';

describe('npm run ledger:audit', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-audit-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const links = chainLinks(['a', 'b', 'c', 'd', 'e']);
  const write = (name: string, receipt: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(receipt));
    return path;
  };

  it('exits 0 for a valid receipt, reading the key from a file too', () => {
    const path = write('ok.json', new TestLog().appendLinks(links).receipt(links[2]!));
    const run = runScript('ledger-audit.ts', [path, '--key', logKey().noteVkey], {});
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.match(
      /^valid: seq 3 \([0-9a-f]{64}\) is leaf 2 of the tree of size 5 signed by plumbline\.test\/ledger/,
    );
    const keyFile = join(dir, 'log.vkey');
    writeFileSync(keyFile, `${logKey().noteVkey}\n`);
    const json = runScript('ledger-audit.ts', [path, '--key', keyFile, '--json'], {});
    expect(JSON.parse(json.stdout)).to.include({ valid: true, seq: 3, tree_size: 5 });
  });

  it('exits 2 naming the reason for an edited event, or a checkpoint under another key', () => {
    const receipt = new TestLog().appendLinks(links).receipt(links[2]!);
    const edited = write('edited.json', {
      ...receipt,
      event: { ...receipt.event, content_hash: '0'.repeat(64) },
    });
    const run = runScript('ledger-audit.ts', [edited, '--key', logKey().noteVkey], {});
    expect(run.status).to.equal(2);
    expect(run.stderr).to.match(/^INVALID \(event_hash_mismatch\)/);
    const other = runScript(
      'ledger-audit.ts',
      [write('ok2.json', receipt), '--key', witnessKey('plumbline.test/ledger').noteVkey],
      {},
    );
    expect(other.status).to.equal(2);
    expect(other.stderr).to.match(/^INVALID \(bad_checkpoint\)/);
  });

  it('exits 1 for an unreadable receipt and 64 for missing flags', () => {
    expect(
      runScript('ledger-audit.ts', [join(dir, 'missing.json'), '--key', logKey().noteVkey], {}).status,
    ).to.equal(1);
    expect(runScript('ledger-audit.ts', [join(dir, 'missing.json')], {}).status).to.equal(64);
    // --json: the answer on stdout is JSON for this failure too, as for an invalid receipt.
    const json = runScript(
      'ledger-audit.ts',
      [join(dir, 'missing.json'), '--key', logKey().noteVkey, '--json'],
      {},
    );
    expect(json.status).to.equal(1);
    expect(JSON.parse(json.stdout)).to.deep.include({ valid: false, reason: 'unreadable' });
  });
});
