import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { revealAccount, vaultDir } from '../../src/accounts/index.js';
import { gcAccount, LENDER_ESCROW, startJourney, type DrawJourney } from '../support/draw-journey.js';

/**
 * Accounts and payee controls (issue 15, docs/duties.md): validated bank accounts, numbers only in
 * the vault (masked + HMAC in the ledger), crypto-shredding, and the payee_account_stable gate.
 */
describe('accounts and payee controls (issue 15)', function () {
  this.timeout(60_000);
  let j: DrawJourney;
  const auth = () => ({ Authorization: `Bearer ${j.lender.key}` });
  const gateOf = async (name: string) => {
    const res = await j.post('/api/payment-push', { draw_id: j.drawId });
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    const gates = res.body.gates as { gate: string; passed: boolean; detail: string }[];
    expect(gates.filter((g) => !g.passed).map((g) => g.gate)).to.deep.equal([name]);
    return gates.find((g) => g.gate === name)!.detail;
  };

  beforeEach(async () => {
    j = await startJourney();
  });
  afterEach(async () => {
    await j.svc.close();
  });

  it('refuses an invalid ABA routing number, IBAN or BIC, recording nothing', async () => {
    const before = await j.svc.head();
    const bad = [
      { ...gcAccount(j.gc), aba_routing: '121000359' },
      { ...gcAccount(j.gc), account_number: '12' },
      {
        purpose: 'PAYEE',
        entity_id: j.gc,
        holder_name: 'Keystone',
        iban: 'DE89370400440532013001',
        bic: 'COBADEFF',
        verification: { method: 'callback', verified_on: '2026-06-01' },
      },
      {
        purpose: 'PAYEE',
        entity_id: j.gc,
        holder_name: 'Keystone',
        iban: 'DE89370400440532013000',
        verification: { method: 'callback', verified_on: '2026-06-01' },
      },
    ];
    for (const body of bad) {
      const res = await j.post('/api/accounts', body);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
    }
    expect(await j.svc.head()).to.equal(before);
  });

  it('refuses a verification dated after today (400 out_of_range), recording nothing; today is taken', async () => {
    // A callback or micro-deposit dated tomorrow has not happened yet.
    const now = j.svc.clock.now();
    const today = now.toISOString().slice(0, 10);
    const tomorrow = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
    const before = await j.svc.head();
    for (const verified_on of [tomorrow, '2999-12-31']) {
      const res = await j.post('/api/accounts', {
        ...gcAccount(j.gc, '5550001111'),
        verification: { method: 'callback', verified_on },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
      expect(res.body.errors).to.deep.include({
        path: 'verification.verified_on',
        code: 'out_of_range',
        message: res.body.detail,
      });
    }
    expect(await j.svc.head()).to.equal(before);
    const taken = await j.post('/api/accounts', {
      ...gcAccount(j.gc, '5550001111'),
      verification: { method: 'callback', verified_on: today },
    });
    expect(taken.status, JSON.stringify(taken.body)).to.equal(201);
  });

  it('keeps the number out of the ledger and responses: masked and HMAC only', async () => {
    const shown = await request(j.svc.app).get(`/api/accounts/${j.accounts.gc}`).set(auth());
    expect(shown.body).to.include({
      masked: '****2109',
      erased: false,
      scheme: 'US_ABA',
      aba_routing: '121000358',
    });
    expect(shown.body.fingerprint).to.match(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(shown.body)).to.not.include('7765432109');
    const ledger = await request(j.svc.app).get('/api/ledger?limit=500').set(auth());
    expect(JSON.stringify(ledger.body)).to.not.include('7765432109');
    expect(revealAccount(vaultDir(j.svc.dataDir), j.accounts.gc)).to.equal('7765432109');
  });

  it('fails payee_account_stable for a payee account changed days before payment until a second lender key re-verifies it', async () => {
    await j.readyToPay();
    const changed = await j.created('/api/accounts', gcAccount(j.gc, '5550001111'));
    expect(await gateOf('payee_account_stable')).to.equal(
      `${changed} was registered on 2026-06-03, within 10 days of the payment, and no second lender key re-verified it`,
    );
    const same = await j.post(`/api/accounts/${changed}/verify`, { method: 'callback' });
    expect(same.status, JSON.stringify(same.body)).to.equal(409);
    const second = await j.svc.key('First Builders Bank');
    const reverified = await j.post(
      `/api/accounts/${changed}/verify`,
      { method: 'callback', reference: 'CFO call-back' },
      second,
    );
    expect(reverified.status, JSON.stringify(reverified.body)).to.equal(201);
    const paid = await j.post('/api/payment-push', { draw_id: j.drawId });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
    const files = readdirSync(join(j.svc.dataDir, 'payments'));
    const xml = readFileSync(join(j.svc.dataDir, 'payments', files[0]!), 'utf8');
    expect(xml).to.include('<Id>5550001111</Id>');
    expect(xml).to.include('<MmbId>121000358</MmbId>');
  });

  it('no longer counts a re-verification by a key revoked since: the payee account is held again until another key re-verifies it', async () => {
    await j.readyToPay();
    const changed = await j.created('/api/accounts', gcAccount(j.gc, '5550001111'));
    const held = `${changed} was registered on 2026-06-03, within 10 days of the payment, and no second lender key re-verified it`;
    const second = await j.svc.key('First Builders Bank');
    const verify = (key: typeof second) =>
      j.post(`/api/accounts/${changed}/verify`, { method: 'callback', reference: 'CFO call-back' }, key);
    expect((await verify(second)).status).to.equal(201);
    // The second key is revoked (say, the laptop holding it was stolen): its call-back vouches for nothing.
    const admin = await j.svc.key('First Builders Bank', ['admin']);
    const revoked = await request(j.svc.app)
      .post(`/api/keys/${second.key_id}/revoke`)
      .set('Authorization', `Bearer ${admin.key}`)
      .send({ reason: 'laptop stolen' });
    expect(revoked.status, JSON.stringify(revoked.body)).to.equal(200);
    expect(await gateOf('payee_account_stable')).to.equal(held);
    const third = await j.svc.key('First Builders Bank');
    expect((await verify(third)).status).to.equal(201);
    const paid = await j.post('/api/payment-push', { draw_id: j.drawId });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
  });

  it('erases a payee’s accounts by deleting its data key: undecryptable, shown erased, unpayable', async () => {
    await j.readyToPay();
    const erased = await j.post('/api/accounts/erase', { entity_id: j.gc });
    expect(erased.status, JSON.stringify(erased.body)).to.equal(201);
    expect(erased.body.key_deleted).to.equal(true);
    expect(revealAccount(vaultDir(j.svc.dataDir), j.accounts.gc)).to.equal(null);
    const shown = await request(j.svc.app).get(`/api/accounts/${j.accounts.gc}`).set(auth());
    expect(shown.body).to.include({ erased: true, masked: null, fingerprint: null });
    // The lender's own accounts are another subject: untouched.
    expect(revealAccount(vaultDir(j.svc.dataDir), j.accounts.disbursement)).to.equal('4000123456');
    expect(await gateOf('payee_account_stable')).to.equal(`${j.accounts.gc} is erased`);
    expect((await j.post('/api/accounts/erase', { entity_id: j.gc })).status).to.equal(404);
  });

  it('pays escrow as a book transfer to the lender’s escrow account', async () => {
    await j.readyToPay();
    const paid = await j.post('/api/payment-push', { draw_id: j.drawId, rail: 'ESCROW' });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
    const files = readdirSync(join(j.svc.dataDir, 'payments'));
    const xml = readFileSync(join(j.svc.dataDir, 'payments', files[0]!), 'utf8');
    expect(xml).to.include('<Prtry>BOOK</Prtry>');
    expect(xml).to.include('<Id>4000998877</Id>');
  });

  it('holds an escrow push to an escrow account changed days before payment until a second lender key re-verifies it', async () => {
    // The money reaches whichever account was registered last: switching the escrow account and
    // asking for ESCROW must not be a way around the window the payee account is held to.
    await j.readyToPay();
    const changed = await j.created('/api/accounts', { ...LENDER_ESCROW, account_number: '5550002222' });
    const refused = await j.post('/api/payment-push', { draw_id: j.drawId, rail: 'ESCROW' });
    expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
    const gates = refused.body.gates as { gate: string; passed: boolean; detail: string }[];
    expect(gates.filter((g) => !g.passed).map((g) => g.gate)).to.deep.equal(['payee_account_stable']);
    expect(gates.find((g) => g.gate === 'payee_account_stable')!.detail).to.equal(
      `${changed} was registered on 2026-06-03, within 10 days of the payment, and no second lender key re-verified it`,
    );
    expect(existsSync(join(j.svc.dataDir, 'payments'))).to.equal(false);
    const second = await j.svc.key('First Builders Bank');
    const reverified = await j.post(`/api/accounts/${changed}/verify`, { method: 'callback' }, second);
    expect(reverified.status, JSON.stringify(reverified.body)).to.equal(201);
    const paid = await j.post('/api/payment-push', { draw_id: j.drawId, rail: 'ESCROW' });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
  });
});
