/**
 * Bank accounts (docs/duties.md): the lender org's disbursement and escrow accounts and each
 * payee's account, with who verified them and how. Events and responses carry only a masked
 * number and an HMAC; the number itself is in the account vault (vault.ts). Stream `account-acct_…`.
 */
import type { EventInput } from '../platform/ledger/index.js';

export const ACCOUNT_PURPOSES = ['DISBURSEMENT', 'ESCROW', 'PAYEE'] as const;
export type AccountPurpose = (typeof ACCOUNT_PURPOSES)[number];
export const VERIFICATION_METHODS = [
  'micro_deposit',
  'callback',
  'bank_letter',
  'prenote',
  'account_validation_service',
] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

/** How the account's agent is identified: a US ABA routing number, or an IBAN with its BIC. */
export type AccountScheme = 'US_ABA' | 'IBAN';

export interface BankAccountRegisteredData {
  account_id: string;
  /** LENDER accounts belong to the org (entity_id null); PAYEE accounts to an entity. */
  purpose: AccountPurpose;
  entity_id: string | null;
  /** The vault subject whose data key encrypts the number. */
  subject: string;
  holder_name: string;
  scheme: AccountScheme;
  /** The ABA routing number (US_ABA), else null. */
  aba_routing: string | null;
  /** The BIC (required with an IBAN, optional beside an ABA routing number). */
  bic: string | null;
  masked: string;
  verification: { method: VerificationMethod; reference: string | null; verified_on: string };
  /**
   * When the account was registered, by the command's clock — the clock the payment gate's "today"
   * comes from, so the payee-account window compares two instants of one clock (the demo seeds a
   * timeline on its own clock while the ledger records wall time). Absent on events recorded
   * before it was added; they read the event's `recorded_at`.
   */
  registered_at?: string;
}

export interface BankAccountReverifiedData {
  account_id: string;
  method: VerificationMethod;
  reference: string | null;
}

export interface AccountSubjectErasedData {
  subject: string;
  account_ids: string[];
}

export interface AccountsEventMap {
  BankAccountRegistered: BankAccountRegisteredData;
  BankAccountReverified: BankAccountReverifiedData;
  AccountSubjectErased: AccountSubjectErasedData;
}
export type AccountsEvent = {
  [T in keyof AccountsEventMap]: EventInput<T, AccountsEventMap[T]> & { id: string; schema: number };
}[keyof AccountsEventMap];

export function accountsEvent<T extends keyof AccountsEventMap>(
  type: T,
  id: string,
  stream: string,
  data: AccountsEventMap[T],
): EventInput<T, AccountsEventMap[T]> & { id: string; schema: number } {
  return { id, stream, type, schema: 1, data };
}

export interface BankAccount extends BankAccountRegisteredData {
  id: string;
  org_id: string;
  registered_at: string;
  /** The API key that registered (and first verified) the account. */
  registered_by: string;
  reverifications: { method: VerificationMethod; reference: string | null; by: string; at: string }[];
  erased: boolean;
}

export interface AccountsState {
  accounts: Record<string, BankAccount>;
  by_org: Record<string, string[]>;
}

export const initAccountsState = (): AccountsState => ({ accounts: {}, by_org: {} });

/** The vault subject of a payee (or, with null, the lender org) within an org. */
export const subjectOf = (org_id: string, entity_id: string | null): string =>
  `${org_id}/${entity_id ?? 'org'}`;

export function getAccount(state: AccountsState, org_id: string, id: string): BankAccount | undefined {
  const account = state.accounts[id];
  return account?.org_id === org_id ? account : undefined;
}

/** The latest account registered for a purpose (and payee): the one payments use. */
export function currentAccount(
  state: AccountsState,
  org_id: string,
  purpose: AccountPurpose,
  entity_id: string | null = null,
): BankAccount | null {
  const ids = state.by_org[org_id] ?? [];
  for (let i = ids.length - 1; i >= 0; i -= 1) {
    const a = state.accounts[ids[i]!];
    if (a && a.purpose === purpose && a.entity_id === entity_id) return a;
  }
  return null;
}
