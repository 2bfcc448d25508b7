import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  abaValid,
  bicValid,
  eraseSubject,
  ibanValid,
  maskAccount,
  revealAccount,
  sealAccount,
} from '../../../src/accounts/index.js';
import { accountHmac } from '../../../src/accounts/vault.js';
import { payeeAccountGate } from '../../../src/payments/index.js';
import { writeFileAtomically } from '../../../src/platform/atomic-file.js';
import { anAccount } from '../payments/fixtures.js';

describe('bank accounts (issue 15, docs/duties.md)', () => {
  it('checks ABA routing numbers by their 3-7-1 checksum', () => {
    expect(abaValid('021000021')).to.equal(true);
    expect(abaValid('121000358')).to.equal(true);
    expect(abaValid('021000022')).to.equal(false);
    expect(abaValid('02100002')).to.equal(false);
  });

  it('checks IBANs by ISO 13616 mod-97 and BICs by ISO 9362 shape', () => {
    expect(ibanValid('GB82 WEST 1234 5698 7654 32')).to.equal(true);
    expect(ibanValid('DE89370400440532013000')).to.equal(true);
    expect(ibanValid('GB82WEST12345698765433')).to.equal(false);
    expect(bicValid('DEUTDEFF')).to.equal(true);
    expect(bicValid('DEUTDEFF500')).to.equal(true);
    expect(bicValid('DEUT1EFF')).to.equal(false);
    expect(maskAccount('4000123456')).to.equal('****3456');
  });

  it('seals numbers under a per-subject key (0600) and erases them by deleting the key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vault-'));
    try {
      const hmac = sealAccount(dir, 'org_a/ent_x', 'acct_one', '7765432109');
      sealAccount(dir, 'org_a/org', 'acct_two', '4000123456');
      expect(hmac).to.match(/^[0-9a-f]{64}$/);
      expect(statSync(join(dir, 'keys.json')).mode & 0o777).to.equal(0o600);
      expect(revealAccount(dir, 'acct_one')).to.equal('7765432109');
      expect(eraseSubject(dir, 'org_a/ent_x')).to.equal(true);
      expect(revealAccount(dir, 'acct_one')).to.equal(null);
      expect(revealAccount(dir, 'acct_two')).to.equal('4000123456');
      expect(eraseSubject(dir, 'org_a/ent_x')).to.equal(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reveals what the vault files hold at the moment of the call, whoever last wrote them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vault-'));
    try {
      const hmac = sealAccount(dir, 'org_a/ent_x', 'acct_one', '7765432109');
      expect(revealAccount(dir, 'acct_one')).to.equal('7765432109');
      expect(accountHmac(dir, 'org_a/ent_x', '7765432109')).to.equal(hmac);
      // Another writer (another process, an operator's restore) replaces the files: the next look-up
      // answers from them, not from what this process parsed before.
      const keys = join(dir, 'keys.json');
      const saved = readFileSync(keys, 'utf8');
      writeFileAtomically(keys, JSON.stringify({}), 0o600);
      expect(revealAccount(dir, 'acct_one')).to.equal(null);
      expect(accountHmac(dir, 'org_a/ent_x', '7765432109')).to.equal(null);
      writeFileAtomically(keys, saved, 0o600);
      expect(revealAccount(dir, 'acct_one')).to.equal('7765432109');
      // Rewritten in place, at the same size: still seen.
      const accounts = join(dir, 'accounts.json');
      const text = readFileSync(accounts, 'utf8');
      writeFileSync(accounts, text.replace('acct_one', 'acct_uno'));
      expect(revealAccount(dir, 'acct_one')).to.equal(null);
      writeFileSync(accounts, text);
      expect(revealAccount(dir, 'acct_one')).to.equal('7765432109');
      // Removed: nothing to reveal.
      rmSync(accounts);
      expect(revealAccount(dir, 'acct_one')).to.equal(null);
      // This process's own erase is seen at once too.
      sealAccount(dir, 'org_a/ent_x', 'acct_one', '7765432109');
      expect(revealAccount(dir, 'acct_one')).to.equal('7765432109');
      expect(eraseSubject(dir, 'org_a/ent_x')).to.equal(true);
      expect(revealAccount(dir, 'acct_one')).to.equal(null);
      expect(accountHmac(dir, 'org_a/ent_x', '7765432109')).to.equal(null);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('payee_account_stable gate', () => {
    const debtor = anAccount('acct_disbursementdis', 'DISBURSEMENT', '2026-01-05T00:00:00.000Z');
    const base = { debtor_account: debtor, today: '2026-03-06', rail: 'ACH' as const };

    it('fails a payee account registered within 10 days of the payment until a second lender key re-verifies it', () => {
      const fresh = anAccount('acct_freshfreshfresh', 'PAYEE', '2026-03-01T09:00:00.000Z');
      expect(payeeAccountGate({ ...base, creditor_account: fresh })).to.deep.equal({
        gate: 'payee_account_stable',
        passed: false,
        detail:
          'acct_freshfreshfresh was registered on 2026-03-01, within 10 days of the payment, and no second lender key re-verified it',
      });
      const sameKey = { ...fresh, reverified_by: ['key_first'] };
      expect(payeeAccountGate({ ...base, creditor_account: sameKey }).passed).to.equal(false);
      const second = { ...fresh, reverified_by: ['key_second'] };
      expect(payeeAccountGate({ ...base, creditor_account: second }).passed).to.equal(true);
    });

    it('passes a payee account older than the window; fails an erased or missing one', () => {
      const old = anAccount('acct_oldoldoldoldoldo', 'PAYEE', '2026-02-24T00:00:00.000Z');
      expect(payeeAccountGate({ ...base, creditor_account: old }).passed).to.equal(true);
      expect(payeeAccountGate({ ...base, creditor_account: { ...old, erased: true } }).detail).to.equal(
        'acct_oldoldoldoldoldo is erased',
      );
      expect(payeeAccountGate({ ...base, creditor_account: null }).detail).to.equal(
        'no account is registered for the payee',
      );
      expect(payeeAccountGate({ ...base, debtor_account: null, creditor_account: old }).detail).to.equal(
        'the lender has no disbursement account',
      );
    });
  });
});
