/**
 * OWASP API2:2023 — Broken Authentication.
 *
 * Proves that the credit report PDF — the one route that takes a credential in its URL — does not
 * leak it or over-trust it: the access log redacts the key however its parameter name is
 * percent-encoded (`%6Bey=` is `key=` to the query parser, so it is to the redactor); a key in the
 * query string is accepted only when it holds `credit:read` itself (an `admin` key that merely
 * implies it is refused there, though it works in a header); every answer carries
 * `Referrer-Policy: no-referrer` and `Cache-Control: no-store`; and the signed link from
 * `action=pdf_link` that replaces the key opens that one entity's report as the asking key, for
 * at most 300 seconds, and nothing once altered, expired, moved to another entity or combined with a
 * key — while asking for a link does not count against the quota and opening it does.
 */
import { expect } from 'chai';
import request from 'supertest';
import type { IssuedKey } from '../../src/orgs/keys.js';
import type { Logger } from '../../src/platform/log.js';
import { createServer } from 'node:http';
import { Plumbline } from '../../src/sdk/client.js';
import { binary } from '../support/binary.js';
import { startService, type TestService } from '../support/service.js';

const PDF = '/api/credit-report-pdf';

describe('OWASP API2 — broken authentication (the PDF link)', function () {
  this.timeout(120_000);
  let svc: TestService;
  let reader: IssuedKey;
  const lines: string[] = [];
  const capture = (msg: string, fields?: Record<string, unknown>) =>
    lines.push(JSON.stringify({ msg, ...fields }));
  const logger: Logger = { debug: capture, info: capture, warn: capture, error: capture };

  before(async () => {
    svc = await startService({ now: '2026-06-15T12:00:00Z', compose: { logger } });
    reader = await svc.key('First Builders Bank', ['credit:read', 'governance:write']);
    const ent = await request(svc.app)
      .post('/api/entities')
      .set('Authorization', `Bearer ${reader.key}`)
      .send({ legal_name: 'Keystone Builders, Inc.', roles: ['general_contractor'] });
    expect(ent.status, JSON.stringify(ent.body)).to.equal(201);
    await request(svc.app)
      .post('/api/entities')
      .set('Authorization', `Bearer ${reader.key}`)
      .send({ legal_name: 'Other Framing LLC', roles: ['subcontractor'] })
      .expect(201);
  });
  after(async () => {
    await svc.close();
  });

  const pdf = (query: string) => request(svc.app).get(`${PDF}?${query}`).buffer(true).parse(binary);
  const usage = async (k: IssuedKey) =>
    (await request(svc.app).post('/api/lender-credit?action=usage').set('x-plumbline-api-key', k.key))
      .body as {
      used: number;
      by_action: Record<string, number>;
    };

  describe('a key in the query string', () => {
    it('never reaches the access log, whatever the spelling of its parameter name', async () => {
      for (const name of ['key', '%6Bey', '%6B%65%79', 'k%65y']) {
        const res = await pdf(`entity=Keystone%20Builders&${name}=${reader.key}`);
        expect(res.status, name).to.equal(200);
      }
      const logged = lines.filter((l) => l.includes(PDF));
      expect(logged.length).to.be.at.least(4);
      for (const line of logged) expect(line).to.not.contain(reader.key);
      expect(logged.filter((l) => l.includes('[REDACTED]')).length).to.be.at.least(4);
    });

    it('is accepted only when it holds credit:read itself; an admin key works only in a header', async () => {
      const admin = await svc.key('First Builders Bank', ['admin']);
      const inQuery = await pdf(`entity=Keystone%20Builders&key=${admin.key}`);
      expect(inQuery.status).to.equal(403);
      expect(JSON.parse(inQuery.body.toString()).detail).to.contain('query string');
      const inHeader = await request(svc.app)
        .get(`${PDF}?entity=Keystone%20Builders`)
        .set('Authorization', `Bearer ${admin.key}`)
        .buffer(true)
        .parse(binary);
      expect(inHeader.status).to.equal(200);
      const writer = await svc.key('First Builders Bank', ['governance:write']);
      expect((await pdf(`entity=Keystone%20Builders&key=${writer.key}`)).status).to.equal(403);
    });

    it('gets Referrer-Policy: no-referrer and Cache-Control: no-store on success and failure alike', async () => {
      for (const query of [
        `entity=Keystone%20Builders&key=${reader.key}`,
        'entity=Keystone%20Builders&key=nope',
      ]) {
        const res = await pdf(query);
        expect(res.headers['referrer-policy'], query).to.equal('no-referrer');
        expect(res.headers['cache-control'], query).to.equal('no-store');
      }
    });
  });

  describe('the signed link (action=pdf_link)', () => {
    let k: IssuedKey;
    let link: { url: string; expires_at: string; entity: string };

    before(async () => {
      k = await svc.key('Second Street Bank', ['credit:read']);
      const res = await request(svc.app)
        .post('/api/lender-credit?action=pdf_link')
        .set('x-plumbline-api-key', k.key)
        .send({ entity: 'Keystone Builders' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      link = res.body;
    });
    const pathOf = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
    const tokenOf = (url: string) => new URL(url).searchParams.get('link')!;
    const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

    it('holds no key, expires within 300 seconds and does not count', async () => {
      expect(link.url).to.not.contain(k.key);
      expect(link.url).to.not.contain('key=');
      const ttl = (Date.parse(link.expires_at) - svc.clock.now().getTime()) / 1000;
      expect(ttl).to.be.greaterThan(0).and.at.most(300);
      expect(await usage(k)).to.deep.include({ used: 0, by_action: {} });
    });

    it('opens the report as the asking key, counted like the PDF', async () => {
      const res = await request(svc.app).get(pathOf(link.url)).buffer(true).parse(binary);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/pdf');
      expect(res.headers['referrer-policy']).to.equal('no-referrer');
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(await usage(k)).to.deep.include({ used: 1, by_action: { pdf: 1 } });
      const logged = lines.filter((l) => l.includes(PDF) && l.includes(k.key_id));
      for (const line of logged) expect(line).to.not.contain(tokenOf(link.url));
    });

    it('opens nothing for another entity, once altered, combined with a key, or after it expires', async () => {
      const token = tokenOf(link.url);
      // The second-to-last character changes (the last one's low bits are base64url padding), and
      // always to another character: the choice looks at the character it replaces.
      const flipped = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.slice(-1)}`;
      expect(flipped).to.not.equal(token);
      // The last character too: 43 base64url characters carry 258 bits for a 256-bit MAC, so a last
      // character differing in its two low bits decodes to the same bytes. One link, one spelling.
      const lastIndex = BASE64URL.indexOf(token.at(-1)!);
      const padded = `${token.slice(0, -1)}${BASE64URL[lastIndex ^ 1]}`;
      expect(padded).to.not.equal(token);
      const refused = [
        `entity=Keystone%20Builders&link=${encodeURIComponent(padded)}`,
        `entity=Other%20Framing&link=${encodeURIComponent(token)}`,
        `entity=Keystone%20Builders&link=${encodeURIComponent(flipped)}`,
        `entity=Keystone%20Builders&link=not-a-token`,
        `entity=Keystone%20Builders&link=${encodeURIComponent(token)}&key=${reader.key}`,
      ];
      for (const query of refused) {
        const res = await pdf(query);
        expect(res.status, query).to.equal(401);
        expect(res.headers['referrer-policy']).to.equal('no-referrer');
      }
      svc.clock.advance(301_000);
      const expired = await request(svc.app).get(pathOf(link.url)).buffer(true).parse(binary);
      expect(expired.status).to.equal(401);
      expect(await usage(k)).to.deep.include({ used: 1 });
    });

    it('is what the SDK hands out (creditReportPdfLink), and the link it gives opens the PDF', async () => {
      const server = createServer(svc.app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      try {
        const sdk = new Plumbline({
          baseUrl: base,
          apiKey: k.key,
          signingSecret: k.signing_secret,
          now: () => svc.clock.now(),
        });
        const fresh = await sdk.creditReportPdfLink('Keystone Builders');
        expect(fresh.url).to.not.contain(k.key);
        const opened = await request(svc.app).get(pathOf(fresh.url)).buffer(true).parse(binary);
        expect(opened.status).to.equal(200);
        expect(opened.headers['content-type']).to.equal('application/pdf');
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('answers 404 with candidates for an entity it cannot resolve, instead of a link that opens nothing', async () => {
      const before = await usage(k);
      const res = await request(svc.app)
        .post('/api/lender-credit?action=pdf_link')
        .set('x-plumbline-api-key', k.key)
        .send({ entity: 'Keystone' });
      expect(res.status, JSON.stringify(res.body)).to.equal(404);
      expect(res.body).to.include({ ok: false, code: 'NOT_FOUND' });
      expect(res.body.candidates[0]).to.include({ entity: 'Keystone Builders, Inc.' });
      expect(await usage(k)).to.deep.equal(before);
    });

    it('names the entity it resolved, and its link opens that entity by id', async () => {
      const res = await request(svc.app)
        .post('/api/lender-credit?action=pdf_link')
        .set('x-plumbline-api-key', k.key)
        .send({ entity: 'KEYSTONE BUILDERS INC' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.entity).to.equal('Keystone Builders, Inc.');
      expect(res.body.entity_id).to.match(/^ent_[a-z2-7]{16}$/);
      expect(new URL(res.body.url as string).searchParams.get('entity')).to.equal(res.body.entity_id);
      const opened = await request(svc.app)
        .get(res.body.path as string)
        .buffer(true)
        .parse(binary);
      expect(opened.status).to.equal(200);
      expect(opened.headers['content-disposition']).to.contain(res.body.entity_id as string);
    });

    it('is refused for a key without credit:read', async () => {
      const writer = await svc.key('Second Street Bank', ['governance:write']);
      const res = await request(svc.app)
        .post('/api/lender-credit?action=pdf_link')
        .set('x-plumbline-api-key', writer.key)
        .send({ entity: 'Keystone Builders' });
      expect(res.status).to.equal(403);
    });
  });
});
