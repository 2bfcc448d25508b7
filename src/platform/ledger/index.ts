/**
 * @module The hash-chained ledger: envelope, canonical hashing, the single writer and verification.
 * Every governance fact and decision passes through here; nothing else writes to the store.
 */
export * from './envelope.js';
export * from './errors.js';
export * from './ledger.js';
export * from './verify.js';
export * from './verify-store.js';
export * from './background-verifier.js';
export { canonicalJson } from './canonical.js';
