/**
 * @module Projection runtime: folds the ledger into read models kept on the node's read-model file
 * (a bounded cache in the heap), or in the heap alone (tests, with optional snapshots). Read models
 * live in the top-level projections/ folder; this is only the machinery.
 */
export * from './runtime.js';
export { cloneJson } from './clone.js';
export {
  entriesOf,
  entriesWithPrefix,
  appendOnlyLists,
  appendTo,
  keysOf,
  ownedKey,
  ownedValues,
  ReadModelFile,
  ReadModelFileBusy,
  storedCheckpointOf,
  valuesOf,
} from './read-model-file.js';
