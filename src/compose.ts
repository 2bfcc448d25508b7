/**
 * Builds the service's parts from configuration: the event store (SQLite, or EventStoreDB when
 * EVENTSTORE_URL is set), the single-writer ledger wired to the projection runtime, the rate
 * limiter and idempotency store (Redis when REDIS_URL is set), secrets and the chain verifier.
 * `main.ts`, the scripts and the API tests all compose through here.
 */
import { join } from 'node:path';
import { allProjections } from '../projections/index.js';
import type { AppDeps } from './app.js';
import type { Clock } from './platform/clock.js';
import { SqliteEventStore, SqliteKeyValueStore, SqliteSnapshotStore } from './platform/event-store/sqlite.js';
import type { EventStore } from './platform/event-store/port.js';
import { KeyValueIdempotencyStore } from './platform/http/idempotency.js';
import { BackgroundVerifier } from './platform/ledger/background-verifier.js';
import { Ledger } from './platform/ledger/ledger.js';
import type { Logger } from './platform/log.js';
import { ProjectionRuntime, type SnapshotStore } from './platform/projections/runtime.js';
import {
  MemoryRateLimitStore,
  RateLimiter,
  RedisConnection,
  type RateLimitOnStoreError,
} from './platform/rate-limit/index.js';
import { loadOrCreateSecrets } from './platform/secrets.js';
import { SamApiSource } from './registry/index.js';

export interface ComposeOptions {
  dataDir: string;
  clock: Clock;
  logger: Logger;
  redisUrl?: string | undefined;
  eventStoreUrl?: string | undefined;
  onStoreError?: RateLimitOnStoreError;
  publicBaseUrl: string;
  keyPepper?: string | undefined;
  signingKey?: string | undefined;
  /** Background verification interval (ms); 0 = only on demand. */
  verifyEveryMs?: number;
  /** SAM.gov's online API (SAM_API_KEY, SAM_API_BASE_URL); absent = imported extracts only. */
  samApi?: { apiKey: string; baseUrl: string; timeoutMs?: number } | undefined;
}

export interface Composed {
  deps: AppDeps;
  store: EventStore;
  redis: RedisConnection | null;
  close(): Promise<void>;
}

async function openStore(opts: ComposeOptions): Promise<{
  store: EventStore;
  snapshots: SnapshotStore;
  sqlite: SqliteEventStore | null;
  closeSnapshots: () => void;
}> {
  if (opts.eventStoreUrl) {
    const { EsdbEventStore } = await import('./platform/event-store/esdb.js');
    const store = EsdbEventStore.connect(opts.eventStoreUrl);
    const snapshots = new SqliteSnapshotStore(join(opts.dataDir, 'read-models.db'));
    return { store, snapshots, sqlite: null, closeSnapshots: () => snapshots.close() };
  }
  const sqlite = SqliteEventStore.open(join(opts.dataDir, 'ledger.db'));
  return {
    store: sqlite,
    snapshots: new SqliteSnapshotStore(sqlite),
    sqlite,
    closeSnapshots: () => undefined,
  };
}

export async function compose(opts: ComposeOptions): Promise<Composed> {
  const { store, snapshots, sqlite, closeSnapshots } = await openStore(opts);
  const runtime = new ProjectionRuntime(store, allProjections(), snapshots, opts.clock);
  await runtime.start();
  const ledger = await Ledger.open(store, opts.clock, {
    onAppended: (events) => runtime.apply(events),
    onConflict: () => runtime.catchUp(),
  });
  await runtime.follow();
  const redis = opts.redisUrl
    ? RedisConnection.open(opts.redisUrl, {
        onError: (e) => opts.logger.debug('redis connection error', { error: e.message }),
      })
    : null;
  // Commands fail fast while Redis is not connected (no offline queue): wait for the first connection.
  if (redis && !(await redis.ping()))
    opts.logger.warn(
      'redis did not answer at start; rate limiting follows RATE_LIMIT_ON_STORE_ERROR until it does',
    );
  const rateStore = redis ? redis.rateLimit : new MemoryRateLimitStore(opts.clock);
  const idempotency = redis
    ? redis.idempotency
    : new KeyValueIdempotencyStore(
        sqlite
          ? new SqliteKeyValueStore(sqlite, opts.clock)
          : new SqliteKeyValueStore(join(opts.dataDir, 'kv.db'), opts.clock),
      );
  const limiter = new RateLimiter({
    store: rateStore,
    clock: opts.clock,
    onStoreError: opts.onStoreError ?? 'closed',
  });
  const secrets = loadOrCreateSecrets(opts.dataDir, {
    KEY_PEPPER: opts.keyPepper,
    LEDGER_SIGNING_KEY: opts.signingKey,
  });
  const verifier = new BackgroundVerifier(
    store,
    () => opts.clock.now(),
    () => runtime.position,
  );
  if ((opts.verifyEveryMs ?? 0) > 0) verifier.start(opts.verifyEveryMs!);
  else await verifier.run();
  const deps: AppDeps = {
    clock: opts.clock,
    ledger,
    runtime,
    limiter,
    idempotency,
    secrets,
    logger: opts.logger,
    verifier,
    publicBaseUrl: opts.publicBaseUrl,
    dataDir: opts.dataDir,
    samApi: opts.samApi ? new SamApiSource({ ...opts.samApi, clock: opts.clock }) : null,
    ...(redis ? { probes: { redis: () => redis.ping() } } : {}),
  };
  return {
    deps,
    store,
    redis,
    async close() {
      await verifier.stop();
      await runtime.stop();
      await redis?.close();
      closeSnapshots();
      await store.close();
    },
  };
}
