/**
 * Accounts deciders (docs/duties.md), pure on the accounts read model: a registration names a
 * known payee (or the lender org itself) and a verification made no later than today, a
 * re-verification must come from a lender key other than the one that registered the account, an
 * erasure covers every account of the subject.
 */
import { idFromUuid } from '../platform/ids.js';
import {
  accountsEvent,
  getAccount,
  subjectOf,
  type AccountsEvent,
  type AccountsState,
  type BankAccountRegisteredData,
  type VerificationMethod,
} from './facts.js';

export type AccountsDecided =
  | { ok: true; events: AccountsEvent[]; id: string }
  | {
      ok: false;
      code: 'INVALID_REQUEST' | 'NOT_FOUND' | 'CONFLICT';
      detail: string;
      /** The field at fault, as a 400's `errors` names it. */
      errors?: { path: string; code: string; message: string }[];
    };

export const accountStream = (id: string): string => `account-${id}`;

export function decideRegisterAccount(
  state: AccountsState,
  data: Omit<BankAccountRegisteredData, 'registered_at'>,
  ctx: { org_id: string; eventId: string; now: Date; entityExists(id: string): boolean },
): AccountsDecided {
  // A verification certifies a callback or deposit already made: a date after today has not happened.
  const today = ctx.now.toISOString().slice(0, 10);
  if (data.verification.verified_on > today) {
    const detail = `verification.verified_on ${data.verification.verified_on} is after today (${today})`;
    return {
      ok: false,
      code: 'INVALID_REQUEST',
      detail,
      errors: [{ path: 'verification.verified_on', code: 'out_of_range', message: detail }],
    };
  }
  if (data.entity_id !== null && !ctx.entityExists(data.entity_id))
    return { ok: false, code: 'INVALID_REQUEST', detail: `unknown entity ${data.entity_id}` };
  const registered: BankAccountRegisteredData = { ...data, registered_at: ctx.now.toISOString() };
  return {
    ok: true,
    id: data.account_id,
    events: [accountsEvent('BankAccountRegistered', ctx.eventId, accountStream(data.account_id), registered)],
  };
}

export function decideReverifyAccount(
  state: AccountsState,
  cmd: { account_id: string; method: VerificationMethod; reference: string | null },
  ctx: { org_id: string; key_id: string; eventId: string },
): AccountsDecided {
  const account = getAccount(state, ctx.org_id, cmd.account_id);
  if (!account) return { ok: false, code: 'NOT_FOUND', detail: `no account ${cmd.account_id}` };
  if (account.erased) return { ok: false, code: 'CONFLICT', detail: `${account.id} was erased` };
  if (account.registered_by === ctx.key_id)
    return {
      ok: false,
      code: 'CONFLICT',
      detail: 'a re-verification needs a second lender key, not the one that registered the account',
    };
  return {
    ok: true,
    id: account.id,
    events: [
      accountsEvent('BankAccountReverified', ctx.eventId, accountStream(account.id), {
        account_id: account.id,
        method: cmd.method,
        reference: cmd.reference,
      }),
    ],
  };
}

export function decideEraseSubject(
  state: AccountsState,
  cmd: { entity_id: string | null },
  ctx: { org_id: string; eventId: string },
): AccountsDecided {
  const subject = subjectOf(ctx.org_id, cmd.entity_id);
  const ids = (state.by_org[ctx.org_id] ?? []).filter((id) => {
    const a = state.accounts[id];
    return a !== undefined && a.subject === subject && !a.erased;
  });
  if (ids.length === 0)
    return { ok: false, code: 'NOT_FOUND', detail: `no accounts to erase for ${cmd.entity_id ?? 'the org'}` };
  return {
    ok: true,
    id: subject,
    events: [
      accountsEvent('AccountSubjectErased', ctx.eventId, `account-subject-${subject.replace('/', '.')}`, {
        subject,
        account_ids: ids,
      }),
    ],
  };
}

/** An account id minted from the registering event's id. */
export const accountIdOf = (eventId: string): string => idFromUuid('acct_', eventId);
