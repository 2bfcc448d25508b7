/**
 * accounts: registered bank accounts (masked, HMAC), their re-verifications and erasures
 * (docs/duties.md) — what the payment gate and the pain.001 instruction read.
 */
import type { SealedEvent } from '../src/platform/ledger/envelope.js';
import type { Projection } from '../src/platform/projections/runtime.js';
import {
  initAccountsState,
  type AccountsState,
  type AccountSubjectErasedData,
  type BankAccountRegisteredData,
  type BankAccountReverifiedData,
} from '../src/accounts/facts.js';

export const accountsProjection: Projection<AccountsState> = {
  name: 'accounts',
  version: 2,
  init: initAccountsState,
  evolve(state, event: SealedEvent) {
    const org_id = event.meta.org_id;
    if (org_id === null) return state;
    switch (event.type) {
      case 'BankAccountRegistered': {
        const d = event.data as BankAccountRegisteredData;
        state.accounts[d.account_id] = {
          ...d,
          verification: { ...d.verification },
          id: d.account_id,
          org_id,
          registered_at: d.registered_at ?? event.recorded_at,
          registered_by: event.meta.actor,
          reverifications: [],
          erased: false,
        };
        (state.by_org[org_id] ??= []).push(d.account_id);
        return state;
      }
      case 'BankAccountReverified': {
        const d = event.data as BankAccountReverifiedData;
        const account = state.accounts[d.account_id];
        if (account?.org_id === org_id)
          account.reverifications.push({
            method: d.method,
            reference: d.reference,
            by: event.meta.actor,
            at: event.recorded_at,
          });
        return state;
      }
      case 'AccountSubjectErased': {
        const d = event.data as AccountSubjectErasedData;
        for (const id of d.account_ids) {
          const account = state.accounts[id];
          if (account?.org_id === org_id) account.erased = true;
        }
        return state;
      }
      default:
        return state;
    }
  },
};
