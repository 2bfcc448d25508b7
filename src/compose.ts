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
import { SqliteEventStore, SqliteKeyValueStore } from './platform/event-store/sqlite.js';
import type { ReadModelFile } from './platform/projections/read-model-file.js';
import { REPAIR, ReadModelsDamaged } from './platform/projections/read-model-damage.js';
import { fillReadModels } from './platform/projections/read-model-recovery.js';
import type { EventStore } from './platform/event-store/port.js';
import { KeyValueIdempotencyStore } from './platform/http/idempotency.js';
import { BackgroundVerifier } from './platform/ledger/background-verifier.js';
import { Ledger } from './platform/ledger/ledger.js';
import type { Logger } from './platform/log.js';
import { ProjectionRuntime } from './platform/projections/runtime.js';
import {
  PersistedRateLimitStore,
  RateLimiter,
  RedisConnection,
  type RateLimitOnStoreError,
  type RateLimitPolicy,
  type RateLimitPolicyName,
} from './platform/rate-limit/index.js';
import { loadOrCreateSecrets } from './platform/secrets.js';
import { SamApiSource } from './registry/index.js';
import { LedgerIntegrityFailure } from './platform/ledger/errors.js';
import type { VerifyIssue } from './platform/ledger/verify.js';
import { leafHash } from './platform/tlog/merkle.js';
import { defaultOrigin, TransparencyLog } from './platform/tlog/log.js';
import { SqliteTileStorage } from './platform/tlog/sqlite-tiles.js';
import { ThreadedVerifier } from './platform/tlog/verify-thread.js';
import type { TileStorage } from './platform/tlog/tree.js';

export interface ComposeOptions {
  dataDir: string;
  clock: Clock;
  logger: Logger;
  redisUrl?: string | undefined;
  eventStoreUrl?: string | undefined;
  /** EVENTSTORE_MAX_APPEND_SIZE: the server's MaxAppendSize (default 1 MiB). */
  eventStoreMaxAppendBytes?: number | undefined;
  onStoreError?: RateLimitOnStoreError;
  /** Quota policies; SPEC §3's by default (the load benchmark raises the limits). */
  rateLimitPolicies?: Readonly<Record<RateLimitPolicyName, RateLimitPolicy>>;
  publicBaseUrl: string;
  keyPepper?: string | undefined;
  signingKey?: string | undefined;
  /** Background verification interval (ms); 0 = only on demand. */
  verifyEveryMs?: number;
  /**
   * Embedded mode: a verification pass over at least this many events runs on a thread of its own
   * (ThreadedVerifier; 20,000 by default).
   */
  verifyOffloadFrom?: number;
  /** SAM.gov's online API (SAM_API_KEY, SAM_API_BASE_URL); absent = imported extracts only. */
  samApi?: { apiKey: string; baseUrl: string; timeoutMs?: number } | undefined;
  /** Transparency log: origin (default from publicBaseUrl), seed (hex), witnesses, publish interval. */
  tlogOrigin?: string | undefined;
  tlogSeed?: string | undefined;
  /** TLOG_PREVIOUS_KEY: the log's old verifier key, while rotating it on EventStoreDB nodes. */
  tlogPreviousKey?: string | undefined;
  tlogPublic?: boolean;
  witnessUrls?: string[] | undefined;
  /** Checkpoint signing interval (ms); 0 = only when a receipt or shutdown asks for one. */
  tlogPublishEveryMs?: number;
  /** Clear a recorded integrity failure at start (LEDGER_INTEGRITY_OVERRIDE=1). */
  integrityOverride?: boolean;
  /**
   * EventStoreDB mode: the read models (and so key lookups) catch up with the store's head at
   * least this often (ms, default 1000), beside the live subscription — the bound on how long a
   * key revoked on another node is still accepted here, even when the subscription stalls.
   */
  freshnessMs?: number;
  /** READ_MODEL_CACHE: read-model records kept in the heap between flushes (default 20,000). */
  readModelCache?: number | undefined;
}

