import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { SqliteEventStore } from '../../../src/platform/event-store/sqlite.js';
import { BackgroundVerifier } from '../../../src/platform/ledger/background-verifier.js';
import { chain } from '../../support/events.js';

/** 2,000-row pages (the verifier's pacing): 7,000 events are four pages. */
const EVENTS = 7_000;

/**
 * A shutdown does not wait for a pass over the whole ledger (found at 1M: 12.6 s of a 14.3 s
 * SIGTERM): `stop` ends a running pass after the page it is at, keeping what it verified, and a pass
 * that starts later stops after one page. Without a stop the same pass reaches the head.
 */
describe('background verifier: stop', function () {
  this.timeout(60_000);
  let dir: string;
  let store: SqliteEventStore;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plumbline-bg-verifier-'));
    store = SqliteEventStore.open(join(dir, 'ledger.db'));
    await store.append(chain(EVENTS), 0);
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ends a running pass after its page, keeping what it verified', async () => {
    const verifier = new BackgroundVerifier(store, () => new Date());
    const pass = verifier.run();
    await verifier.stop();
    const status = await pass;
    expect(status.ok).to.equal(true);
    expect(status.head).to.equal(EVENTS);
    expect(status.verified_through).to.equal(2_000);
    // A later pass (a scrape's run) stops after one page too: from the watermark on.
    expect((await verifier.run()).verified_through).to.equal(4_000);
  });

  it('reaches the head when not stopped', async () => {
    const status = await new BackgroundVerifier(store, () => new Date()).run();
    expect(status).to.deep.include({ ok: true, verified_through: EVENTS, head: EVENTS });
  });
});
