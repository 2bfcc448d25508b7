/**
 * @module OpenAPI 3.1 generated from the routes' zod schemas, the self-hosted /docs page that
 * renders it, and the routes serving the SDK bundle (SPEC §8).
 */
export { buildOpenApi, openApiPath } from './document.js';
export { routeOperations, type OperationSpec } from './operations.js';
export { documentedOperations, mountDeveloperResources } from './routes.js';
