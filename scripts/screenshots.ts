/**
 * `npm run screenshots`: renders every page and each page of the credit report PDF to PNGs under
 * docs/screenshots/ (the README shows them). The data is the pages scene the browser specs use
 * (test/support/pages-scene.ts) on a throwaway service; Chromium at /usr/bin/chromium and
 * pdftoppm (poppler-utils) draw them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import type { Page } from 'playwright-core';
import { launchChromium, listen } from '../test/support/browser.js';
import { binary } from '../test/support/binary.js';
import { pagesScene, type PagesScene } from '../test/support/pages-scene.js';

const OUT = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

/** The explorer with a key in use: the page verified, a server-side search, and a hash audited. */
async function ledgerExplorer(page: Page, baseUrl: string, scene: PagesScene): Promise<void> {
  await page.goto(`${baseUrl}/mesh-ledger.html`);
  await page.getByLabel(/API key with the/).fill(scene.lender.key);
  await page.getByLabel(/Log verifier key/).fill(scene.svc.composed.deps.tlog.verifierKey);
  await page.getByRole('button', { name: 'Use key' }).click();
  await page.getByText(/Verified seq 1–/).waitFor();
  await page.getByLabel('Event names').fill('DrawSubmitted,CertificationIssued');
  await page.getByRole('button', { name: 'Search the ledger' }).click();
  await page.locator('#search-info', { hasText: 'in the whole ledger' }).waitFor();
  const certified = await request(scene.svc.app)
    .get('/api/ledger?type=CertificationIssued')
    .set({ Authorization: `Bearer ${scene.lender.key}` });
  const events = (certified.body as { events: { hash: string }[] }).events;
  await page.getByLabel(/Event, report, certificate/).fill(events[0]?.hash ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.locator('#audit-result .chain-status.ok').waitFor();
  await page.screenshot({ path: join(OUT, 'ledger-explorer.png'), fullPage: true });
  console.log('docs/screenshots/ledger-explorer.png');
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const scene = await pagesScene();
  const server = await listen(scene.svc.app);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const shots: [string, string, boolean][] = [
      ['home', '/', false],
      ['portfolio', '/portfolio.html#sort=score&order=desc', true],
      ['project', `/project.html?id=${scene.projectId}`, true],
      ['entity', `/entity.html?id=${scene.gc}`, true],
      ['methodology', '/compliance-methodology.html', false],
    ];
    for (const [name, path, keyed] of shots) {
      await page.goto(`${server.baseUrl}${path}`);
      if (keyed) {
        await page.evaluate((key) => sessionStorage.setItem('plumbline.key', key), scene.lender.key);
        await page.reload();
      }
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
      console.log(`docs/screenshots/${name}.png`);
    }
    await ledgerExplorer(page, server.baseUrl, scene);
    const pdf = await request(scene.svc.app)
      .get(`/api/credit-report-pdf?entity=${scene.gc}&key=${scene.lender.key}`)
      .buffer(true)
      .parse(binary);
    const dir = mkdtempSync(join(tmpdir(), 'plumbline-pdf-'));
    writeFileSync(join(dir, 'report.pdf'), pdf.body as Buffer);
    for (const old of readdirSync(OUT).filter((f) => f.startsWith('credit-report-page-')))
      rmSync(join(OUT, old));
    execFileSync('pdftoppm', ['-png', '-r', '80', join(dir, 'report.pdf'), join(dir, 'page')]);
    for (const f of readdirSync(dir)
      .filter((f) => f.endsWith('.png'))
      .sort()) {
      const n = Number(/page-0*(\d+)\.png$/.exec(f)?.[1] ?? '0');
      renameSync(join(dir, f), join(OUT, `credit-report-page-${n}.png`));
      console.log(`docs/screenshots/credit-report-page-${n}.png`);
    }
    rmSync(dir, { recursive: true, force: true });
  } finally {
    await browser.close();
    await server.close();
    await scene.svc.close();
  }
}

await main();
