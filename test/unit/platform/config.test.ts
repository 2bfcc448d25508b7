import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { ConfigError, loadConfig, loadServiceConfig } from '../../../src/config.js';
import { ed25519Signer, SIG_COSIGNATURE_V1 } from '../../../src/platform/tlog/note.js';
import { REPO_ROOT } from '../../support/cli.js';

describe('configuration (ARCHITECTURE §8)', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config).to.include({
      PORT: 8080,
      DATA_DIR: './data',
      RATE_LIMIT_ON_STORE_ERROR: 'closed',
      LOG_LEVEL: 'info',
    });
    expect(config.REDIS_URL).to.equal(undefined);
    expect(config.EVENTSTORE_URL).to.equal(undefined);
  });

  it('gives a client 30 s for a request and 10 s for its headers, and refuses a headers timeout past the request’s', () => {
    expect(loadConfig({})).to.include({ HTTP_REQUEST_TIMEOUT_MS: 30_000, HTTP_HEADERS_TIMEOUT_MS: 10_000 });
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '6000' }))
      .to.throw(ConfigError)
      .with.property('problems')
      .that.satisfies((p: string[]) => p.length === 1 && p[0]!.includes('HTTP_HEADERS_TIMEOUT_MS'));
    expect(loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '5000' })).to.include({
      HTTP_HEADERS_TIMEOUT_MS: 5_000,
    });
  });

  it('takes TLOG_PREVIOUS_KEY only as a log verifier key (not a witness key, not with a wrong key id)', () => {
    const key = 'plumbline.example.com/ledger+3b1f4a5e+AQ' + 'A'.repeat(42) + '=';
    const valid = ed25519Signer('plumbline.example.com/ledger', Buffer.alloc(32, 5)).verifierKey;
    expect(loadConfig({ TLOG_PREVIOUS_KEY: valid }).TLOG_PREVIOUS_KEY).to.equal(valid);
    const witness = ed25519Signer(
      'witness.example.com/w1',
      Buffer.alloc(32, 5),
      SIG_COSIGNATURE_V1,
    ).verifierKey;
    for (const bad of [key, witness, 'not a key'])
      expect(() => loadConfig({ TLOG_PREVIOUS_KEY: bad }), bad)
        .to.throw(ConfigError)
        .with.property('problems')
        .that.satisfies((p: string[]) => p.length === 1 && p[0]!.startsWith('TLOG_PREVIOUS_KEY'));
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ REDIS_URL: '', PORT: '' }).PORT).to.equal(8080);
  });

  it('refuses a bad environment listing every problem at once', () => {
    let caught: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        REDIS_URL: 'http://localhost',
        RATE_LIMIT_ON_STORE_ERROR: 'maybe',
        KEY_PEPPER: 'short',
        EVENTSTORE_URL: 'tcp://x',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'REDIS_URL', 'RATE_LIMIT_ON_STORE_ERROR', 'KEY_PEPPER', 'EVENTSTORE_URL'])
      expect(problems).to.include(name);
    expect((caught as ConfigError).problems).to.have.length(5);
  });

  // Several nodes share an EventStoreDB ledger: a node left to generate its own secrets into its
  // DATA_DIR refused every key made on the others (401) and signed the log with a second key, and
  // one without a shared origin published another verifier key (localhost:<its port>) for the log.
  it('requires the shared secrets and the log origin of a service on EventStoreDB, and of no embedded one', () => {
    const esdb = { EVENTSTORE_URL: 'esdb://127.0.0.1:2113?tls=false' };
    const problemsOf = (env: Record<string, string>): string[] => {
      try {
        loadServiceConfig(env);
        return [];
      } catch (error) {
        expect(error).to.be.instanceOf(ConfigError);
        return (error as ConfigError).problems;
      }
    };
    const missing = problemsOf(esdb);
    expect(missing).to.have.length(4);
    for (const name of ['KEY_PEPPER', 'LEDGER_SIGNING_KEY', 'TLOG_SIGNING_SEED', 'PUBLIC_BASE_URL'])
      expect(missing.some((p) => p.startsWith(name))).to.equal(true, name);
    const shared = {
      ...esdb,
      KEY_PEPPER: 'p'.repeat(32),
      LEDGER_SIGNING_KEY: 's'.repeat(32),
      TLOG_SIGNING_SEED: 'ab'.repeat(32),
    };
    expect(problemsOf(shared)).to.deep.equal([missing.find((p) => p.startsWith('PUBLIC_BASE_URL'))]);
    expect(problemsOf({ ...shared, TLOG_ORIGIN: 'plumbline.example.com/ledger' })).to.deep.equal([]);
    expect(problemsOf({ ...shared, PUBLIC_BASE_URL: 'https://plumbline.example.com' })).to.deep.equal([]);
    expect(problemsOf({})).to.deep.equal([]);
    // The CLIs read the plain configuration: ledger:verify needs none of these.
    expect(loadConfig(esdb).EVENTSTORE_URL).to.equal(esdb.EVENTSTORE_URL);
  });

  it('makes `npm start` exit 2 with the list instead of starting', function () {
    this.timeout(30_000);
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, PORT: 'not-a-port', RATE_LIMIT_ON_STORE_ERROR: 'sometimes' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).to.equal(2);
    expect(run.stderr).to.include('refusing to start');
    expect(run.stderr).to.include('PORT');
    expect(run.stderr).to.include('RATE_LIMIT_ON_STORE_ERROR');
  });
});
