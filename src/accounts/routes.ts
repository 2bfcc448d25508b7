/**
 * Bank accounts over HTTP (docs/duties.md). The route seals the number in the account vault
 * (outside the ledger) before the registration is decided, and discards it if the ledger refuses;
 * responses show the masked number and whether the vault can still decrypt it.
 */
import type { Response } from 'express';
import { z } from 'zod';
import { accountsProjection } from '../../projections/accounts.js';
import { registryProjection } from '../../projections/registry.js';
import { authOf } from '../platform/http/context.js';
import { runCommand } from '../platform/http/command.js';
import { ProblemError } from '../platform/http/problem.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { nameText, parseWith } from '../platform/http/validate.js';
import {
  accountIdOf,
  decideEraseSubject,
  decideRegisterAccount,
  decideReverifyAccount,
  type AccountsDecided,
} from './decide.js';
import { ACCOUNT_PURPOSES, VERIFICATION_METHODS, getAccount, subjectOf, type BankAccount } from './facts.js';
import { abaValid, bicValid, ibanValid, maskAccount, normalizeIban, usAccountValid } from './validate.js';
import { accountHmac, discardAccount, eraseSubject, revealAccount, sealAccount, vaultDir } from './vault.js';

const verification = z.strictObject({
  method: z.enum(VERIFICATION_METHODS),
  reference: nameText(140).optional(),
  verified_on: z.iso.date(),
});

export const RegisterAccountBody = z
  .strictObject({
    purpose: z.enum(ACCOUNT_PURPOSES),
    /** The payee (PAYEE accounts); absent for the lender org's own accounts. */
    entity_id: z
      .string()
      .regex(/^ent_[a-z2-7]{16}$/)
      .optional(),
    holder_name: nameText(140),
    aba_routing: z.string().optional(),
    account_number: z.string().optional(),
    iban: z.string().optional(),
    bic: z.string().optional(),
    verification,
  })
  .superRefine((b, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if ((b.purpose === 'PAYEE') !== (b.entity_id !== undefined))
      issue('entity_id', 'a PAYEE account names its entity; the lender’s own accounts do not');
    if (b.iban !== undefined) {
      if (!ibanValid(b.iban)) issue('iban', 'not a valid IBAN (ISO 13616 mod-97 check failed)');
      if (b.bic === undefined || !bicValid(b.bic)) issue('bic', 'an IBAN needs a valid BIC (ISO 9362)');
      if (b.aba_routing !== undefined || b.account_number !== undefined)
        issue('iban', 'give an IBAN or an ABA routing and account number, not both');
      return;
    }
    if (b.aba_routing === undefined || !abaValid(b.aba_routing))
      issue('aba_routing', 'not a valid ABA routing number (9 digits, checksum 3-7-1)');
    if (b.account_number === undefined || !usAccountValid(b.account_number))
      issue('account_number', 'a US account number is 4–17 digits');
    if (b.bic !== undefined && !bicValid(b.bic)) issue('bic', 'not a valid BIC (ISO 9362)');
  });
export const ReverifyAccountBody = z.strictObject({
  method: z.enum(VERIFICATION_METHODS),
  reference: nameText(140).optional(),
});
export const EraseAccountsBody = z.strictObject({
  /** The payee whose accounts are erased; absent = the lender org's own accounts. */
  entity_id: z
    .string()
    .regex(/^ent_[a-z2-7]{16}$/)
    .optional(),
});
/** The org's accounts take no query: a parameter (an `org_id` above all) is a 400, never ignored. */
export const ListAccountsQuery = z.strictObject({});
const AccountParams = z.strictObject({
  id: z.string().regex(/^acct_[a-z2-7]{16}$/, 'an account id (acct_…)'),
});

/** The response view: masked, never the number; `erased` once the subject's key is gone. */
export function accountView(account: BankAccount, dataDir: string) {
  const dir = vaultDir(dataDir);
  const number = account.erased ? null : revealAccount(dir, account.id);
  const { subject: _subject, ...rest } = account;
  return {
    ...rest,
    masked: number === null ? null : account.masked,
    // HMAC-SHA256 of the number under the subject's data key: compares accounts without showing them.
    fingerprint: number === null ? null : accountHmac(dir, account.subject, number),
    erased: number === null,
  };
}

function unwrap(decided: AccountsDecided): Extract<AccountsDecided, { ok: true }> {
  if (decided.ok) return decided;
  throw new ProblemError(decided.code, decided.detail, decided.errors ? { errors: decided.errors } : {});
}

