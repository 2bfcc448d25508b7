import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import {
  launchChromium,
  listen,
  screenshot,
  watchProblems,
  type Listening,
  type PageProblems,
} from '../support/browser.js';
import { pagesScene, type PagesScene } from '../support/pages-scene.js';
import request from 'supertest';
import { GRADE_FLOORS } from '../../src/credit/index.js';
import { D, firstDrawBody, projectBody } from '../support/api-fixtures.js';
import { enrolledSigner, signDrawAs } from '../support/signers.js';

describe('governance pages and the front door (Chromium)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let scene: PagesScene;
  let server: Listening;

  before(async () => {
    browser = await launchChromium();
    scene = await pagesScene();
    server = await listen(scene.svc.app);
  });
  after(async () => {
    await server?.close();
    await scene?.svc.close();
    await browser?.close();
  });

  async function open(path: string): Promise<{ page: Page; problems: PageProblems }> {
    const page = await browser.newPage();
    const problems = await watchProblems(page);
    await page.goto(`${server.baseUrl}${path}`);
    return { page, problems };
  }

  async function useKey(page: Page, key = scene.lender.key): Promise<void> {
    await page.getByLabel(/API key with the/).fill(key);
    await page.getByRole('button', { name: 'Use key' }).click();
  }

  async function expectClean(page: Page, problems: PageProblems): Promise<void> {
    expect(problems.console, 'console errors').to.deep.equal([]);
    expect(problems.pageErrors, 'page errors').to.deep.equal([]);
    expect(await problems.cspViolations(), 'CSP violations').to.deep.equal([]);
    await page.close();
  }

  /** A project whose name, contractor and signer carry U+202E and whose architect has a 150-character word. */
  let mirror: Promise<{ projectId: string; architect: string; longName: string }> | undefined;
  function mirrorProject(): Promise<{ projectId: string; architect: string; longName: string }> {
    mirror ??= (async () => {
      const { app } = scene.svc;
      const created = async (path: string, body: object): Promise<string> => {
        const res = await request(app)
          .post(path)
          .set({ Authorization: `Bearer ${scene.lender.key}` })
          .send(body);
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        return String(res.body.id);
      };
      const RLO = '\u202E';
      const longName = `${'W'.repeat(150)} Design`;
      const owner = await created('/api/entities', { legal_name: 'Mirror Owner LLC', roles: ['owner'] });
      const gc = await created('/api/entities', {
        legal_name: `${RLO}Mirror Builders`,
        roles: ['general_contractor'],
      });
      const architect = await created('/api/entities', { legal_name: longName, roles: ['architect'] });
      const projectId = await created(
        '/api/projects',
        projectBody({ borrower: owner, general_contractor: gc, architect }, { name: `Mirror ${RLO}Lofts` }),
      );
      const invoice = await created(`/api/projects/${projectId}/documents`, {
        type: 'INVOICE',
        vendor: gc,
        number: 'MB-1',
        amount: D(150_000),
        line: 1,
      });
      const drawId = await created(
        `/api/projects/${projectId}/draws`,
        firstDrawBody({ invoices: [invoice] }),
      );
      const signer = await enrolledSigner(app, scene.lender, {
        name: `Eve ${RLO}Mallory`,
        capacity: 'Contractor',
        entity_id: gc,
      });
      expect((await signDrawAs(app, scene.lender, drawId, 'Contractor', signer)).status).to.equal(201);
      return { projectId, architect, longName };
    })();
    return mirror;
  }

  it('the front door says what the service is, shows the ledger status and links every page', async () => {
    const { page, problems } = await open('/');
    expect(await page.locator('h1').textContent()).to.contain('construction lenders');
    await page
      .locator('#status-head')
      .filter({ hasText: /seq \d+/ })
      .waitFor();
    const head = await scene.svc.head();
    expect(await page.locator('#status-head').textContent()).to.equal(`seq ${head}`);
    const checkpoint = (await page.locator('#status-checkpoint').textContent()) ?? '';
    expect(checkpoint, checkpoint).to.match(/plumbline\.test\/ledger, size \d+, root .+, key [0-9a-f]{8}$/);
    const links = await page.locator('main a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const href of [
      '/portfolio.html',
      '/project.html',
      '/entity.html',
      '/mesh-ledger.html',
      '/compliance-methodology.html',
      '/docs',
      '/openapi.json',
      '/sdk/plumbline.js',
      '/api/lender-credit',
    ])
      expect(links).to.include(href);
    await screenshot(page, 'home');
    await expectClean(page, problems);
  });

  it('the portfolio lists entities with grade, state, trend and open findings, sorted by the server', async () => {
    const { page, problems } = await open('/portfolio.html');
    expect(await page.locator('#rows tr').count()).to.equal(0);
    await useKey(page);
    await page.locator('#rows tr').first().waitFor();
    expect(await page.locator('#rows tr').count()).to.equal(4);
    const first = page.locator('#rows tr').first();
    expect(await first.locator('td').first().textContent()).to.equal('Clearline Inspections LLC');
    await page.getByRole('button', { name: 'Score' }).click();
    await page.locator('#rows tr').first().filter({ hasText: 'Keystone Builders' }).waitFor();
    const keystone = page.locator('#rows tr').first();
    expect(await keystone.locator('td').nth(1).textContent()).to.equal('C');
    expect(await keystone.locator('td').nth(3).textContent()).to.equal('Probation');
    expect(await keystone.locator('svg.spark polyline').count()).to.equal(1);
    expect(await page.locator('#page-info').textContent()).to.equal('1–4 of 4');
    await screenshot(page, 'portfolio');
    await expectClean(page, problems);
  });

  it('the project page shows the draw with G702/G703, its payment gate in words, rails and certification', async () => {
    const { page, problems } = await open(`/project.html?id=${scene.projectId}`);
    await useKey(page);
    await page.locator('#project:not([hidden])').waitFor();
    expect(await page.locator('h1').textContent()).to.equal('Harbor View Lofts');
    const card = page.locator('.draw-card').first();
    expect(await card.locator('.verdict').textContent()).to.equal(
      'Not fundable now: 2 of 8 gates are not met.',
    );
    const failing = card.locator('.checklist li.fail');
    const failed = await failing.allTextContents();
    expect(failed).to.have.length(2);
    expect(failed[0]).to.contain('The draw compiles FUNDABLE: not met');
    expect(failed[0]).to.contain('Rule verdict_fundable');
    expect(failed[1]).to.contain('The documents the profile requires notarized are notarized: not met');
    expect(failed[1]).to.contain('Rule notarization');
    expect(await card.locator('.checklist li.pass').count()).to.equal(6);
    const finding = page.locator('#finding-rows tr').first();
    expect(await finding.locator('td').first().textContent()).to.equal('Blocking');
    expect(await finding.locator('td').nth(3).textContent()).to.match(/TTL-/);
    expect(await finding.locator('td').nth(5).textContent()).to.match(/^Open/);
    expect(await card.locator('table.g702').textContent()).to.contain('8. Current payment due$135,000.00');
    expect(await card.locator('table.g703 tbody tr').count()).to.equal(2);
    expect(await page.locator('#rails li').count()).to.equal(11);
    expect(await page.locator('#cert').textContent()).to.contain(scene.certificationId);
    await page
      .locator('#cert img.badge-img')
      .evaluate((img: HTMLImageElement) =>
        img.complete ? null : new Promise((resolve) => img.addEventListener('load', resolve)),
      );
    expect(
      await page.locator('#cert img.badge-img').evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).to.be.greaterThan(0);
    await screenshot(page, 'project');
    await expectClean(page, problems);
  });

  it('the entity page draws the score history, dimensions, timeline and inquiries with other lenders redacted', async () => {
    const { page, problems } = await open('/entity.html');
    await useKey(page);
    await page.getByLabel('Name, EIN, UEI or id').fill('12-3456789');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('#entity:not([hidden])').waitFor();
    expect(await page.locator('h1').textContent()).to.equal('Keystone Builders, Inc.');
    expect(await page.locator('#history-chart circle').count()).to.equal(4);
    expect(await page.locator('#history-chart circle.other').count()).to.equal(1);
    expect(await page.locator('#dims-chart rect.bar').count()).to.equal(6);
    // The background bands are the grades' (A ≥ 90, B ≥ 80, C ≥ 65, D ≥ 50, F), read off the axis.
    const bands = await page.locator('#history-chart rect.band').evaluateAll((rects) => {
      const grid = [...(rects[0] as SVGRectElement).ownerSVGElement!.querySelectorAll('line.grid')];
      const y0 = Number(grid[0]!.getAttribute('y1'));
      const y100 = Number(grid.at(-1)!.getAttribute('y1'));
      // [class, score at the band's bottom edge, score at its top edge] (no named closures: tsx
      // would wrap them in a helper the page does not have)
      return rects.map((r) => [
        r.getAttribute('class'),
        Math.round(
          ((y0 - Number(r.getAttribute('y')) - Number(r.getAttribute('height'))) * 100) / (y0 - y100),
        ),
        Math.round(((y0 - Number(r.getAttribute('y'))) * 100) / (y0 - y100)),
      ]);
    });
    expect(bands).to.deep.equal(
      GRADE_FLOORS.map((f, i) => [
        `band band-${f.grade.toLowerCase()}`,
        f.min,
        i === 0 ? 100 : GRADE_FLOORS[i - 1]!.min,
      ]),
    );
    expect(await page.locator('#inq-chart rect.col-others').count()).to.equal(1);
    const text = (await page.locator('#entity').textContent()) ?? '';
    expect(text).not.to.contain('Second Street Capital');
    await screenshot(page, 'entity');
    await expectClean(page, problems);
  });

  it('the entity page draws its charts at a 390 px phone’s width, text at its size, not shrunk', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const problems = await watchProblems(page);
    await page.goto(`${server.baseUrl}/entity.html`);
    await useKey(page);
    await page.getByLabel('Name, EIN, UEI or id').fill('12-3456789');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('#entity:not([hidden])').waitFor();
    await screenshot(page, 'entity-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.equal(390);
    // Each chart's drawn width over its own coordinate width: 1 when drawn at size (the labels'
    // 11–12 px), ~0.5 when a 640-wide chart is shrunk into the phone's column.
    const scales = await page
      .locator('.chart svg')
      .evaluateAll((svgs) =>
        svgs.map((svg) => svg.getBoundingClientRect().width / (svg as SVGSVGElement).viewBox.baseVal.width),
      );
    expect(scales).to.have.length(3);
    for (const scale of scales) expect(scale).to.be.at.least(0.99);
    // Each dimension's label and note stay inside the chart, clear of one another.
    const overlaps = await page.locator('#dims-chart svg').evaluate((svg) => {
      const box = svg.getBoundingClientRect();
      const texts = [...svg.querySelectorAll('text')].map((t) => t.getBoundingClientRect());
      return texts.filter(
        (a, i) =>
          a.left < box.left - 0.5 ||
          a.right > box.right + 0.5 ||
          texts.some(
            (b, j) => j !== i && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom,
          ),
      ).length;
    });
    expect(overlaps).to.equal(0);
    await expectClean(page, problems);
  });

  it('text a party furnished cannot reorder the facts beside it: bidirectional controls are not shown', async () => {
    const { projectId } = await mirrorProject();
    const { page, problems } = await open(`/project.html?id=${projectId}`);
    await useKey(page);
    await page.locator('#project:not([hidden])').waitFor();
    // Shown in logical order: the override would have reversed the name and everything after it.
    expect(await page.locator('h1').textContent()).to.equal('Mirror Lofts');
    expect(await page.title()).to.equal('Plumbline — Mirror Lofts');
    const text = await page.locator('body').innerText();
    expect(text).not.to.match(/[\u202A-\u202E\u2066-\u2069]/);
    expect(text).to.contain('Mirror Builders');
    const signatures = (await page.locator('.draw-card p').first().textContent()) ?? '';
    expect(signatures).to.contain('Signatures: Contractor (Eve Mallory, ');
    // The signer's name isolated from the date and roles beside it.
    expect(await page.locator('.draw-card p bdi').allTextContents()).to.deep.equal(['Eve Mallory']);
    await expectClean(page, problems);
  });

  it('a word longer than the line wraps at 420 px instead of widening the page', async () => {
    const { projectId, architect, longName } = await mirrorProject();
    const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
    const problems = await watchProblems(page);
    await page.goto(`${server.baseUrl}/project.html?id=${projectId}`);
    await useKey(page);
    await page.locator('#project:not([hidden])').waitFor();
    expect(await page.locator('#facts').textContent()).to.contain(longName);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.equal(420);
    await page.goto(`${server.baseUrl}/entity.html?id=${architect}`);
    await page.locator('#entity:not([hidden])').waitFor();
    expect(await page.locator('h1').textContent()).to.equal(longName);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.equal(420);
    await expectClean(page, problems);
  });

  it('a refused key says so and shows nothing', async () => {
    const { page, problems } = await open('/portfolio.html');
    await useKey(page, 'pl_test_000000000000000000000000000000abcdef');
    await page.locator('#load-status.error').waitFor();
    expect(await page.locator('#load-status').textContent()).to.contain('The key was refused');
    expect(await page.locator('#rows tr').count()).to.equal(0);
    // The 401 itself is the one console message Chromium logs; nothing else may be.
    expect(problems.console.filter((m) => !m.includes('401'))).to.deep.equal([]);
    expect(await problems.cspViolations()).to.deep.equal([]);
    await page.close();
  });
});
