/**
 * A small C2SP tlog-witness (c2sp.org/tlog-witness, c2sp.org/tlog-cosignature): run by
 * `npm run witness` (scripts/witness.ts). Its own Ed25519 key, its own durable state, and a
 * configured set of logs (origin + verifier keys) it witnesses.
 */
export { generateCosignerKey, keyFromSeed, parseCosignerKey, type CosignerKey } from './key.js';
export { openStateFile, type CosignedCheckpoint, type WitnessStateStore } from './state.js';
export { Witness, type WitnessedLog, type WitnessResponse } from './witness.js';
export { createWitnessServer, witnessHandler } from './http.js';
