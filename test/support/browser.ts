/**
 * Browser tests (ARCHITECTURE §9): playwright-core driving Debian's Chromium against the app on a
 * loopback port. A missing /usr/bin/chromium fails the test with the install hint — never a skip.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Express } from 'express';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
const INSTALL_HINT = `${CHROMIUM_PATH} was not found; install it with \`apt-get install -y chromium\``;

/** Flags for a quiet, deterministic headless run in a container (no sandbox, no GPU, no phoning home). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The SDK bundle the ledger page imports is a build product (static/sdk is not committed). */
export function requireSdkBundle(staticDir: string): void {
  if (!existsSync(join(staticDir, 'sdk', 'plumbline.js')))
    throw new Error(
      'static/sdk/plumbline.js is not built; run `npm run build:sdk` (npm test builds it first)',
    );
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(INSTALL_HINT);
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export interface Listening {
  baseUrl: string;
  close(): Promise<void>;
}

export async function listen(app: Express): Promise<Listening> {
  const server: Server = createServer(app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** What a page complained about: console errors, uncaught exceptions and CSP violation events. */
export interface PageProblems {
  console: string[];
  pageErrors: string[];
  /** `securitypolicyviolation` events, as `directive: blocked URI`. */
  cspViolations(): Promise<string[]>;
}

/**
 * Starts collecting problems before the page's own scripts run. The CSP listener is injected by
 * the browser (init script), which the page's CSP does not govern.
 */
export async function watchProblems(page: Page): Promise<PageProblems> {
  const problems = { console: [] as string[], pageErrors: [] as string[] };
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning')
      problems.console.push(`${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (error) => problems.pageErrors.push(error.message));
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => {
      seen.push(`${e.violatedDirective}: ${e.blockedURI}`);
    });
  });
  return {
    ...problems,
    cspViolations: () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp),
  };
}

/** Saves a full-page screenshot when PLUMBLINE_SCREENSHOTS names a directory (for a human to look at). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.PLUMBLINE_SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
