/**
 * @module Projection runtime: folds the ledger into in-memory read models with persisted snapshots.
 * Read models live in the top-level projections/ folder; this is only the machinery.
 */
export * from './runtime.js';
export { cloneJson } from './clone.js';
