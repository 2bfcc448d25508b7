/**
 * @module Accounts (docs/duties.md): the lender's disbursement and escrow accounts and each payee's
 * bank account — validated, verified, encrypted in the account vault (crypto-shredding), masked
 * and HMAC'd in the ledger.
 */
export * from './facts.js';
export * from './validate.js';
export * from './vault.js';
export * from './decide.js';
export { accountsProjection } from '../../projections/accounts.js';
