/**
 * @module Organizations (lenders) and their API keys: issuance, revocation and resolution.
 * Keys live in the ledger only as digests; the `keys` projection is what authentication reads.
 */
export * from './events.js';
export * from './keys.js';