export interface Composed {
  deps: AppDeps;
  store: EventStore;
  redis: RedisConnection | null;
  close(): Promise<void>;
}

/** The ledger store a process opens, with the files that live beside it. */
export interface OpenedEventStore {
  store: EventStore;
  /**
   * The node's read-model file, DATA_DIR/read-models.db in both modes (ReadModelFile: one live
   * process folds into it; others read its checkpoint with `storedCheckpointOf`).
   */
  readModelPath: string;
  /** The embedded store, when that is what was opened (for SQLite-only tools such as mmap'd verify). */
  sqlite: SqliteEventStore | null;
  /** The transparency log's tiles: in the ledger file, or DATA_DIR/tlog.db (EventStoreDB). */
  tiles: SqliteTileStorage;
  close(): Promise<void>;
}

/**
 * The one way every process opens the ledger: EventStoreDB when `eventStoreUrl` (EVENTSTORE_URL)
 * is set, else the embedded SQLite file DATA_DIR/ledger.db. The service (compose) and every CLI
 * (keys, import-sam, ledger:verify, projections:rebuild, ledger:generate, seed-demo) go through here.
 * With EventStoreDB, the adapter's index of the stream lives in DATA_DIR/esdb-index.db, shared by
 * the node's processes, so none of them reads the whole stream again after a restart.
 */
export async function openEventStore(opts: {
  dataDir: string;
  eventStoreUrl?: string | undefined;
  /** EVENTSTORE_MAX_APPEND_SIZE: the server's MaxAppendSize (default 1 MiB). */
  eventStoreMaxAppendBytes?: number | undefined;
  /** Where an index file rebuilt from the stream is reported (the service passes its logger). */
  logger?: Logger | undefined;
}): Promise<OpenedEventStore> {
  if (opts.eventStoreUrl) {
    const { EsdbEventStore } = await import('./platform/event-store/esdb.js');
    const indexPath = join(opts.dataDir, 'esdb-index.db');
    const store = EsdbEventStore.connect(opts.eventStoreUrl, {
      ...(opts.eventStoreMaxAppendBytes ? { maxAppendBytes: opts.eventStoreMaxAppendBytes } : {}),
      indexPath,
      onIndexRebuild: (reason) =>
        opts.logger?.warn('the EventStoreDB index file is rebuilt from the ledger stream', {
          path: indexPath,
          reason,
        }),
    });
    const tiles = openTileStorage(opts.dataDir, null);
    return {
      store,
      readModelPath: readModelPathOf(opts.dataDir),
      sqlite: null,
      tiles,
      async close() {
        tiles.close();
        await store.close();
      },
    };
  }
  const sqlite = SqliteEventStore.open(join(opts.dataDir, 'ledger.db'));
  return {
    store: sqlite,
    readModelPath: readModelPathOf(opts.dataDir),
    sqlite,
    tiles: openTileStorage(opts.dataDir, sqlite),
    close: () => sqlite.close(),
  };
}

export function readModelPathOf(dataDir: string): string {
  return join(dataDir, 'read-models.db');
}

/** The tree's tiles: a table in the ledger file, or (EventStoreDB) a file of their own. */
export function openTileStorage(dataDir: string, sqlite: SqliteEventStore | null): SqliteTileStorage {
  return new SqliteTileStorage(sqlite ? sqlite.database : join(dataDir, 'tlog.db'));
}

const INTEGRITY_META = 'integrity_failure';

/**
 * The integrity failure a node recorded (its appends are suspended until a restart with
 * LEDGER_INTEGRITY_OVERRIDE=1 clears it), read without clearing: the CLIs that append honour it too.
 */
export function storedIntegrityFailure(tiles: TileStorage): VerifyIssue | null {
  const stored = tiles.getMeta(INTEGRITY_META);
  return stored ? (JSON.parse(stored) as VerifyIssue) : null;
}

