/**
 * @module Notarization (SPEC §6 `notarization`): multi-hash of a recorded document's canonical JSON
 * in a US jurisdiction, the evidence the payment gate's notarization check relies on.
 */
export * from './notarize.js';
