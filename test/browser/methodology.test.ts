import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { METHODOLOGY } from '../../src/credit/index.js';
import type { IssuedKey } from '../../src/orgs/keys.js';
import { launchChromium, listen, screenshot, watchProblems, type Listening } from '../support/browser.js';
import { startService, type TestService } from '../support/service.js';

/** 6 woman-owned firms (SAM A2), 4 veteran-owned (A5, under the minimum of 5) and 3 with no flag. */
const FIRMS: { name: string; business_types: string[] }[] = [
  ...Array.from({ length: 6 }, (_, i) => ({ name: `Aurora Builders ${i + 1} LLC`, business_types: ['A2'] })),
  ...Array.from({ length: 4 }, (_, i) => ({
    name: `Bastion Contracting ${i + 1} Inc`,
    business_types: ['A5'],
  })),
  ...Array.from({ length: 3 }, (_, i) => ({ name: `Cobalt Framing ${i + 1} Co`, business_types: [] })),
];

describe('compliance methodology page (GET /compliance-methodology.html)', function () {
  this.timeout(30_000);
  let browser: Browser;
  let svc: TestService;
  let server: Listening;
  let page: Page;
  let problems: Awaited<ReturnType<typeof watchProblems>>;

  before(async () => {
    browser = await launchChromium();
    svc = await startService();
    const key: IssuedKey = await svc.key('First Builders Bank');
    for (const firm of FIRMS) {
      const res = await request(svc.app)
        .post('/api/entities')
        .set({ Authorization: `Bearer ${key.key}` })
        .send({ legal_name: firm.name, roles: ['general_contractor'], business_types: firm.business_types });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    server = await listen(svc.app);
    page = await browser.newPage();
    problems = await watchProblems(page);
    const response = await page.goto(`${server.baseUrl}/compliance-methodology.html`);
    expect(response?.status()).to.equal(200);
    expect(response?.headers()['content-type']).to.equal('text/html; charset=utf-8');
    expect(response?.headers()['content-security-policy']).to.include("script-src 'self'");
    await screenshot(page, 'compliance-methodology');
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await svc?.close();
  });

  it('shows every dimension with the weight the scoring code uses', async () => {
    for (const d of METHODOLOGY.dimensions) {
      const row = page.locator(`#dimension-weights tr[data-dimension="${d.name}"]`);
      expect(await row.locator('th').textContent()).to.equal(d.name);
      expect(Number(await row.locator('td.weight').textContent())).to.equal(d.weight);
      for (const f of d.factors) expect(await page.locator(`#factor-${f.code}`).count()).to.equal(1);
    }
    expect(await page.locator('#dimension-weights tbody tr').count()).to.equal(METHODOLOGY.dimensions.length);
  });

  it('lists every threshold, every state transition and both PRAL columns from METHODOLOGY', async () => {
    const keys = await page
      .locator('#thresholds tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')));
    expect(keys).to.deep.equal(Object.keys(METHODOLOGY.thresholds));
    expect(await page.locator('#transitions tbody tr').count()).to.equal(
      METHODOLOGY.state_machine.transitions.length,
    );
    expect(await page.locator('#pral-by-grade tbody tr').count()).to.equal(
      Object.keys(METHODOLOGY.eligibility.pral_by_grade).length,
    );
    expect(await page.locator('#pral-by-state tbody tr').count()).to.equal(
      Object.keys(METHODOLOGY.eligibility.pral_by_state).length,
    );
    expect(await page.locator('#business-types tbody tr').count()).to.equal(
      METHODOLOGY.bias_analysis.business_type_groups.length,
    );
  });

  it('analyzes the current ledger: sample size, the plain statements, analyzed and insufficient groups', async () => {
    expect(await page.locator('#bias-sample-size').textContent()).to.equal(String(FIRMS.length));
    const statements = (await page.locator('#bias-statements').textContent()) ?? '';
    expect(statements).to.match(/not inputs to the score/);
    expect(statements).to.match(/a screen, not proof/);
    const woman = page.locator('#bias-groups tr[data-group="woman_owned"]');
    expect(await woman.getAttribute('data-status')).to.equal('ANALYZED');
    expect(await woman.locator('td').nth(0).textContent()).to.equal('6');
    expect(await woman.locator('td').nth(1).textContent()).to.equal(String(FIRMS.length - 6));
    const veteran = page.locator('#bias-groups tr[data-group="veteran_owned"]');
    expect(await veteran.getAttribute('data-status')).to.equal('INSUFFICIENT');
    expect(await veteran.textContent()).to.match(/insufficient/);
  });

  it('draws the score distributions as server-side SVG: bars for analyzed groups only', async () => {
    const chart = page.getByRole('img', { name: /score distributions by SAM business type group/ });
    expect(await chart.count()).to.equal(1);
    // Entities without projects all score the neutral prior (70): every drawn row is one bar in 70–80.
    // Drawn: "All governed entities" and woman-owned (with its reference); not drawn: the other three.
    const bars = await chart
      .locator('rect')
      .evaluateAll((rects) => rects.map((r) => `${r.getAttribute('class')} ${r.textContent}`));
    expect(bars).to.deep.equal([
      'bar-group group 70–80: 100 %',
      'bar-group group 70–80: 100 %',
      'bar-ref reference 70–80: 100 %',
    ]);
    expect(await chart.locator('text.insufficient').count()).to.equal(3);
  });

  it('fits a 390 px phone: a wide table scrolls inside its own box, the page does not scroll sideways', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(`${server.baseUrl}/compliance-methodology.html`);
    await screenshot(phone, 'compliance-methodology-390');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).to.equal(390);
    const table = phone.locator('#bias-groups');
    expect(await table.evaluate((t) => t.scrollWidth)).to.be.greaterThan(390);
    const box = (await phone.locator('.table-wrap:has(#bias-groups)').boundingBox())!;
    expect(box.x + box.width).to.be.at.most(390);
    await phone.close();
  });

  it('runs no script and triggers no CSP violation or console error', async () => {
    expect(await page.locator('script').count()).to.equal(0);
    expect(problems.console).to.deep.equal([]);
    expect(problems.pageErrors).to.deep.equal([]);
    expect(await problems.cspViolations()).to.deep.equal([]);
  });
});