/** The failure recorded by an earlier run, unless the operator overrides it (and it is cleared). */
function recordedFailure(tiles: TileStorage, opts: ComposeOptions): VerifyIssue | null {
  const stored = tiles.getMeta(INTEGRITY_META);
  if (!stored) return null;
  if (opts.integrityOverride) {
    opts.logger.warn('LEDGER_INTEGRITY_OVERRIDE=1: clearing the recorded ledger integrity failure', {
      recorded: JSON.parse(stored) as unknown,
    });
    tiles.setMeta(INTEGRITY_META, null);
    return null;
  }
  return JSON.parse(stored) as VerifyIssue;
}

/**
 * The node's read-model file, opened at its checkpoints and caught up with the ledger. A damaged
 * file (unreadable, checkpoints without their records, or found damaged while a node served from
 * it) is set aside and rebuilt from the ledger rather than served or left to stop every start
 * (`fillReadModels`); so is one SQLite finds corrupt while the start reads it. Damage met once the
 * node serves suspends appends (see `compose`) and is logged here, once, with what to do.
 */
async function startReadModels(
  store: EventStore,
  path: string,
  opts: ComposeOptions,
): Promise<{ readModels: ReadModelFile; runtime: ProjectionRuntime }> {
  let serving = false;
  const { file, filled } = await fillReadModels(
    path,
    {
      ...(opts.readModelCache !== undefined ? { cacheRecords: opts.readModelCache } : {}),
      onSetAside: (damage) =>
        opts.logger.error('READ MODELS DAMAGED: set aside, rebuilding them from the ledger', damage),
      onDamage: (damage) => {
        // At start the file is set aside at once (onSetAside says so).
        if (serving)
          opts.logger.error(`READ MODELS DAMAGED while serving: appends suspended; ${REPAIR}`, {
            ...damage,
          });
      },
    },
    async (disk) => {
      const runtime = new ProjectionRuntime(store, allProjections(), null, opts.clock, { disk });
      await runtime.start();
      return runtime;
    },
  );
  serving = true;
  return { readModels: file, runtime: filled };
}

