/**
 * @module Entity credit (DOMAIN §5–§7): signals, six-dimension scoring, the behavioral state machine,
 * conflicts, remediation velocity, PRAL eligibility, the sealed credit report and the bias analysis.
 */
export * from './constants.js';
export * from './reason-codes.js';
export * from './inputs.js';
export * from './participation.js';
export * from './signals.js';
export * from './gather.js';
export * from './score.js';
export * from './insurance.js';
export * from './remediation.js';
export * from './conflicts.js';
export * from './state-machine.js';
export * from './triggers.js';
export * from './behavior.js';
export * from './events.js';
export * from './read-model.js';
export * from './registry-cache.js';
export * from './decide.js';
export * from './improvement.js';
export * from './eligibility.js';
export * from './report.js';
export * from './summary.js';
export * from './business-types.js';
export * from './bias.js';
export * from './methodology.js';
export { paymentIntegritySignals, waiverLateShare } from './dimensions/payment-integrity.js';
export { drawAccuracySignals, varianceShare } from './dimensions/draw-accuracy.js';
export { complianceStandingSignals } from './dimensions/compliance-standing.js';
export {
  safetyRecordSignals,
  observationsOf,
  withObservationRecorded,
  withSafetySignalsRecorded,
} from './dimensions/safety-record.js';
export { schedulePerformanceSignals, paceLag } from './dimensions/schedule-performance.js';
export { remediationResponsivenessSignals, slowCureShare } from './dimensions/remediation-responsiveness.js';
