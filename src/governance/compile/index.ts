/**
 * @module Compile for draw (DOMAIN §9, SPEC §6 `dependency-graph`): a DAG of pure engines, ordered
 * into layers from the evidence they read and produce, run to a draw verdict with a full trace.
 */
export * from './engine.js';
export * from './errors.js';
export * from './evidence.js';
export { createCompiler, type CompileRun, type Compiler } from './compiler.js';
export { planLayers } from './dag.js';
export type { AdequacyAssessment, AdequacyAssessor } from './adequacy.js';
export type { FindingRule, FindingRules } from './finding-engines.js';
export { worsePral } from './pral.js';
export { decideDrawVerdict, reducedAmount, type VerdictFacts } from './verdict.js';
export * from './draw-compiler.js';
export * from './kernel.js';