export async function compose(opts: ComposeOptions): Promise<Composed> {
  const opened = await openEventStore(opts);
  const { store, sqlite, tiles } = opened;
  const { readModels, runtime } = await startReadModels(store, opened.readModelPath, opts);
  const secrets = loadOrCreateSecrets(opts.dataDir, {
    KEY_PEPPER: opts.keyPepper,
    LEDGER_SIGNING_KEY: opts.signingKey,
    TLOG_SIGNING_SEED: opts.tlogSeed,
  });
  const tlog = await TransparencyLog.open({
    origin: opts.tlogOrigin ?? defaultOrigin(opts.publicBaseUrl),
    seed: Buffer.from(secrets.tlogSeed, 'hex'),
    storage: tiles,
    source: store,
    clock: opts.clock,
    logger: opts.logger,
    witnesses: opts.witnessUrls ?? [],
    // Nodes on EventStoreDB share the one ledger and must share its key (docs/production.md §1).
    sharedLedger: Boolean(opts.eventStoreUrl),
    rotatedFrom: opts.tlogPreviousKey,
  }).catch(async (error: unknown) => {
    // Refused (another node's key): release what was opened, so the process can say why and end.
    await runtime.stop();
    readModels.close();
    await opened.close();
    throw error;
  });
  const ledger = await Ledger.open(store, opts.clock, {
    onAppended: (events) => {
      try {
        tlog.appended(events);
      } catch (error) {
        // The events are committed; the tree catches up from the ledger before the next checkpoint.
        opts.logger.error('transparency log tree not updated', { error: (error as Error).message });
      }
      return runtime.apply(events);
    },
    // Decide on read models at exactly the head the append will expect (see `settle`).
    settle: (head) => runtime.settle(head),
  });
  await runtime.follow();
  // Revocation (or any fact) recorded by another node reaches this one through the live
  // subscription within milliseconds; this sweep bounds it even when the subscription stalls.
  const freshness =
    opts.eventStoreUrl && (opts.freshnessMs ?? 1000) > 0
      ? setInterval(() => {
          runtime.catchUp().catch((error: unknown) => {
            opts.logger.warn('read models could not catch up with the ledger store', {
              error: (error as Error).message,
            });
          });
        }, opts.freshnessMs ?? 1000)
      : undefined;
  freshness?.unref();
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
  // Without Redis, idempotency records and quota counters share one key-value table: the ledger's
  // file in embedded mode, DATA_DIR/kv.db beside EventStoreDB. Counters live in memory and are
  // copied there within PersistedRateLimitStore's interval, so a restart keeps every key's quota.
  const kv = redis
    ? null
    : sqlite
      ? new SqliteKeyValueStore(sqlite, opts.clock)
      : new SqliteKeyValueStore(join(opts.dataDir, 'kv.db'), opts.clock);
  const rateStore = kv
    ? new PersistedRateLimitStore(opts.clock, kv, {
        onError: (e) =>
          opts.logger.warn('rate-limit counters could not be saved; retrying', { error: e.message }),
      })
    : redis!.rateLimit;
  const idempotency = kv ? new KeyValueIdempotencyStore(kv) : redis!.idempotency;
  const limiter = new RateLimiter({
    store: rateStore,
    clock: opts.clock,
    onStoreError: opts.onStoreError ?? 'closed',
    ...(opts.rateLimitPolicies ? { policies: opts.rateLimitPolicies } : {}),
  });
  const verifier = new BackgroundVerifier(
    store,
    () => opts.clock.now(),
    () => runtime.position,
    undefined,
    {
      log: {
        tree: {
          leaf: (seq) => {
            if (seq > tlog.tree.size) return undefined;
            try {
              return tlog.tree.leafHash(seq - 1);
            } catch {
              return Buffer.alloc(32); // a tile missing from storage: reported as a mismatch
            }
          },
          hashLeaf: leafHash,
        },
        checkpoint: (readHead) => tlog.check(readHead),
      },
      // Embedded mode: long passes (the first after a start) on a thread of their own.
      ...(sqlite && sqlite.path !== ':memory:'
        ? {
            offload: new ThreadedVerifier(sqlite.path, {
              ...(opts.verifyOffloadFrom !== undefined ? { minEvents: opts.verifyOffloadFrom } : {}),
              onError: (error) =>
                opts.logger.warn('the ledger verifier thread failed; verifying on the service thread', {
                  error: error.message,
                }),
            }),
          }
        : {}),
      recorded: recordedFailure(tiles, opts),
      onFailure: (issue) => {
        opts.logger.error(
          'LEDGER INTEGRITY FAILURE: appends suspended until an operator restarts with LEDGER_INTEGRITY_OVERRIDE=1',
          {
            reason: issue.code,
            first_bad_seq: issue.seq,
            expected: issue.expected,
            actual: issue.actual,
          },
        );
        tiles.setMeta(INTEGRITY_META, JSON.stringify(issue));
      },
    },
  );
  // Appends stop while the ledger fails an integrity check, or once the read models that commands
  // are decided on were found damaged (until a restart rebuilds them); reads go on.
  ledger.setGuard(() => {
    const failure = verifier.failure;
    if (failure) return new LedgerIntegrityFailure(failure.code, failure.seq);
    const damage = runtime.damage;
    return damage ? new ReadModelsDamaged(damage) : null;
  });
  if ((opts.tlogPublishEveryMs ?? 0) > 0) tlog.start(opts.tlogPublishEveryMs);
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
    tlog,
    tlogPublic: opts.tlogPublic === true,
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
      clearInterval(freshness);
      await verifier.stop();
      await tlog.stop();
      await runtime.stop();
      readModels.close();
      await rateStore.close();
      kv?.close();
      await redis?.close();
      await opened.close();
    },
  };
}
