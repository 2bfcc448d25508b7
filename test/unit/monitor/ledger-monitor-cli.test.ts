/**
 * `npm run ledger:monitor` against a log served over HTTP (the stand-in log of tlog-fixture, so
 * each lie can be staged exactly): the first run and honest growth pass (exit 0), and a rollback or
 * a split view exits 2 naming it, leaving the last verified checkpoint in place as evidence.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen, type Listening } from '../../sdk/harness.js';
import { runScriptAsync } from '../../support/spawned.js';
import { chainLinks, logKey, TestLog, witnessKey } from '../../support/tlog-fixture.js';

describe('npm run ledger:monitor', function () {
  this.timeout(60_000);
  let dir: string;
  let server: Listening;
  /** The log the server shows right now (tests swap it to stage misbehaviour). */
  let shown: TestLog;
  let seenAuth: string | undefined;

  before(async () => {
    server = await listen((req, res) => {
      seenAuth = req.headers.authorization;
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/tlog/checkpoint') {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(shown.checkpoint());
      } else if (url.pathname === '/api/ledger/proof/consistency') {
        const from = Number(url.searchParams.get('from'));
        const to = Number(url.searchParams.get('to') ?? shown.size);
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            from,
            to,
            consistency_proof: shown.consistency(from, to),
            checkpoint: shown.checkpoint(to),
          }),
        );
      } else res.writeHead(404).end();
    });
  });
  after(() => server.close());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-monitor-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const monitor = (...extra: string[]) =>
    runScriptAsync('ledger-monitor.ts', [
      '--url',
      server.baseUrl,
      '--state',
      join(dir, 'monitor.json'),
      '--key',
      logKey().noteVkey,
      '--api-key',
      'pl_test_key',
      ...extra,
    ]);
  const savedSize = () =>
    (JSON.parse(readFileSync(join(dir, 'monitor.json'), 'utf8')) as { size: number }).size;
  const events = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];

  it('verifies the first checkpoint, then each growth by its consistency proof (exit 0)', async () => {
    shown = new TestLog().appendLinks(chainLinks(events.slice(0, 5)));
    const first = await monitor();
    expect(first.status, first.stderr).to.equal(0);
    expect(first.stdout).to.match(/first checkpoint of plumbline\.test\/ledger: size 5/);
    expect(seenAuth).to.equal('Bearer pl_test_key');
    shown = new TestLog().appendLinks(chainLinks(events));
    const grown = await monitor();
    expect(grown.status, grown.stderr).to.equal(0);
    expect(grown.stdout).to.match(/consistent: 5 → 10/);
    expect(savedSize()).to.equal(10);
    expect((await monitor()).stdout).to.match(/unchanged: size 10/);
  });

  it('exits 2 naming a ROLLBACK when the log shows fewer entries than it did', async () => {
    shown = new TestLog().appendLinks(chainLinks(events));
    expect((await monitor()).status).to.equal(0);
    shown = new TestLog().appendLinks(chainLinks(events.slice(0, 7)));
    const result = await monitor();
    expect(result.status).to.equal(2);
    expect(result.stderr).to.match(/^ROLLBACK: the log shrank from 10 to 7 entries/);
    expect(savedSize()).to.equal(10);
  });

  it('exits 2 naming a SPLIT VIEW for an edited history, at the same size or grown', async () => {
    shown = new TestLog().appendLinks(chainLinks(events.slice(0, 8)));
    expect((await monitor()).status).to.equal(0);
    const edited = [...events];
    edited[3] = 'D';
    shown = new TestLog().appendLinks(chainLinks(edited.slice(0, 8)));
    const same = await monitor();
    expect(same.status).to.equal(2);
    expect(same.stderr).to.match(/^SPLIT VIEW: two roots for size 8/);
    shown = new TestLog().appendLinks(chainLinks(edited));
    const grown = await monitor();
    expect(grown.status).to.equal(2);
    expect(grown.stderr).to.match(/^SPLIT VIEW: the tree of size 10 does not extend the tree of size 8/);
    expect(savedSize()).to.equal(8);
  });

  it('exits 1, never 2, for a state file that is damaged or another log’s, and leaves it as it is', async () => {
    shown = new TestLog().appendLinks(chainLinks(events.slice(0, 8)));
    expect((await monitor()).status).to.equal(0);
    const path = join(dir, 'monitor.json');
    const good = readFileSync(path, 'utf8');
    const state = JSON.parse(good) as { size: number; root: string; checkpoint: string };
    const foreign = new TestLog(witnessKey('plumbline.test/ledger')).appendLinks(
      chainLinks(events.slice(0, 8)),
    );
    for (const damaged of [
      { ...state, root: 'abc' },
      { ...state, size: 7 },
      { ...state, checkpoint: foreign.checkpoint() },
    ]) {
      writeFileSync(path, JSON.stringify(damaged));
      const result = await monitor();
      expect(result.status, result.stderr).to.equal(1);
      expect(result.stderr).to.match(/monitor state/);
      expect(JSON.parse(readFileSync(path, 'utf8'))).to.deep.equal(damaged);
    }
    writeFileSync(path, good.slice(0, 40));
    const torn = await monitor();
    expect(torn.status).to.equal(1);
    expect(torn.stderr).to.match(/monitor state .* is corrupt/);
    const tornJson = await monitor('--json');
    expect(tornJson.status).to.equal(1);
    expect(JSON.parse(tornJson.stdout)).to.deep.include({ status: 'error' });
    writeFileSync(path, good);
    shown = new TestLog().appendLinks(chainLinks(events));
    expect((await monitor()).stdout).to.match(/consistent: 8 → 10/);
  });

  it('exits 1 for a checkpoint the log key did not sign, and 64 for bad flags', async () => {
    shown = new TestLog(witnessKey('plumbline.test/ledger')).appendLinks(chainLinks(events));
    const forged = await monitor();
    expect(forged.status).to.equal(1);
    expect(forged.stderr).to.match(/not the log's checkpoint/);
    expect((await runScriptAsync('ledger-monitor.ts', ['--url', server.baseUrl])).status).to.equal(64);
  });
});
