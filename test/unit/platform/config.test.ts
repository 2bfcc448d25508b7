import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/config.js';
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