export function mountAccounts(s: Service): void {
  const state = () => s.runtime.state(accountsProjection);
  const dir = vaultDir(s.dataDir);
  const write = projectGuard(s, 'governance:write', { appends: true });
  const read = projectGuard(s, 'governance:read');
  const answer = (res: Response, id: string, events: { seq: number; hash: string }[]) => {
    const last = events[events.length - 1]!;
    res.status(201).json({ id, ledger: { seq: last.seq, hash: last.hash } });
  };

  s.routes.add('POST', '/api/accounts', ...write, async (req, res) => {
    const body = parseWith(RegisterAccountBody, req.body);
    const org_id = authOf(req).org_id;
    const entity_id = body.entity_id ?? null;
    const subject = subjectOf(org_id, entity_id);
    const number = body.iban !== undefined ? normalizeIban(body.iban) : body.account_number!;
    // Sealed inside the decision, under the id minted from the event id (stable under replay and
    // Idempotency-Key retries); discarded if the ledger does not record the registration.
    let sealedId: string | null = null;
    try {
      const committed = await runCommand(s.ledger, req, (_head, eventId) => {
        const account_id = accountIdOf(eventId);
        if (!Object.hasOwn(state().accounts, account_id)) {
          sealAccount(dir, subject, account_id, number);
          sealedId = account_id;
        }
        const decided = unwrap(
          decideRegisterAccount(
            state(),
            {
              account_id,
              purpose: body.purpose,
              entity_id,
              subject,
              holder_name: body.holder_name,
              scheme: body.iban !== undefined ? 'IBAN' : 'US_ABA',
              aba_routing: body.aba_routing ?? null,
              bic: body.bic ?? null,
              masked: maskAccount(number),
              verification: {
                method: body.verification.method,
                reference: body.verification.reference ?? null,
                verified_on: body.verification.verified_on,
              },
            },
            {
              org_id,
              eventId,
              now: s.clock.now(),
              entityExists: (id) => Object.hasOwn(s.runtime.state(registryProjection).entities, id),
            },
          ),
        );
        return { events: decided.events, result: decided.id };
      });
      answer(res, committed.result, committed.events);
    } catch (error) {
      if (sealedId !== null) discardAccount(dir, sealedId);
      throw error;
    }
  });

  s.routes.add('POST', '/api/accounts/:id/verify', ...write, async (req, res) => {
    const { id } = parseWith(AccountParams, req.params, 'params');
    const body = parseWith(ReverifyAccountBody, req.body);
    const auth = authOf(req);
    const committed = await runCommand(s.ledger, req, (_head, eventId) => {
      const decided = unwrap(
        decideReverifyAccount(
          state(),
          { account_id: id, method: body.method, reference: body.reference ?? null },
          { org_id: auth.org_id, key_id: auth.key_id, eventId },
        ),
      );
      return { events: decided.events, result: decided.id };
    });
    answer(res, committed.result, committed.events);
  });

  // Erasure (crypto-shredding): recorded, then the subject's data key is deleted from the vault.
  s.routes.add('POST', '/api/accounts/erase', ...write, async (req, res) => {
    const body = parseWith(EraseAccountsBody, req.body);
    const org_id = authOf(req).org_id;
    const committed = await runCommand(s.ledger, req, (_head, eventId) => {
      const decided = unwrap(
        decideEraseSubject(state(), { entity_id: body.entity_id ?? null }, { org_id, eventId }),
      );
      return { events: decided.events, result: decided.id };
    });
    const key_deleted = eraseSubject(dir, committed.result);
    const last = committed.events[committed.events.length - 1]!;
    res
      .status(201)
      .json({ subject: committed.result, key_deleted, ledger: { seq: last.seq, hash: last.hash } });
  });

  s.routes.add('GET', '/api/accounts', ...read, (req, res) => {
    parseWith(ListAccountsQuery, req.query, 'query');
    const org_id = authOf(req).org_id;
    const items = (state().by_org[org_id] ?? []).flatMap((id) => {
      const a = state().accounts[id];
      return a ? [accountView(a, s.dataDir)] : [];
    });
    res.json({ items });
  });
  s.routes.add('GET', '/api/accounts/:id', ...read, (req, res) => {
    const { id } = parseWith(AccountParams, req.params, 'params');
    const account = getAccount(state(), authOf(req).org_id, id);
    if (!account) throw new ProblemError('NOT_FOUND', `no account ${id}`);
    res.json(accountView(account, s.dataDir));
  });
}
