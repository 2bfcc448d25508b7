/**
 * @module rails — the eleven governance rails of DOMAIN §8 as pure functions of one org's facts
 * and `now`, their registry, `scan_all`, and the provenance-bearing single-rail response (SPEC §7).
 */
export * from './rail.js';
export * from './findings.js';
export * from './coverage.js';
export { PROFILE_OPTIONAL_RAILS } from './optional.js';
export * from './scoring.js';
export {
  railFactsFor,
  railDataLastObserved,
  railOfObservation,
  type RailFactsOptions,
} from './rail-facts.js';
export { RAILS, railByName, railByPath } from './registry.js';
export * from './scan-all.js';
export * from './result.js';
export { decideRailScan, decideScanAll } from './scan-command.js';
export * from './system-risk.js';
export * from './workforce.js';
export * from './schedule.js';
export * from './safety-governance.js';
export * from './insurance.js';
export * from './environmental.js';
export * from './procurement.js';
export * from './equipment.js';
export * from './weather.js';
export * from './counterparty.js';
export * from './market.js';
export { latestDraw, timeElapsedPct, workCompletePct, isWorkComplete } from './progress.js';
