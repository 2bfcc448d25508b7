import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import type { IssuedKey } from '../../src/orgs/keys.js';
import type { SqliteEventStore } from '../../src/platform/event-store/sqlite.js';
import { STATIC_DIR } from '../../src/pages/index.js';
import {
  launchChromium,
  listen,
  requireSdkBundle,
  screenshot,
  watchProblems,
  type Listening,
  type PageProblems,
} from '../support/browser.js';
import { startService, type TestService } from '../support/service.js';

/** Plays the attacker on the running service's own SQLite file (see test/unit/ledger/tamper.test.ts). */
function tamper(svc: TestService, sql: string): void {
  const db = (svc.composed.store as SqliteEventStore).database;
  db.exec('DROP TRIGGER IF EXISTS events_are_immutable;');
  db.exec(sql);
}

describe('ledger explorer page (GET /mesh-ledger.html)', function () {
  this.timeout(30_000);
  let browser: Browser;
  let svc: TestService;
  let server: Listening;
  let lender: IssuedKey;
  let targetSeq: number;

  async function register(key: IssuedKey, legal_name: string): Promise<void> {
    const res = await request(svc.app)
      .post('/api/entities')
      .set({ Authorization: `Bearer ${key.key}` })
      .send({ legal_name, roles: ['general_contractor'] });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  }

  async function openWithKey(page: Page, logKey = svc.composed.deps.tlog.verifierKey): Promise<void> {
    await page.goto(`${server.baseUrl}/mesh-ledger.html`);
    await page.getByLabel(/API key with the/).fill(lender.key);
    await page.getByLabel(/Log verifier key/).fill(logKey);
    await page.getByRole('button', { name: 'Use key' }).click();
  }

  /** The target event and the server's genuine audit-verify answer for its hash. */
  async function genuineAudit() {
    const reader = { 'x-plumbline-api-key': lender.key };
    const target = await request(svc.app).get(`/api/ledger/${targetSeq}`).set(reader);
    const genuine = await request(svc.app)
      .post('/api/audit-verify')
      .set(reader)
      .send({ hash: target.body.hash });
    return { reader, target, genuine };
  }

  /**
   * Audits `hash` in the explorer's audit box (the page's routes already set): the answer is shown
   * as not proven, nothing reads verified, and the page threw nothing. The answer's text.
   */
  async function auditRefused(page: Page, problems: PageProblems, hash: string): Promise<string> {
    await openWithKey(page);
    await page.locator('#audit-section:not([hidden])').waitFor();
    await page.getByLabel(/Event, report, certificate/).fill(hash);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.locator('#audit-result .chain-status.bad').waitFor();
    expect(await page.locator('#audit-result .chain-status.ok').count()).to.equal(0);
    expect(problems.pageErrors).to.deep.equal([]);
    return (await page.locator('#audit-result').textContent()) ?? '';
  }

  before(async () => {
    requireSdkBundle(STATIC_DIR);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    svc = await startService();
    lender = await svc.key('First Builders Bank');
    const other = await svc.key('Second Street Capital');
    await register(lender, 'Keystone Builders, Inc.');
    await register(lender, 'Tamper Target Construction LLC');
    await register(other, 'Other Org Framing Co');
    await register(lender, 'Harbor Electric LLC');
    const page = await request(svc.app)
      .get('/api/ledger?limit=500')
      .set({ 'x-plumbline-api-key': lender.key });
    const target = (page.body.events as { seq: number; data?: { legal_name?: string } }[]).find(
      (e) => e.data?.legal_name === 'Tamper Target Construction LLC',
    );
    targetSeq = target!.seq;
    server = await listen(svc.app);
  });
  afterEach(async () => {
    await server.close();
    await svc.close();
  });

  it('lists the events with abbreviated hashes and verifies the page against the signed checkpoint, redacted ones included', async () => {
    const head = await svc.head();
    const page = await browser.newPage();
    const problems = await watchProblems(page);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname + new URL(r.url()).search));
    await openWithKey(page);
    await page.getByText(`Verified seq 1–${head}`).waitFor();
    expect(await page.locator('#chain-status').textContent()).to.include(
      `in the log ${svc.composed.deps.tlog.latest!.origin}, under its signed checkpoint of ${head} events`,
    );
    // One page, one receipt: no walk from seq 1.
    expect(requests.filter((r) => r.startsWith('/api/'))).to.deep.equal([
      '/api/ledger?after=0&limit=50',
      `/api/ledger/proof/inclusion?seq=${head}`,
    ]);
    const rows = page.locator('#event-rows tr');
    expect(await rows.count()).to.equal(head);
    const seqs = await page.locator('#event-rows tr th').allTextContents();
    expect(seqs.map(Number)).to.deep.equal(Array.from({ length: head }, (_, i) => i + 1));
    expect(await page.locator('#event-rows td', { hasText: 'Redacted' }).count()).to.be.greaterThan(0);
    expect(await page.locator('#chain-status').textContent()).to.match(
      /redacted events checked at link level/,
    );
    // A redacted event's time is part of the content the page does not get: not shown as checked,
    // and not in its detail view beside the hashes.
    const redactedRow = page.locator('#event-rows tr', { has: page.locator('td.redacted') }).first();
    expect(await redactedRow.locator('td').nth(2).textContent()).to.match(/\(not hash-checked\)$/);
    await redactedRow.locator('button.seq-link').click();
    const detail = JSON.parse((await page.locator('#detail-json').textContent()) ?? '{}') as object;
    expect(Object.keys(detail)).to.deep.equal(['seq', 'type', 'content_hash', 'prev_hash', 'hash']);
    await page.keyboard.press('Escape');
    const firstHash = page.locator('#event-rows tr').first().locator('code.hash').nth(2);
    expect(await firstHash.textContent()).to.match(/^[0-9a-f]{8}…[0-9a-f]{4}$/);
    expect(await firstHash.getAttribute('title')).to.match(/^[0-9a-f]{64}$/);
    expect(await page.locator('#event-rows .chain.verified').count()).to.equal(head);
    await screenshot(page, 'mesh-ledger-verified');
    expect(problems.console).to.deep.equal([]);
    expect(problems.pageErrors).to.deep.equal([]);
    expect(await problems.cspViolations()).to.deep.equal([]);
    await page.close();
  });

  it('keeps the key in sessionStorage only, and forgets it on request', async () => {
    const page = await browser.newPage();
    await openWithKey(page);
    await page.locator('#event-rows tr').first().waitFor();
    const stored = await page.evaluate(() => ({
      session: sessionStorage.getItem('plumbline.ledger.key'),
      logKey: sessionStorage.getItem('plumbline.ledger.log-key'),
      local: localStorage.length,
    }));
    expect(stored).to.deep.equal({
      session: lender.key,
      logKey: svc.composed.deps.tlog.verifierKey,
      local: 0,
    });
    await page.getByRole('button', { name: 'Forget key' }).click();
    expect(await page.evaluate(() => sessionStorage.length)).to.equal(0);
    expect(await page.locator('#events-section').isHidden()).to.equal(true);
    await page.close();
  });

  it('pages with next/previous and filters the shown page by type and stream', async () => {
    const head = await svc.head();
    const page = await browser.newPage();
    await openWithKey(page);
    await page.locator('#event-rows tr').first().waitFor();
    await page.getByLabel('Page size').selectOption('25');
    await page.locator('#goto-seq').fill(String(head - 1));
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await page.getByText(`Seq ${head - 1}–${head} of ${head}`).waitFor();
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).to.equal(true);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText(`Seq 1–${Math.min(25, head)} of ${head}`).waitFor();

    await page.getByLabel('Type').selectOption('EntityRegistered');
    const types = await page.locator('#event-rows tr td:nth-child(2)').allTextContents();
    expect(types).to.have.length(3); // the other org's registration is redacted
    expect(new Set(types)).to.deep.equal(new Set(['EntityRegistered']));
    await page.getByLabel('Stream contains').fill('no-such-stream');
    expect(await page.locator('#event-rows tr').count()).to.equal(0);
    expect(await page.locator('#empty-note').isVisible()).to.equal(true);
    await page.close();
  });

  it('shows an event in full in the detail view', async () => {
    const page = await browser.newPage();
    await openWithKey(page);
    await page.getByRole('button', { name: `Details of seq ${targetSeq}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const json = JSON.parse((await dialog.locator('pre').textContent()) ?? '') as Record<string, unknown>;
    expect(json).to.include({ seq: targetSeq, type: 'EntityRegistered' });
    expect(json.data).to.include({ legal_name: 'Tamper Target Construction LLC' });
    expect(await dialog.locator('dd code').first().textContent()).to.equal(json.content_hash);
    await screenshot(page, 'mesh-ledger-detail');
    await page.getByRole('button', { name: 'Close' }).click();
    expect(await dialog.isHidden()).to.equal(true);
    await page.close();
  });

  // Only the envelope's content and link fields are hashed: a field a server adds to an event is
  // covered by nothing, yet the detail view printed it in the event's JSON beside '✓ verified'.
  it('shows in the detail view only the fields the hashes cover, not one the server added', async () => {
    const real = await request(svc.app)
      .get('/api/ledger?after=0&limit=100')
      .set({ 'x-plumbline-api-key': lender.key });
    const events = (real.body.events as Record<string, unknown>[]).map((e) =>
      e.seq === targetSeq ? { ...e, approved_by: 'the lender’s credit committee' } : e,
    );
    const page = await browser.newPage();
    await page.route(
      (url) => url.pathname === '/api/ledger' && url.searchParams.get('after') === '0',
      (route) => route.fulfill({ json: { ...real.body, events } }),
    );
    await openWithKey(page);
    await page.getByText(`Verified seq 1–${await svc.head()}`).waitFor();
    await page.getByRole('button', { name: `Details of seq ${targetSeq}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const text = (await dialog.locator('pre').textContent()) ?? '';
    expect(text).to.not.include('approved_by');
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(json)).to.deep.equal([
      'seq',
      'id',
      'stream',
      'type',
      'schema',
      'data',
      'meta',
      'recorded_at',
      'content_hash',
      'prev_hash',
      'hash',
    ]);
    expect(json.data).to.include({ legal_name: 'Tamper Target Construction LLC' });
    await page.close();
  });

  it('shows a bidirectional override in a name as a \\u escape in the detail view, not as a reversed line', async () => {
    await register(lender, 'Mirror \u202Esredliub');
    const page = await browser.newPage();
    await openWithKey(page);
    const last = await request(svc.app)
      .get('/api/ledger?limit=500')
      .set({ 'x-plumbline-api-key': lender.key });
    const events = last.body.events as { seq: number; data?: { legal_name?: string } }[];
    const seq = events.find((e) => e.data?.legal_name === 'Mirror \u202Esredliub')!.seq;
    await page.getByRole('button', { name: `Details of seq ${seq}` }).click();
    const shown = (await page.getByRole('dialog').locator('pre').textContent()) ?? '';
    expect(shown).to.contain('"legal_name": "Mirror \\u202esredliub"');
    expect(shown).not.to.match(/[\u202A-\u202E\u2066-\u2069]/);
    // Still the event's JSON: it parses to the recorded name.
    expect((JSON.parse(shown) as { data: { legal_name: string } }).data.legal_name).to.equal(
      'Mirror \u202Esredliub',
    );
    await page.close();
  });

  it('marks the first broken link after an event was edited in the SQLite file and the page reloaded', async () => {
    const page = await browser.newPage();
    const problems = await watchProblems(page);
    await openWithKey(page);
    await page.getByText(`Verified seq 1–${await svc.head()}`).waitFor();

    tamper(
      svc,
      `UPDATE events SET content = replace(content, 'Tamper Target', 'Tampered Target') WHERE seq = ${targetSeq}`,
    );
    await page.reload();
    const status = page.locator('#chain-status');
    await page.getByText(`Broken link at seq ${targetSeq}: content hash mismatch`).waitFor();
    expect(await status.textContent()).to.include(`Verified through seq ${targetSeq - 1} before it`);
    const broken = page.locator(`#event-rows tr[data-seq="${targetSeq}"]`);
    expect(await broken.getAttribute('class')).to.equal('row-broken');
    expect(await broken.locator('.chain').textContent()).to.include('content hash mismatch');
    expect(await page.locator('#event-rows tr.row-broken').count()).to.equal(1);
    expect(await page.locator(`#event-rows tr[data-seq="${targetSeq - 1}"]`).getAttribute('class')).to.equal(
      'row-verified',
    );
    expect(await page.locator(`#event-rows tr[data-seq="${targetSeq + 1}"]`).getAttribute('class')).to.equal(
      'row-after-break',
    );
    await screenshot(page, 'mesh-ledger-broken');
    expect(problems.pageErrors).to.deep.equal([]);
    expect(await problems.cspViolations()).to.deep.equal([]);
    await page.close();
  });

  // The explorer trusts nothing the server says: asked for the page after seq 4, a server that
  // answers from seq 1 — its first event altered — had rows 1–4 shown '✓ verified' (the altered
  // one too) under a banner calling seq 1 broken, since rows up to `after` read as verified before
  // any receipt anchored them.
  it('verifies no row of a page the server answered from further back than asked', async () => {
    const real = await request(svc.app)
      .get('/api/ledger?after=0&limit=25')
      .set({ 'x-plumbline-api-key': lender.key });
    const events = real.body.events as { seq: number; hash: string }[];
    expect(events.length).to.be.greaterThan(4);
    events[0]!.hash = 'f'.repeat(64);
    const page = await browser.newPage();
    const problems = await watchProblems(page);
    await page.route(
      (url) => url.pathname === '/api/ledger' && url.searchParams.get('after') === '4',
      (route) => route.fulfill({ json: { ...real.body, events } }),
    );
    await page.goto(`${server.baseUrl}/mesh-ledger.html#after=4&limit=25`);
    await page.getByLabel(/API key with the/).fill(lender.key);
    await page.getByLabel(/Log verifier key/).fill(svc.composed.deps.tlog.verifierKey);
    await page.getByRole('button', { name: 'Use key' }).click();
    await page.getByText(/Broken link at seq 1: /).waitFor();
    expect(await page.locator('#event-rows tr').count()).to.equal(events.length);
    expect(await page.locator('#event-rows tr.row-verified').count()).to.equal(0);
    expect(await page.locator('#event-rows tr[data-seq="1"]').getAttribute('class')).to.equal('row-broken');
    expect(await page.locator('#chain-status').textContent()).to.include(
      'the ledger answered events other than the page asked for',
    );
    expect(problems.pageErrors).to.deep.equal([]);
    await page.close();
  });

  it('verifies a later page with one receipt and the consistency proof from the checkpoint seen before', async () => {
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname + new URL(r.url()).search));
    await openWithKey(page);
    const before = await svc.head();
    await page.getByText(`Verified seq 1–${before}`).waitFor();
    await register(lender, 'Later Steel Erectors LLC');
    const head = await svc.head();
    requests.length = 0;
    await page.locator('#goto-seq').fill(String(head - 1));
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await page.getByText(`Verified seq ${head - 1}–${head} — the ledger head`).waitFor();
    expect(requests.filter((r) => r.startsWith('/api/ledger/proof'))).to.deep.equal([
      `/api/ledger/proof/inclusion?seq=${head}`,
      `/api/ledger/proof/consistency?from=${before}&to=${head}`,
    ]);
    await page.close();
  });

  it('refuses to verify against a verifier key that is not the log’s', async () => {
    const page = await browser.newPage();
    const other = 'plumbline.test/ledger+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k';
    await openWithKey(page, svc.composed.deps.tlog.verifierKey.replace(/\+[0-9a-f]{8}\+/, '+00000000+'));
    await page.getByText(/That is not a log verifier key/).waitFor();
    await openWithKey(page, other.replace('plumbline.test/ledger', 'example.com/foo'));
    const head = await svc.head();
    await page.getByText(`Broken link at seq ${head}: the checkpoint is not signed by the log key`).waitFor();
    expect(await page.locator('#event-rows .chain.verified').count()).to.equal(0);
    await page.close();
  });
  it('searches the whole ledger server-side by type and entity, paging with next_cursor, never matching other orgs’ events', async () => {
    const page = await browser.newPage();
    const problems = await watchProblems(page);
    await openWithKey(page);
    await page.locator('#search-section:not([hidden])').waitFor();
    await page.getByLabel('Event names').fill('EntityRegistered');
    await page.getByRole('button', { name: 'Search the ledger' }).click();
    await page.locator('#search-info', { hasText: 'matching event(s) in the whole ledger' }).waitFor();
    const streams = await page.locator('#search-rows tr td:nth-child(3)').allTextContents();
    // The lender registered three entities; the other org's one never matches.
    expect(streams).to.have.length(3);
    const types = await page.locator('#search-rows tr td:nth-child(2)').allTextContents();
    expect(new Set(types)).to.deep.equal(new Set(['EntityRegistered']));
    // Each result is checked in the browser: rehashed and proven in the signed log.
    await page.locator('#search-rows td.chain.pending').first().waitFor({ state: 'detached' });
    expect(await page.locator('#search-rows td.chain').allTextContents()).to.deep.equal([
      '✓ verified',
      '✓ verified',
      '✓ verified',
    ]);
    const api = await request(svc.app)
      .get('/api/ledger?type=EntityRegistered&limit=2')
      .set({ 'x-plumbline-api-key': lender.key });
    expect(api.body.events).to.have.length(2);
    expect(api.body.next_cursor).to.be.a('string');
    const rest = await request(svc.app)
      .get(`/api/ledger?type=EntityRegistered&limit=2&cursor=${api.body.next_cursor}`)
      .set({ 'x-plumbline-api-key': lender.key });
    expect(rest.body.events).to.have.length(1);
    expect(rest.body.next_cursor).to.equal(null);
    expect(problems.console).to.deep.equal([]);
    expect(await problems.cspViolations()).to.deep.equal([]);
    await page.close();
  });

  it('audits a pasted hash: AUTHENTIC with its receipt, TAMPERED for a hash nothing recorded', async () => {
    const page = await browser.newPage();
    const problems = await watchProblems(page);
    await openWithKey(page);
    await page.locator('#audit-section:not([hidden])').waitFor();
    const event = await request(svc.app)
      .get(`/api/ledger/${targetSeq}`)
      .set({ 'x-plumbline-api-key': lender.key });
    await page.getByLabel(/Event, report, certificate/).fill(String(event.body.hash));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.locator('#audit-result .chain-status.ok').waitFor();
    const text = (await page.locator('#audit-result').textContent()) ?? '';
    expect(text).to.include('AUTHENTIC');
    expect(text).to.include(`event seq ${targetSeq} (EntityRegistered)`);
    expect(await page.locator('#audit-result pre.receipt').textContent()).to.include('inclusion_proof');
    expect(text).to.include('Receipt verified with the log key');
    expect(text).to.include('rehashed here it carries this hash');
    await screenshot(page, 'mesh-ledger-audit');
    await page.getByLabel(/Event, report, certificate/).fill('0'.repeat(64));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.locator('#audit-result .chain-status.bad').waitFor();
    expect(await page.locator('#audit-result').textContent()).to.include('TAMPERED — unknown hash');
    expect(problems.console).to.deep.equal([]);
    expect(await problems.cspViolations()).to.deep.equal([]);
    await page.close();
  });

  // The audit box showed the server's AUTHENTIC in green with whatever receipt came with it: a
  // server vouching for a hash with another event's receipt, or with a receipt whose proof does not
  // lead to the signed root, was shown as verified. The receipt is now checked with the log key.
  it('audits with the receipt checked against the log key: another event’s or an altered receipt is not proof', async () => {
    const { reader, target, genuine } = await genuineAudit();
    const other = await request(svc.app)
      .get(`/api/ledger/receipt?seq=${targetSeq - 1}`)
      .set(reader);
    const altered = structuredClone(genuine.body.receipt) as { inclusion_proof: string[] };
    altered.inclusion_proof[0] = Buffer.alloc(32, 7).toString('base64');
    for (const [receipt, says] of [
      [other.body, `the receipt proves another event (seq ${targetSeq - 1})`],
      [altered, 'the receipt does not verify: not in the log'],
    ] as const) {
      const page = await browser.newPage();
      const problems = await watchProblems(page);
      await page.route('**/api/audit-verify', (route) =>
        route.fulfill({ json: { ...genuine.body, receipt } }),
      );
      const text = await auditRefused(page, problems, String(target.body.hash));
      expect(text).to.include(`Not proven by the log: ${says}`);
      await page.close();
    }
  });

  it('does not show a forged AUTHENTIC answer as verified: the proven event must carry the hash, rehashed in the browser', async () => {
    const { target, genuine } = await genuineAudit();
    expect(genuine.body.verdict).to.equal('AUTHENTIC');
    // A server (or anyone between) vouching for a hash nothing recorded as an artifact of a real
    // event, with that event's genuine receipt; then for the event's own hash with its content altered.
    const forged = {
      ...genuine.body,
      reason: 'ARTIFACT_VERIFIED',
      match: { ...genuine.body.match, kind: 'credit_report' },
    };
    for (const [hash, alter, says] of [
      ['7'.repeat(64), false, `event seq ${targetSeq} does not carry this hash`],
      [String(target.body.hash), true, `event seq ${targetSeq}: content hash mismatch`],
    ] as const) {
      const page = await browser.newPage();
      const problems = await watchProblems(page);
      await page.route('**/api/audit-verify', (route) =>
        route.fulfill({ json: alter ? genuine.body : forged }),
      );
      if (alter)
        await page.route(`**/api/ledger/${targetSeq}`, async (route) => {
          const response = await route.fetch();
          const event = (await response.json()) as { data: { legal_name: string } };
          event.data.legal_name = 'Someone Else LLC';
          await route.fulfill({ response, json: event });
        });
      expect(await auditRefused(page, problems, hash)).to.include(`Not proven by the log: ${says}.`);
      await page.close();
    }
  });

  it('does not show an altered search result as verified: each result is rehashed and proven in the signed log', async () => {
    const page = await browser.newPage();
    const problems = await watchProblems(page);
    await openWithKey(page);
    await page.locator('#search-section:not([hidden])').waitFor();
    // The server (or anyone between) answers the search with one event's name changed.
    const isSearch = (url: URL) => url.pathname === '/api/ledger' && url.searchParams.has('type');
    await page.route(isSearch, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { events: { seq: number; data: { legal_name: string } }[] };
      for (const e of body.events) if (e.seq === targetSeq) e.data.legal_name = 'Someone Else LLC';
      await route.fulfill({ response, json: body });
    });
    await page.getByLabel('Event names').fill('EntityRegistered');
    await page.getByRole('button', { name: 'Search the ledger' }).click();
    await page.locator('#search-info', { hasText: 'matching event(s) in the whole ledger' }).waitFor();
    await page.locator('#search-rows td.chain.pending').first().waitFor({ state: 'detached' });
    const rows = await page
      .locator('#search-rows tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.children[0]!.textContent, tr.lastElementChild!.textContent]));
    expect(rows).to.have.length(3);
    for (const [seq, chain] of rows)
      expect(chain, `seq ${seq}`).to.equal(
        Number(seq) === targetSeq ? '✗ not verified: content hash mismatch' : '✓ verified',
      );
    expect(await page.locator('#search-rows tr.row-broken').count()).to.equal(1);
    expect(problems.pageErrors).to.deep.equal([]);
    expect(await problems.cspViolations()).to.deep.equal([]);
    await page.close();
  });
});
