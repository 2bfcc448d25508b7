/**
 * @module The EventStore port and its adapters: embedded SQLite (default) and EventStoreDB.
 * Only these adapter files import their vendor clients.
 */
export * from './port.js';
export { SqliteEventStore, SqliteSnapshotStore } from './sqlite.js';
