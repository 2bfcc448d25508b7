/**
 * @module Certification (DOMAIN §11, SPEC §6 `certification`): the score rule with its BLOCKING cap,
 * validity and supersession, and the public SVG badge.
 */
export * from './certify.js';
export * from './badge.js';
