/**
 * `npm run witness` as a process: it generates its key, listens, speaks tlog-witness over HTTP,
 * and after a restart still refuses what is inconsistent with what it cosigned before.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyCheckpoint } from '../../../src/sdk/index.js';
import { runScript } from '../../support/cli.js';
import { spawnServer } from '../../support/spawned.js';
import { logKey, TestLog } from '../../support/tlog-fixture.js';

describe('npm run witness', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-witness-cli-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const args = () => [
    '--generate-key',
    '--name',
    'witness.test/cli',
    '--key',
    join(dir, 'witness.key'),
    '--state',
    join(dir, 'state.json'),
    '--log',
    logKey().noteVkey,
    '--port',
    '0',
  ];

  const post = (baseUrl: string, body: string) =>
    fetch(`${baseUrl}/add-checkpoint`, { method: 'POST', body }).then(async (r) => ({
      status: r.status,
      type: r.headers.get('content-type'),
      body: await r.text(),
    }));

  it('cosigns over HTTP with a key it generated, and remembers across a restart', async () => {
    const log = new TestLog().append('a', 'b', 'c');
    const first = await spawnServer('witness.ts', args());
    let vkey: string;
    try {
      vkey = /verifier key: (\S+)/.exec(first.stdout())?.[1] ?? '';
      expect(vkey).to.match(/^witness\.test\/cli\+[0-9a-f]{8}\+B/);
      expect(statSync(join(dir, 'witness.key')).mode & 0o777).to.equal(0o600);
      const res = await post(first.baseUrl, log.addCheckpointBody(0));
      expect(res.status).to.equal(200);
      const verified = await verifyCheckpoint(`${log.checkpoint()}${res.body}`, logKey().noteVkey, {
        witnesses: [vkey],
        quorum: 1,
      });
      expect(verified.cosignatures.map((c) => c.name)).to.deep.equal(['witness.test/cli']);
    } finally {
      expect(await first.stop()).to.equal(0);
    }
    const second = await spawnServer('witness.ts', args());
    try {
      expect(second.stdout()).to.include(`verifier key: ${vkey}`);
      expect(await post(second.baseUrl, log.addCheckpointBody(0))).to.deep.equal({
        status: 409,
        type: 'text/x.tlog.size',
        body: '3\n',
      });
      const forked = new TestLog().append('a', 'B', 'c', 'd');
      expect((await post(second.baseUrl, forked.addCheckpointBody(3))).status).to.equal(422);
      log.append('d');
      expect((await post(second.baseUrl, log.addCheckpointBody(3))).status).to.equal(200);
      expect((await fetch(`${second.baseUrl}/add-checkpoint`)).status).to.equal(405);
    } finally {
      await second.stop();
    }
    expect(
      JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).logs['plumbline.test/ledger'].size,
    ).to.equal(4);
  });

  it('exits 2 on missing flags and a bad log key', () => {
    expect(runScript('witness.ts', ['--key', join(dir, 'k')], {}).status).to.equal(2);
    const bad = runScript(
      'witness.ts',
      ['--key', join(dir, 'k'), '--state', join(dir, 's'), '--log', 'nope'],
      {},
    );
    expect(bad.status).to.equal(2);
    expect(bad.stderr).to.match(/--log nope/);
  });
});
