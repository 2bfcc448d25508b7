/**
 * @module The facts every engine reads: projects, SOV, change orders, documents, G702/G703 draws,
 * signatures, rail observations and finding resolutions — their contracts, deciders and queries.
 */
export * from './contract.js';
export * from './decide.js';
export * from './events.js';
export * from './facts.js';
export * from './jurisdictions.js';
export * from './pay-application.js';
export * from './profiles.js';
export * from './queries.js';
export { projectsProjection } from '../../projections/projects.js';
export { observationsProjection } from '../../projections/observations.js';
