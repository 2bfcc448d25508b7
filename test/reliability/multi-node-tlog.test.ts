/**
 * One transparency log behind several nodes: each node signs the checkpoints of the ledger it has
 * folded, so without care one a few events behind another served a smaller log to a client that had
 * just read a larger one. Probed on three nodes on one EventStoreDB stand-in under appends: a
 * monitor going round the nodes (as behind a load balancer) was told ROLLBACK 323 times in 8 s
 * ('the log shrank from 2082 to 2069 entries'; ledger:monitor exits 2, which means the log
 * misbehaved) and 49 consistency proofs to a size another node had signed answered 404.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { freePort } from '../../bench/lib/child.js';
import { checkLog, type MonitorState } from '../../src/monitor/index.js';
import { generateApiKey } from '../../src/platform/crypto/api-key.js';
import { startStandinProcess, type StandinProcess } from '../support/esdb-standin-process.js';
import { startMain, stopChild, type Child } from './support.js';

const SECRETS = {
  KEY_PEPPER: 'tlog-nodes-pepper-0123456789abcdef0123',
  LEDGER_SIGNING_KEY: 'tlog-nodes-signing-key-0123456789abcdef',
  TLOG_SIGNING_SEED: 'cd'.repeat(32),
  PUBLIC_BASE_URL: 'https://plumbline.tlog-nodes.example',
};

describe('one transparency log served by several nodes on one EventStoreDB', function () {
  this.timeout(120_000);
  let standin: StandinProcess;
  const nodes: Child[] = [];
  const dirs: string[] = [];

  after(async () => {
    for (const node of nodes) await stopChild(node.process, 'SIGTERM');
    await standin?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('never shows a monitor going round the nodes a smaller log than it has seen, and proves each step', async () => {
    standin = await startStandinProcess();
    const shared = mkdtempSync(join(tmpdir(), 'plumbline-tlog-nodes-'));
    dirs.push(shared);
    const operatorKey = generateApiKey('live').key;
    const keyFile = join(shared, 'operator.key');
    writeFileSync(keyFile, `${operatorKey}\n`, { mode: 0o600 });
    const env = { ...SECRETS, EVENTSTORE_URL: standin.url, OPERATOR_KEY_FILE: keyFile };
    for (let i = 0; i < 3; i += 1) dirs.push(mkdtempSync(join(tmpdir(), `plumbline-tlog-node${i}-`)));
    nodes.push(
      ...(await Promise.all([1, 2, 3].map(async (i) => startMain(dirs[i]!, await freePort(), env)))),
    );
    const base = (i: number) => `http://127.0.0.1:${nodes[i]!.port}`;
    const post = async (i: number, path: string, body: unknown) => {
      const res = await fetch(`${base(i)}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${operatorKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const discovery = (await (await fetch(`${base(0)}/api/lender-credit`)).json()) as {
      transparency_log: { verifier_key: string };
    };
    const logKey = discovery.transparency_log.verifier_key;

    // Appends through every node, flat out, while the monitor goes round.
    const stop = { now: false };
    const writer = async (lane: number) => {
      for (let n = 0; !stop.now; n += 1) {
        const answer = await post((lane + n) % 3, '/api/admin/orgs', { name: `Tlog Lender ${lane}-${n}` });
        expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
      }
    };
    const writers = [0, 1].map(writer);

    const outcomes: Record<string, number> = {};
    const bad: string[] = [];
    let state: MonitorState | undefined;
    const until = Date.now() + 5000;
    for (let n = 0; Date.now() < until; n += 1) {
      const outcome = await checkLog({ baseUrl: base(n % 3), apiKey: operatorKey, logKey }, state);
      outcomes[outcome.status] = (outcomes[outcome.status] ?? 0) + 1;
      if (outcome.status !== 'first' && outcome.status !== 'consistent' && outcome.status !== 'unchanged')
        bad.push(`node ${n % 3}: ${outcome.status} ${'detail' in outcome ? outcome.detail : ''}`);
      if ('checkpoint' in outcome && (outcome.status === 'first' || outcome.status === 'consistent'))
        state = {
          origin: outcome.checkpoint.origin,
          size: outcome.checkpoint.size,
          root: Buffer.from(outcome.checkpoint.root).toString('base64'),
          checkpoint: outcome.checkpoint.note,
          checked_at: new Date().toISOString(),
        };
    }
    stop.now = true;
    await Promise.all(writers);

    expect(bad.slice(0, 5), JSON.stringify(outcomes)).to.deep.equal([]);
    expect(outcomes.consistent ?? 0, JSON.stringify(outcomes)).to.be.greaterThan(5);
  });
});
