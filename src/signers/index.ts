/**
 * @module Signers (docs/duties.md): signer identities with enrolled Ed25519 keys — who may sign a
 * draw, execute a lien waiver or perform a notarial act — and the bytes each signs.
 */
export * from './facts.js';
export * from './events.js';
export * from './decide.js';
export * from './duties.js';
export { signersProjection } from '../../projections/signers.js';
