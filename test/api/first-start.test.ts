/**
 * First start (issue 17): a production ledger (EventStoreDB, or any ledger with events) gets
 * nothing fictitious — only the platform operator, whose first key is printed once or provisioned
 * through OPERATOR_KEY_FILE; the embedded demo seeds resumably, so a crash mid-seed is completed
 * by the next start with the same keys, which then live in a 0600 file and are never reprinted.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { DEMO_KEY_FILE, DEMO_SEED_FILE, seedOnFirstStart } from '../../src/demo/first-start.js';
import { generateApiKey } from '../../src/platform/crypto/api-key.js';
import { LedgerIntegrityFailure } from '../../src/platform/ledger/errors.js';
import { readAll } from '../../src/platform/event-store/port.js';
import type { Logger } from '../../src/platform/log.js';
import { verifyStore } from '../../src/platform/ledger/verify-store.js';
import { startEsdbStandin, type EsdbStandin } from '../support/esdb-standin/index.js';
import { startService, type TestService } from '../support/service.js';

const ORG_AND_KEY_EVENTS = new Set(['OrganizationRegistered', 'PlatformOperatorDesignated', 'ApiKeyIssued']);

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (msg: string, fields?: Record<string, unknown>) =>
    void lines.push(`${msg} ${JSON.stringify(fields ?? {})}`);
  return { lines, debug: log, info: log, warn: log, error: log };
}

async function typesOf(svc: TestService): Promise<string[]> {
  const out: string[] = [];
  for await (const e of readAll(svc.composed.store)) out.push(e.type);
  return out;
}

async function works(svc: TestService, key: string, path = '/api/admin/orgs'): Promise<number> {
  return (await request(svc.app).get(path).set('Authorization', `Bearer ${key}`)).status;
}

describe('first start without demo data', function () {
  this.timeout(30_000);

  describe('on EventStoreDB', () => {
    let standin: EsdbStandin;
    let svc: TestService;
    before(async () => {
      standin = await startEsdbStandin();
      svc = await startService({ compose: { eventStoreUrl: standin.url } });
    });
    after(async () => {
      await svc.close();
      await standin.stop();
    });

    it('writes only the platform operator on an empty ledger, even with DEMO=1, and hands its key back once', async () => {
      const logger = recordingLogger();
      const first = await seedOnFirstStart(svc.composed.deps, '1', logger, { embedded: false });
      expect(first.demo).to.equal(null);
      expect(first.operator).not.to.equal(null);
      expect(await works(svc, first.operator!.key)).to.equal(200);
      const types = await typesOf(svc);
      expect(
        types.every((t) => ORG_AND_KEY_EVENTS.has(t)),
        types.join(),
      ).to.equal(true);
      expect(existsSync(join(svc.dataDir, DEMO_SEED_FILE))).to.equal(false);
      const again = await seedOnFirstStart(svc.composed.deps, undefined, logger, { embedded: false });
      expect(again.operator).to.equal(null);
      expect(await typesOf(svc)).to.deep.equal(types);
    });
  });

  describe('on an embedded ledger', () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService();
    });
    afterEach(async () => {
      await svc.close();
    });

    it('seeds no demo into a ledger that already has events (DEMO unset)', async () => {
      await svc.key('Harbor Credit Union');
      const head = await svc.head();
      const result = await seedOnFirstStart(svc.composed.deps, undefined, recordingLogger());
      expect(result.demo).to.equal(null);
      const types = (await typesOf(svc)).slice(head);
      expect(
        types.every((t) => ORG_AND_KEY_EVENTS.has(t)),
        types.join(),
      ).to.equal(true);
    });

    it('issues the operator key provisioned in OPERATOR_KEY_FILE, without printing it', async () => {
      const file = join(svc.dataDir, 'operator.key');
      const provisioned = generateApiKey('live').key;
      writeFileSync(file, `${provisioned}\n`, { mode: 0o600 });
      const result = await seedOnFirstStart(svc.composed.deps, '0', recordingLogger(), {
        operatorKeyFile: file,
      });
      expect(result.operator).to.equal(null);
      expect(await works(svc, provisioned)).to.equal(200);
    });

    it('writes a generated operator key to an OPERATOR_KEY_FILE that does not exist yet (0600), not to the log', async () => {
      const file = join(svc.dataDir, 'secrets', 'operator.key');
      const logger = recordingLogger();
      const result = await seedOnFirstStart(svc.composed.deps, '0', logger, { operatorKeyFile: file });
      expect(result.operator).to.equal(null);
      expect(result.operatorKeyFileWritten).to.equal(file);
      expect(statSync(file).mode & 0o777).to.equal(0o600);
      const key = readFileSync(file, 'utf8').trim();
      expect(await works(svc, key)).to.equal(200);
      expect(logger.lines.join('\n')).not.to.include(key);
    });
  });
});

describe('the embedded demo seed', function () {
  this.timeout(180_000);
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(async () => {
    await svc.close();
  });

  it('is completed by the next start after a crash mid-seed, with working keys, and never reprints them', async () => {
    const deps = svc.composed.deps;
    let appends = 0;
    deps.ledger.setGuard(() => (++appends > 40 ? new Error('simulated crash mid-seed') : null));
    let crash: unknown;
    try {
      await seedOnFirstStart(deps, undefined, recordingLogger());
    } catch (error) {
      crash = error;
    }
    expect(crash, 'the seed stops at the crash').to.be.instanceOf(Error);
    const halfway = await svc.head();
    expect(halfway).to.be.greaterThan(0);
    expect(existsSync(join(svc.dataDir, DEMO_KEY_FILE))).to.equal(false);

    deps.ledger.setGuard(() => null);
    const completed = await seedOnFirstStart(deps, undefined, recordingLogger());
    expect(completed.demo).not.to.equal(null);
    expect(await svc.head()).to.be.greaterThan(halfway);
    const usage = await request(svc.app)
      .post('/api/lender-credit?action=usage')
      .set('x-plumbline-api-key', completed.demo!.key);
    expect(usage.status).to.equal(200);
    expect(await works(svc, completed.operator!.key)).to.equal(200);
    const keyFile = join(svc.dataDir, DEMO_KEY_FILE);
    expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
    expect(readFileSync(keyFile, 'utf8')).to.include(completed.demo!.key);
    expect((await verifyStore(svc.composed.store)).ok).to.equal(true);
    const issued = (await typesOf(svc)).filter((t) => t === 'ApiKeyIssued').length;

    const head = await svc.head();
    const logger = recordingLogger();
    const later = await seedOnFirstStart(deps, undefined, logger);
    expect([later.demo, later.operator]).to.deep.equal([null, null]);
    expect(later.demoKeyFile).to.equal(keyFile);
    expect(await svc.head()).to.equal(head);
    expect(logger.lines.join('\n')).to.include(keyFile).and.not.include(completed.demo!.key);
    expect((await typesOf(svc)).filter((t) => t === 'ApiKeyIssued').length).to.equal(issued);
  });
});

describe('a start while ledger appends are suspended', function () {
  this.timeout(30_000);
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(async () => {
    await svc.close();
  });

  it('goes on (reads served, the failure logged) instead of throwing out of the start', async () => {
    // What main.ts met after a recorded integrity failure or read models ahead of a truncated
    // ledger: the operator bootstrap's commit refused, the process died, and so at every start.
    const key = await svc.key('Harbor Credit Union');
    const head = await svc.head();
    svc.composed.deps.ledger.setGuard(() => new LedgerIntegrityFailure('seq_gap', head + 1));
    const logger = recordingLogger();
    const result = await seedOnFirstStart(svc.composed.deps, '0', logger);
    expect(result.operator).to.equal(null);
    expect(logger.lines.join('\n')).to.include('appends are suspended').and.include('seq_gap');
    expect(await works(svc, key.key, '/api/projects')).to.equal(200);
    expect(await svc.head()).to.equal(head);
  });
});
