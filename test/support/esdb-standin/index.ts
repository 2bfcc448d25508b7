/**
 * @module An in-process EventStoreDB stand-in: a gRPC server on the client package's own
 * generated stubs, for running the EventStore contract against EsdbEventStore without a database.
 *
 * THIS IS A TEST DOUBLE. It proves the adapter's use of `@eventstore/db-client` (what it sends,
 * which answers it understands), not the server: it keeps streams in memory and models only what
 * the adapter touches — BatchAppend and Append with ESDB's expected-revision and event-id
 * idempotence rules and its maximum append size, stream Read forwards/backwards/stream-not-found,
 * and catch-up-then-live subscriptions with `caught_up`; AccessDenied and NotLeader on demand.
 * No $all, filters, real ACLs, TLS, clustering, persistence, scavenging or backpressure. Only a
 * real server (`EVENTSTORE_URL`, test/contract/esdb-real.test.ts) proves those.
 *
 * A fresh single-node connection (`esdb://host:port?tls=false`) touches two services: the
 * server-features call, which the stand-in answers as a 24.10 server does (listing BatchAppend, so
 * the client appends through it, as against any real server since 21.10), and Streams. Gossip is
 * only used for cluster and discover:// URLs. `npm run esdb:standin` runs it as its own process.
 */
import { Server, ServerCredentials } from '@grpc/grpc-js';
import type { sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import serverFeaturesGrpc from '@eventstore/db-client/generated/serverfeatures_grpc_pb.js';
import serverFeaturesPb from '@eventstore/db-client/generated/serverfeatures_pb.js';
import streamsGrpc from '@eventstore/db-client/generated/streams_grpc_pb.js';
import { StandinLog, type StandinRecord } from './log.js';
import {
  DEFAULT_MAX_APPEND_SIZE,
  streamsService,
  type StandinBehaviour,
  type StandinCall,
} from './streams-service.js';

export { DEFAULT_MAX_APPEND_SIZE } from './streams-service.js';
export type { StandinBehaviour, StandinCall } from './streams-service.js';
export type { StandinRecord } from './log.js';

export interface EsdbStandin {
  /** A connection string for `EsdbEventStore.connect`. */
  readonly url: string;
  readonly port: number;
  /** Knobs a test may turn while the server runs. */
  readonly behaviour: StandinBehaviour;
  /** Every Append and Read answered, in order. */
  readonly journal: StandinCall[];
  /** What the server holds for `stream` (empty when it was never written). */
  records(stream: string): readonly StandinRecord[];
  /** Takes the server down as a crash would (open calls are cut); the data survives. */
  stop(): Promise<void>;
  /** Brings a stopped server back on the same port with the same data. */
  restart(): Promise<void>;
}

export interface StartOptions {
  behaviour?: Partial<StandinBehaviour>;
  /** The port to listen on (default 0: any free port). */
  port?: number;
  /** The address to bind (default 127.0.0.1). */
  host?: string;
}

/** The server version the stand-in reports in the server-features answer. */
export const STANDIN_SERVER_VERSION = '24.10.0';

/** Starts a stand-in on a free port of 127.0.0.1 (or the port and host given). */
export async function startEsdbStandin(opts: StartOptions = {}): Promise<EsdbStandin> {
  const standin = new Standin(
    {
      sendCaughtUp: true,
      holdBackwardReads: undefined,
      maxAppendSize: DEFAULT_MAX_APPEND_SIZE,
      denyWrites: false,
      notLeader: undefined,
      ...opts.behaviour,
    },
    opts.port ?? 0,
    opts.host ?? '127.0.0.1',
  );
  await standin.restart();
  return standin;
}

class Standin implements EsdbStandin {
  readonly behaviour: StandinBehaviour;
  readonly journal: StandinCall[] = [];
  readonly #log = new StandinLog();
  readonly #live = new Set<() => void>();
  #server: Server | undefined;
  #port: number;
  readonly #host: string;

  constructor(behaviour: StandinBehaviour, port: number, host: string) {
    this.behaviour = behaviour;
    this.#port = port;
    this.#host = host;
  }

  get port(): number {
    return this.#port;
  }

  get url(): string {
    const host = this.#host === '0.0.0.0' ? '127.0.0.1' : this.#host;
    return `esdb://${host}:${this.#port}?tls=false`;
  }

  records(stream: string): readonly StandinRecord[] {
    return this.#log.records(stream) ?? [];
  }

  async restart(): Promise<void> {
    if (this.#server) return;
    const server = new Server();
    server.addService(serverFeaturesGrpc.ServerFeaturesService, {
      getSupportedMethods: (_call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
        callback(null, supportedMethods());
      },
    });
    server.addService(
      streamsGrpc.StreamsService,
      streamsService({
        log: this.#log,
        behaviour: this.behaviour,
        journal: this.journal,
        track: (cleanup) => {
          this.#live.add(cleanup);
          return () => this.#live.delete(cleanup);
        },
      }),
    );
    this.#port = await bind(server, this.#host, this.#port);
    this.#server = server;
  }

  stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    server?.forceShutdown();
    for (const detach of this.#live) detach();
    this.#live.clear();
    return Promise.resolve();
  }
}

/** Binds port 0 (any free port) or the port a restarted server had; a just-freed port may lag. */
async function bind(server: Server, host: string, port: number): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await new Promise<number>((resolve, reject) => {
        server.bindAsync(`${host}:${port}`, ServerCredentials.createInsecure(), (error, bound) =>
          error ? reject(error) : resolve(bound),
        );
      });
    } catch (error) {
      if (port === 0 || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/**
 * The server-features answer of a 24.10 server, as far as the client reads it: the version and
 * the Streams methods (with BatchAppend, which makes the client append through it).
 */
function supportedMethods(): InstanceType<typeof serverFeaturesPb.SupportedMethods> {
  const methods: Array<[string, string, string[]]> = [
    ['event_store.client.streams.streams', 'read', ['position', 'events']],
    ['event_store.client.streams.streams', 'append', []],
    ['event_store.client.streams.streams', 'batchappend', []],
    ['event_store.client.streams.streams', 'delete', []],
    ['event_store.client.streams.streams', 'tombstone', []],
    ['event_store.client.server_features.serverfeatures', 'getsupportedmethods', []],
  ];
  const answer = new serverFeaturesPb.SupportedMethods();
  answer.setEventStoreServerVersion(STANDIN_SERVER_VERSION);
  answer.setMethodsList(
    methods.map(([service, method, features]) => {
      const m = new serverFeaturesPb.SupportedMethod();
      m.setServiceName(service);
      m.setMethodName(method);
      m.setFeaturesList(features);
      return m;
    }),
  );
  return answer;
}
