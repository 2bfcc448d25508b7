import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { STATIC_DIR } from '../../src/pages/index.js';
import {
  launchChromium,
  listen,
  requireSdkBundle,
  screenshot,
  watchProblems,
  type Listening,
} from '../support/browser.js';
import { startService, type TestService } from '../support/service.js';

const NOW = '2026-06-15T12:00:00Z';

describe('developer resources in Chromium: /docs and the SDK from a page (SPEC §8)', function () {
  this.timeout(40_000);
  let browser: Browser;
  let svc: TestService;
  let server: Listening;

  before(async () => {
    requireSdkBundle(STATIC_DIR);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    svc = await startService({ now: NOW });
    server = await listen(svc.app);
  });
  afterEach(async () => {
    await server.close();
    await svc.close();
  });

  it('renders the OpenAPI document on /docs from local assets, with no CSP violation', async () => {
    const page = await browser.newPage();
    const problems = await watchProblems(page);
    const external: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(server.baseUrl)) external.push(r.url());
    });
    await page.goto(`${server.baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 15_000 });
    const operations = await page.locator('.opblock').count();
    expect(operations).to.be.greaterThan(40);
    expect(
      await page.locator('.opblock-summary-path', { hasText: '/api/payment-push' }).count(),
    ).to.be.greaterThan(0);
    await screenshot(page, 'docs');
    expect(external, 'every asset is served locally').to.deep.equal([]);
    expect(await problems.cspViolations()).to.deep.equal([]);
    expect(problems.pageErrors).to.deep.equal([]);
    await page.close();
  });

  it('keeps the /docs header on a 390 px phone: its links wrap, none is cut off or widens the page', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${server.baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 15_000 });
    await screenshot(page, 'docs-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.equal(390);
    for (const link of await page.locator('.docs-header a').all()) {
      const box = (await link.boundingBox())!;
      expect(box.x + box.width, (await link.textContent()) ?? '').to.be.at.most(390);
    }
    await page.close();
  });

  it('loads /sdk/plumbline.js in a page and uses it: a signed call verified in the browser, a write, a score and a verified chain', async () => {
    const key = await svc.key('First Builders Bank');
    const page = await browser.newPage();
    const problems = await watchProblems(page);
    // tsx compiles this file with esbuild's keepNames, which wraps functions in __name(); the
    // function handed to evaluate() runs in the page, where that helper must exist.
    await page.addInitScript('window.__name = (fn) => fn;');
    await page.goto(`${server.baseUrl}/mesh-ledger.html`);
    const outcome = await page.evaluate(
      async ({ apiKey, signingSecret, now }) => {
        const sdkUrl = '/sdk/plumbline.js'; // a URL in the page, not a module of this project
        const sdk = (await import(sdkUrl)) as {
          Plumbline: new (o: {
            baseUrl: string;
            apiKey: string;
            signingSecret?: string;
            now?: () => Date;
          }) => {
            discovery(): Promise<{ version: string }>;
            usage(): Promise<{ limit: number }>;
            createEntity(body: { legal_name: string; roles: string[] }): Promise<{ id: string }>;
            score(
              entity: string,
            ): Promise<{ entity: string; credit: { grade: string }; provenance_hash: string }>;
            ledgerPage(o: { after?: number; limit?: number }): Promise<{ events: unknown[] }>;
          };
          verifyChain(events: unknown[]): { ok: boolean; checked: number };
          verifySignature(m: Response, secret: string, o: { now: Date }): Promise<{ valid: boolean }>;
        };
        const client = new sdk.Plumbline({
          baseUrl: location.origin,
          apiKey,
          signingSecret,
          now: () => new Date(now),
        });
        const discovery = await client.discovery();
        const usage = await client.usage();
        const created = await client.createEntity({
          legal_name: 'Browser Built LLC',
          roles: ['general_contractor'],
        });
        const report = await client.score('Browser Built');
        const page1 = await client.ledgerPage({ limit: 500 });
        const chain = sdk.verifyChain(page1.events);
        const raw = await fetch('/api/lender-credit?action=usage', {
          method: 'POST',
          headers: { 'x-plumbline-api-key': apiKey },
        });
        const good = await sdk.verifySignature(raw.clone(), signingSecret, { now: new Date(now) });
        const bad = await sdk.verifySignature(raw, `${signingSecret}x`, { now: new Date(now) });
        return {
          version: discovery.version,
          limit: usage.limit,
          id: created.id,
          entity: report.entity,
          grade: report.credit.grade,
          hash: report.provenance_hash,
          chain,
          good: good.valid,
          bad: bad.valid,
        };
      },
      { apiKey: key.key, signingSecret: key.signing_secret, now: NOW },
    );
    expect(outcome.version).to.equal('1.0.0');
    expect(outcome.limit).to.equal(100);
    expect(outcome.id).to.match(/^ent_/);
    expect(outcome.entity).to.equal('Browser Built LLC');
    expect(outcome.grade).to.match(/^[ABCDF]$/);
    expect(outcome.hash).to.match(/^[0-9a-f]{64}$/);
    expect(outcome.chain.ok).to.equal(true);
    expect(outcome.chain.checked).to.equal(await svc.head());
    expect(outcome.good).to.equal(true);
    expect(outcome.bad).to.equal(false);
    expect(problems.pageErrors).to.deep.equal([]);
    expect(await problems.cspViolations()).to.deep.equal([]);
    await page.close();
  });
});
