/**
 * @module Rate limiting (SPEC §3): quota policies, the limiter the HTTP edge calls, and its stores.
 * Redis when REDIS_URL is set (shared by every node; also holds idempotency records), otherwise
 * in memory with a copy in the embedded key-value file so quotas survive a restart.
 */
export * from './policy.js';
export * from './port.js';
export * from './limiter.js';
export * from './memory.js';
export * from './persisted.js';
export * from './redis.js';
