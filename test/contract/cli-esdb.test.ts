/**
 * Every operations CLI against EventStoreDB: with EVENTSTORE_URL set, keys, import-sam,
 * ledger:generate, projections:rebuild, ledger:verify and seed-demo open the same ledger stream the
 * service does (through `openEventStore`), here the gRPC stand-in running as its own process —
 * and none of them writes an embedded ledger file in DATA_DIR.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { EsdbEventStore } from '../../src/platform/event-store/esdb.js';
import { verifyStore } from '../../src/platform/ledger/verify-store.js';
import { REPO_ROOT, runScript, type CliRun } from '../support/cli.js';
import { startStandinProcess, type StandinProcess } from '../support/esdb-standin-process.js';
import { startService } from '../support/service.js';

const PEPPER = 'test-pepper-0123456789abcdef0123456789';
const SIGNING = 'test-signing-key-0123456789abcdef01234';

function json<T>(run: CliRun): T {
  expect(run.status, run.stderr).to.equal(0);
  return JSON.parse(run.stdout) as T;
}

describe('operations CLIs on EventStoreDB (stand-in process)', function () {
  this.timeout(120_000);
  let standin: StandinProcess;
  let dataDir: string;
  let store: EsdbEventStore;
  const cli = (script: string, ...args: string[]): CliRun =>
    runScript(script, args, {
      EVENTSTORE_URL: standin.url,
      DATA_DIR: dataDir,
      KEY_PEPPER: PEPPER,
      LEDGER_SIGNING_KEY: SIGNING,
    });
  const head = async (): Promise<number> => (await store.head()).seq;

  before(async () => {
    standin = await startStandinProcess();
    dataDir = mkdtempSync(join(tmpdir(), 'plumbline-cli-esdb-'));
    store = EsdbEventStore.connect(standin.url);
  });
  after(async () => {
    await store.close();
    await standin.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('seed-demo seeds the empty EventStoreDB ledger', async () => {
    const run = cli('seed-demo.ts', '--projects', '1', '--phases', 'ingest', '--json');
    expect(run.status, run.stderr).to.equal(0);
    expect(await head()).to.be.greaterThan(0);
  });

  let keyId = '';
  let key = '';
  it('keys create issues a key into EventStoreDB that a service on the same ledger accepts', async () => {
    const before = await head();
    const issued = json<{ key_id: string; key: string }>(
      cli('keys.ts', 'create', '--org', 'Esdb Lending', '--scopes', 'credit:read', '--json'),
    );
    keyId = issued.key_id;
    key = issued.key;
    expect(await head()).to.be.greaterThan(before);
    const svc = await startService({ compose: { eventStoreUrl: standin.url, keyPepper: PEPPER } });
    try {
      const res = await request(svc.app)
        .post('/api/lender-credit?action=usage')
        .set('x-plumbline-api-key', key);
      expect(res.status).to.equal(200);
    } finally {
      await svc.close();
    }
  });

  // Without the shared pepper the CLI made a key under its machine's own (generated into DATA_DIR),
  // which every node of the ledger then refused: the key was issued, and useless.
  it('keys create refuses to issue a key without the shared KEY_PEPPER and LEDGER_SIGNING_KEY', async () => {
    const before = await head();
    const run = runScript('keys.ts', ['create', '--org', 'Esdb Lending', '--scopes', 'credit:read'], {
      EVENTSTORE_URL: standin.url,
      DATA_DIR: dataDir,
    });
    expect(run.status).to.equal(2);
    expect(run.stderr).to.include('KEY_PEPPER: required with EVENTSTORE_URL');
    expect(run.stderr).to.include('LEDGER_SIGNING_KEY: required with EVENTSTORE_URL');
    expect(await head()).to.equal(before);
  });

  it('keys list shows it, read from EventStoreDB', () => {
    const rows = json<Array<{ key_id: string; org: string }>>(cli('keys.ts', 'list', '--json'));
    expect(rows.find((r) => r.key_id === keyId)).to.include({ org: 'Esdb Lending' });
  });

  it('import-sam imports an extract into EventStoreDB', async () => {
    const before = await head();
    const out = json<{ ok: boolean }>(
      cli(
        'import-sam.ts',
        join(REPO_ROOT, 'test/fixtures/sam/SAM_Exclusions_Public_Extract_24100.zip'),
        '--json',
      ),
    );
    expect(out.ok).to.equal(true);
    expect(await head()).to.be.greaterThan(before);
  });

  it('ledger:generate appends its events to EventStoreDB', async () => {
    const before = await head();
    const out = json<{ appended: number; head: number }>(
      cli('ledger-generate.ts', '--events', '40', '--batch', '20', '--json'),
    );
    expect(out.appended).to.equal(40);
    expect(await head()).to.equal(before + 40);
    expect(out.head).to.equal(before + 40);
  });

  it('keys revoke revokes it in EventStoreDB', () => {
    const out = json<{ outcome: string }>(cli('keys.ts', 'revoke', keyId, '--json'));
    expect(out.outcome).to.equal('revoked');
  });

  it('projections:rebuild replays the whole EventStoreDB ledger', async () => {
    const out = json<{ events: number }>(cli('projections-rebuild.ts', '--json'));
    expect(out.events).to.equal(await head());
  });

  it('ledger:verify verifies the whole EventStoreDB chain, as the port reads it', async () => {
    const out = json<{ ok: boolean; head: number; checked: number }>(cli('ledger-verify.ts', '--json'));
    const h = await head();
    expect(out).to.include({ ok: true, head: h, checked: h });
    expect((await verifyStore(store)).ok).to.equal(true);
  });

  it('never wrote an embedded ledger file in DATA_DIR', () => {
    expect(existsSync(join(dataDir, 'ledger.db'))).to.equal(false);
  });
});

describe('import-sam on an EventStoreDB with a small maximum append size (stand-in process)', function () {
  this.timeout(120_000);
  const LIMIT = 4096;
  let standin: StandinProcess;
  let dataDir: string;
  before(async () => {
    standin = await startStandinProcess(['--max-append-size', String(LIMIT)]);
    dataDir = mkdtempSync(join(tmpdir(), 'plumbline-cli-esdb-limit-'));
  });
  after(async () => {
    await standin.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const extract = join(REPO_ROOT, 'test/fixtures/sam/SAM_Exclusions_Public_Extract_24100.zip');
  const importWith = (limit?: number): CliRun =>
    runScript('import-sam.ts', [extract, '--json'], {
      EVENTSTORE_URL: standin.url,
      DATA_DIR: dataDir,
      KEY_PEPPER: PEPPER,
      LEDGER_SIGNING_KEY: SIGNING,
      ...(limit ? { EVENTSTORE_MAX_APPEND_SIZE: String(limit) } : {}),
    });

  it('fails with the server refusing the append as too large when the adapter assumes the default limit', async () => {
    const run = importWith();
    expect(run.status).to.not.equal(0);
    expect(run.stderr).to.match(/maximum append size of 4096 bytes/);
    const store = EsdbEventStore.connect(standin.url);
    try {
      expect((await store.head()).seq).to.equal(0);
    } finally {
      await store.close();
    }
  });

  it('imports in chunks below the limit once EVENTSTORE_MAX_APPEND_SIZE names it, into a chain that verifies', async () => {
    const out = json<{ ok: boolean }>(importWith(LIMIT));
    expect(out.ok).to.equal(true);
    const store = EsdbEventStore.connect(standin.url);
    try {
      const verified = await verifyStore(store);
      expect(verified.ok).to.equal(true);
      expect(verified.checked).to.be.greaterThan(0);
    } finally {
      await store.close();
    }
  });
});
