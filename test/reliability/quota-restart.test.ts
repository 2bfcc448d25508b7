import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { freePort } from '../../bench/lib/child.js';
import { DEFAULT_FLUSH_EVERY_MS } from '../../src/platform/rate-limit/index.js';
import { ledgerWith, startMain, stopChild, type Child } from './support.js';

/**
 * The embedded daily quota (SPEC §3) outlives the process that counted it: the real server
 * (`src/main.ts`, no REDIS_URL) is stopped, then SIGKILLed, and the next one reports the same usage.
 * ARCHITECTURE §7: a crash loses at most the counts of the last DEFAULT_FLUSH_EVERY_MS.
 */
describe('embedded quota across restarts and a crash of the real server', function () {
  this.timeout(120_000);
  let dataDir: string;
  let child: Child | undefined;

  after(async () => {
    if (child) await stopChild(child.process, 'SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every counted call across a SIGTERM restart, and those older than the write interval across a SIGKILL', async () => {
    const ledger = await ledgerWith(200, 'quota-restart');
    dataDir = ledger.dataDir;
    const key = ledger.dataset.keys[0]!.key;
    // The window is the real UTC day: keep clear of its end so every call lands in one window.
    const toMidnight = 86_400_000 - (Date.now() % 86_400_000);
    if (toMidnight < 60_000) await new Promise((r) => setTimeout(r, toMidnight + 1000));
    const port = await freePort();
    const lender = async (action: string): Promise<{ status: number; body: Record<string, unknown> }> => {
      const res = await fetch(`http://127.0.0.1:${port}/api/lender-credit?action=${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-plumbline-api-key': key },
        body: '{}',
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };

    child = await startMain(dataDir, port);
    for (let i = 0; i < 5; i += 1) expect((await lender('portfolio')).status).to.equal(200);
    expect((await lender('usage')).body).to.include({ used: 5, remaining: 95 });
    await stopChild(child.process, 'SIGTERM');

    child = await startMain(dataDir, port);
    const usage = await lender('usage');
    expect(usage.body).to.include({ used: 5, remaining: 95 });
    expect(usage.body.by_action).to.deep.equal({ portfolio: 5 });
    for (let i = 0; i < 3; i += 1) expect((await lender('portfolio')).status).to.equal(200);
    await new Promise((r) => setTimeout(r, DEFAULT_FLUSH_EVERY_MS * 2 + 100));
    await stopChild(child.process, 'SIGKILL');

    child = await startMain(dataDir, port);
    expect((await lender('usage')).body).to.include({ used: 8, remaining: 92 });
    await stopChild(child.process, 'SIGTERM');
    child = undefined;
  });
});
