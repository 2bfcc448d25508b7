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
export {
  SamApiSource,
  SAM_API_MAX_BODY_BYTES,
  SAM_API_TIMEOUT_MS,
  type SamApiOptions,
  type SamSubjectAnswer,
} from './sam/api.js';
export {
  importSamFile,
  IMPORT_BATCH_SIZE,
  type ImportOptions,
  type ImportProgress,
  type ImportRejection,
  type ImportResult,
  type ImportSummary,
} from './sam/import.js';
export {
  ExtractSamSource,
  type SamAnswer,
  type SamAnswerSource,
  type SamError,
  type SamErrorCode,
  type SamSource,
  type SamSourceKind,
} from './sam/port.js';
export { SamFileRejected, type LineReason } from './sam/rows.js';
