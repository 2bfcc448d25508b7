/**
 * The README's Try-it block is executable documentation: this spec extracts the `sh` block that
 * follows the `<!-- try-it -->` marker and runs it with bash (`-e -o pipefail`) against a started
 * service, twice in a row in the same directory, as a newcomer would paste it twice. The block
 * computes its dates with `date -d` relative to today, so the service's clock is pinned to the
 * machine's time at the start of each round, and no round starts in a UTC day's last two minutes
 * (`waitBeforeRound`): the block's today and the service's are then one day. A run that crossed
 * midnight failed in CI, rightly: the block's title date-down, effective on its today, predated the
 * draw the service recorded on the next day (DOMAIN's TITLE_DATE_DOWN, BLOCKING).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { DEMO_SCOPES } from '../../src/demo/first-start.js';
import { listen, type Listening } from '../support/browser.js';
import { startService, type TestService } from '../support/service.js';

const run = promisify(execFile);
const README = fileURLToPath(new URL('../../README.md', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** How long before a UTC midnight no round starts: a round takes 12–40 s on the 2-core hosts. */
const BEFORE_MIDNIGHT_MS = 120_000;

/**
 * How long a round starting at `now` (ms) waits: none, or until just after the next UTC midnight
 * when that is less than BEFORE_MIDNIGHT_MS away.
 */
export function waitBeforeRound(now: number): number {
  const untilMidnight = 86_400_000 - (now % 86_400_000);
  return untilMidnight < BEFORE_MIDNIGHT_MS ? untilMidnight + 1_000 : 0;
}

/** The first ```sh fenced block after the try-it marker. */
export function tryItBlock(markdown: string): string {
  const marker = markdown.indexOf('<!-- try-it');
  if (marker < 0) throw new Error('README.md has no <!-- try-it --> marker');
  const match = /```sh\n([\s\S]*?)\n```/.exec(markdown.slice(marker));
  if (!match?.[1]) throw new Error('no ```sh block follows the try-it marker');
  return match[1];
}

describe('README Try-it block', function () {
  // Two rounds, and at most one wait for a UTC midnight to pass (waitBeforeRound).
  this.timeout(180_000 + BEFORE_MIDNIGHT_MS);
  let svc: TestService;
  let server: Listening;
  let cwd: string;

  before(async () => {
    svc = await startService({ now: new Date().toISOString() });
    server = await listen(svc.app);
    cwd = mkdtempSync(join(tmpdir(), 'plumbline-readme-'));
  });
  after(async () => {
    await server?.close();
    await svc?.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('starts no round in the last two minutes of a UTC day: it waits until just after midnight', () => {
    const midnight = Date.parse('2026-11-30T00:00:00Z');
    expect(waitBeforeRound(Date.parse('2026-11-29T12:00:00Z'))).to.equal(0);
    expect(waitBeforeRound(midnight - 120_000)).to.equal(0);
    expect(waitBeforeRound(midnight - 119_000)).to.equal(120_000);
    expect(waitBeforeRound(midnight - 10_000)).to.equal(11_000);
    expect(waitBeforeRound(midnight)).to.equal(0);
  });

  it('runs twice in a row: a payment push answering 201 and an audit-verify answering AUTHENTIC each time', async () => {
    const block = tryItBlock(readFileSync(README, 'utf8'));
    expect(block).to.match(/date -d/);
    expect(block).not.to.match(/20\d\d-\d\d-\d\d/, 'no fixed dates: they go stale');
    const key = await svc.key('Try It Bank', DEMO_SCOPES);
    const payments: string[] = [];
    for (const round of [1, 2]) {
      await sleep(waitBeforeRound(Date.now()));
      svc.clock.set(new Date());
      const { stdout } = await run('bash', ['-e', '-o', 'pipefail', '-c', block], {
        cwd,
        // The block's files land in a scratch directory, so its signer CLI is told where the checkout is.
        env: { ...process.env, BASE: server.baseUrl, KEY: key.key, PLUMBLINE_DIR: REPO },
        maxBuffer: 8 * 1024 * 1024,
      });
      expect(stdout, `round ${round}`).to.include('payment-push: HTTP 201');
      expect(stdout, `round ${round}`).to.match(/"verdict": "AUTHENTIC"/);
      expect(stdout, `round ${round}`).to.include('"status": "SUBMITTED"');
      expect(stdout, `round ${round}`).not.to.match(/\bnull\b.*DRW|"id": null/);
      // Each answer starts on a line of its own (healthz answers without a final newline).
      expect(stdout, `round ${round}`).to.match(/^\{"status":"ok"\}$/m);
      payments.push(/"id": "(PAY-[a-z2-7]+)"/.exec(stdout)?.[1] ?? '');
    }
    expect(payments[0]).to.match(/^PAY-/);
    expect(payments[1]).to.match(/^PAY-/);
    expect(payments[1]).not.to.equal(payments[0]);
    expect(readFileSync(join(cwd, 'badge.svg'), 'utf8')).to.include('<svg');
    expect(readFileSync(join(cwd, 'report.pdf')).subarray(0, 5).toString('latin1')).to.equal('%PDF-');
  });
});
