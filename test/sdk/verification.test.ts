import { expect } from 'chai';
import type { IssuedKey } from '../../src/orgs/keys.js';
import type { LedgerEntry, LedgerEvent } from '../../src/sdk/index.js';
import { startService, type TestService } from '../support/service.js';
import { governedProject } from './fixtures.js';
import { listen, loadBuiltSdk, type Listening, type Sdk } from './harness.js';

describe('SDK verification: response signatures and the ledger chain', function () {
  this.timeout(60_000);
  let sdk: Sdk;
  let svc: TestService;
  let server: Listening;
  let lender: IssuedKey;
  let rival: IssuedKey;

  before(async () => {
    sdk = await loadBuiltSdk();
    svc = await startService({ now: '2026-06-10T12:00:00Z' });
    lender = await svc.key('First Builders Bank');
    rival = await svc.key('Second Street Capital');
    server = await listen(svc.app);
    // Interleave two orgs' facts so the lender's ledger pages contain redacted events.
    const mine = new sdk.Plumbline({ baseUrl: server.baseUrl, apiKey: lender.key });
    const theirs = new sdk.Plumbline({ baseUrl: server.baseUrl, apiKey: rival.key });
    await governedProject(mine);
    await theirs.createEntity({ legal_name: 'Rival Owner LLC', roles: ['owner'] });
    await mine.createEntity({ legal_name: 'Plain Supply Co', roles: ['supplier'] });
  });
  after(async () => {
    await server.close();
    await svc.close();
  });

  const signedUsage = () =>
    fetch(`${server.baseUrl}/api/lender-credit?action=usage`, {
      method: 'POST',
      headers: { 'x-plumbline-api-key': lender.key },
    });
  const now = () => svc.clock.now();

  describe('verifySignature', () => {
    it('accepts an untouched response with the key’s signing secret', async () => {
      const response = await signedUsage();
      const check = await sdk.verifySignature(response, lender.signing_secret, { now: now() });
      expect(check).to.include({ valid: true, kid: lender.key_id });
      // The check read a clone: the caller can still read the body.
      expect(((await response.json()) as { ok: boolean }).ok).to.equal(true);
    });

    it('rejects another secret, an altered body and a stale timestamp', async () => {
      const response = await signedUsage();
      const headers = response.headers;
      const bodyText = await response.text();
      expect(
        await sdk.verifySignature({ headers, bodyText }, rival.signing_secret, { now: now() }),
      ).to.include({
        valid: false,
        reason: 'mismatch',
      });
      const altered = bodyText.replace('"used":0', '"used":1');
      expect(altered).to.not.equal(bodyText);
      expect(
        await sdk.verifySignature({ headers, bodyText: altered }, lender.signing_secret, { now: now() }),
      ).to.include({ valid: false, reason: 'mismatch' });
      const later = new Date(now().getTime() + 301_000);
      expect(
        await sdk.verifySignature({ headers, bodyText }, lender.signing_secret, { now: later }),
      ).to.include({
        valid: false,
        reason: 'stale',
      });
      expect(
        await sdk.verifySignature({ headers, bodyText }, lender.signing_secret, {
          now: later,
          toleranceSeconds: 400,
        }),
      ).to.include({ valid: true });
    });

    it('rejects a Content-Digest that does not match the body, and an unsigned response', async () => {
      const response = await signedUsage();
      const bodyText = await response.text();
      const headers = Object.fromEntries(response.headers.entries());
      headers['content-digest'] = 'sha-256=:AAAA:';
      expect(
        await sdk.verifySignature({ headers, bodyText }, lender.signing_secret, { now: now() }),
      ).to.include({
        valid: false,
        reason: 'digest_mismatch',
      });
      const discovery = await fetch(`${server.baseUrl}/api/lender-credit`);
      expect(await sdk.verifySignature(discovery, lender.signing_secret)).to.deep.equal({
        valid: false,
        reason: 'missing',
      });
    });
  });

  describe('verifyChain', () => {
    const client = () => new sdk.Plumbline({ baseUrl: server.baseUrl, apiKey: lender.key });

    it('verifies a full page with other orgs’ events redacted (links only)', async () => {
      const page = await client().ledgerPage({ limit: 500 });
      const redacted = page.events.filter((e) => e.type === 'Redacted');
      expect(redacted.length, 'the rival org’s events are redacted').to.be.greaterThan(0);
      const result = sdk.verifyChain(page.events);
      expect(result).to.deep.include({
        ok: true,
        checked: page.events.length,
        first_broken_seq: null,
        issues: [],
      });
      expect(result.redacted).to.equal(redacted.length);
    });

    it('verifies a later page from the event before it', async () => {
      const first = await client().ledgerPage({ limit: 4 });
      const rest = await client().ledgerPage({ after: 4, limit: 500 });
      const anchor = first.events[3]!;
      expect(sdk.verifyChain(rest.events, { from: { seq: anchor.seq, hash: anchor.hash } }).ok).to.equal(
        true,
      );
      const wrongAnchor = sdk.verifyChain(rest.events, { from: { seq: 4, hash: 'f'.repeat(64) } });
      expect(wrongAnchor.first_broken_seq).to.equal(5);
      expect(wrongAnchor.issues[0]!.code).to.equal('broken_link');
    });

    it('names the seq of a tampered event and reports it once', async () => {
      const { events } = await client().ledgerPage({ limit: 500 });
      const target = events.find((e): e is LedgerEvent => e.type !== 'Redacted' && e.seq > 2)!;
      const tampered: LedgerEntry[] = events.map((e) =>
        e.seq === target.seq ? { ...target, data: { ...(target.data as object), forged: true } } : e,
      );
      const result = sdk.verifyChain(tampered);
      expect(result.ok).to.equal(false);
      expect(result.first_broken_seq).to.equal(target.seq);
      expect(result.issues).to.have.length(1);
      expect(result.issues[0]).to.include({ code: 'content_hash_mismatch', seq: target.seq });
    });

    it('catches a redacted event whose content_hash was swapped, by its link hash', async () => {
      const { events } = await client().ledgerPage({ limit: 500 });
      const target = events.find((e) => e.type === 'Redacted')!;
      const tampered = events.map((e) => (e.seq === target.seq ? { ...e, content_hash: 'a'.repeat(64) } : e));
      const result = sdk.verifyChain(tampered);
      expect(result.first_broken_seq).to.equal(target.seq);
      expect(result.issues.map((i) => i.code)).to.deep.equal(['hash_mismatch']);
    });
  });
});
