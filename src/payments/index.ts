/**
 * @module Payments (SPEC §6 `payment-push`, DOMAIN §12): the per-profile gate, the push decision,
 * the ISO 20022 pain.001 instruction and the rail adapter that carries it.
 */
export * from './gates.js';
export * from './waivers.js';
export * from './push.js';
export * from './pain001.js';
export * from './rail-adapter.js';
export * from './outbox.js';
