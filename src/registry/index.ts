/**
 * @module Registry: governed entities (names, EIN/UEI/CAGE, roles), entity lookup, the SAM.gov
 * contractor registry check, and SAM extract import plus the online SAM adapter behind one port.
 */
export * from './contract.js';
export * from './decide.js';
export * from './events.js';
export * from './lookup.js';
export * from './normalize.js';
export * from './records.js';
export * from './registry-check.js';
export * from './state.js';
