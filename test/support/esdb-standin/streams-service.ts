/**
 * The stand-in's `event_store.client.streams.Streams` service: Append (client-streaming) and Read
 * (server-streaming: a counted read forwards or backwards, or a catch-up-then-live subscription).
 * Messages are the client package's own generated classes, so what goes over the wire is exactly
 * what the client builds and parses. BatchAppend (what the client uses against any server that
 * lists it, as the stand-in does) lives in batch-append.ts. Delete and Tombstone are left to
 * grpc-js, which answers UNIMPLEMENTED for methods a service object does not implement.
 */
import { randomUUID } from 'node:crypto';
import { Metadata, status } from '@grpc/grpc-js';
import type {
  sendUnaryData,
  ServerDuplexStream,
  ServerReadableStream,
  ServerWritableStream,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import sharedPb from '@eventstore/db-client/generated/shared_pb.js';
import streamsPb from '@eventstore/db-client/generated/streams_pb.js';
import { handleBatchAppend, notLeaderError } from './batch-append.js';
import type { AppendOutcome, ExpectedRevision, ProposedRecord, StandinLog, StandinRecord } from './log.js';

const { AppendResp, ReadReq, ReadResp } = streamsPb;
type AppendReq = InstanceType<typeof streamsPb.AppendReq>;
type AppendResp = InstanceType<typeof AppendResp>;
type ReadReq = InstanceType<typeof ReadReq>;
type ReadResp = InstanceType<typeof ReadResp>;

/** What the stand-in was asked and how it answered, for tests that pin the adapter's wire use. */
export type StandinCall =
  | { method: 'Append'; stream: string; expected: string; outcome: AppendOutcome['kind'] }
  | {
      method: 'BatchAppend';
      stream: string;
      expected: string;
      /** An AppendOutcome kind, or the refusal: access_denied, maximum_append_size_exceeded. */
      outcome: string;
      /** Data + metadata bytes of the append, as the server counts them against its limit. */
      bytes: number;
    }
  | {
      method: 'Read';
      stream: string;
      mode: 'forwards' | 'backwards' | 'subscription';
      from: string;
      outcome: 'events' | 'stream_not_found' | 'subscribed';
      /** How many events a counted read sent (0 for a subscription: it is not counted). */
      events: number;
    };

export interface StandinBehaviour {
  /**
   * Send `caught_up` once a subscription's catch-up part is written, as EventStoreDB 24.2+ does
   * (23.10 sends it except on a stream that does not exist yet; older servers never do).
   * Default true; false plays an older server.
   */
  sendCaughtUp: boolean;
  /** While set, backwards reads (how the adapter reads the head) wait for it before answering. */
  holdBackwardReads: Promise<void> | undefined;
  /**
   * The server's MaxAppendSize in bytes (data + metadata of one append; EventStoreDB's default is
   * 1 MiB = 1048576). A larger append is refused whole with MaximumAppendSizeExceeded.
   */
  maxAppendSize: number;
  /** While true, appends are refused with AccessDenied, as a user without write ACL would be. */
  denyWrites: boolean;
  /** While set, this node answers appends as a follower: NotLeader, naming this leader. */
  notLeader: { host: string; port: number } | undefined;
}

/** EventStoreDB's default MaxAppendSize (1 MiB). */
export const DEFAULT_MAX_APPEND_SIZE = 1024 * 1024;

export interface StreamsContext {
  log: StandinLog;
  behaviour: StandinBehaviour;
  journal: StandinCall[];
  /** Registers the cleanup of a live subscription so stopping the server can detach it. */
  track(cleanup: () => void): () => void;
}

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function streamsService(ctx: StreamsContext): UntypedServiceImplementation {
  return {
    append: (call: ServerReadableStream<AppendReq, AppendResp>, callback: sendUnaryData<AppendResp>) =>
      handleAppend(ctx, call, callback),
    batchAppend: (
      call: ServerDuplexStream<
        InstanceType<typeof streamsPb.BatchAppendReq>,
        InstanceType<typeof streamsPb.BatchAppendResp>
      >,
    ) => handleBatchAppend(ctx, call),
    read: (call: ServerWritableStream<ReadReq, ReadResp>) => {
      handleRead(ctx, call).catch((error: unknown) => {
        call.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    },
  };
}

function handleAppend(
  ctx: StreamsContext,
  call: ServerReadableStream<AppendReq, AppendResp>,
  callback: sendUnaryData<AppendResp>,
): void {
  let options: InstanceType<typeof streamsPb.AppendReq.Options> | undefined;
  const proposed: ProposedRecord[] = [];
  let invalid: string | undefined;
  call.on('data', (req: AppendReq) => {
    if (req.hasOptions()) {
      options = req.getOptions();
      return;
    }
    const message = req.getProposedMessage();
    if (!message) return;
    const id = message.getId();
    const text = id?.hasString() ? id.getString() : '';
    const meta = message.getMetadataMap();
    const type = meta.get('type');
    const contentType = meta.get('content-type');
    if (!UUID_TEXT.test(text)) invalid ??= `event id "${text}" is not a UUID`;
    else if (!type || !contentType) invalid ??= 'type and content-type metadata are required';
    else {
      proposed.push({
        id: text.toLowerCase(),
        type,
        contentType,
        data: message.getData_asU8(),
        customMetadata: message.getCustomMetadata_asU8(),
      });
    }
  });
  call.on('end', () => {
    if (!options) return callback({ code: status.INVALID_ARGUMENT, details: 'append sent no options' });
    if (invalid) return callback({ code: status.INVALID_ARGUMENT, details: invalid });
    if (ctx.behaviour.notLeader) return callback(notLeaderError(ctx.behaviour.notLeader));
    if (ctx.behaviour.denyWrites) return callback(exception(status.PERMISSION_DENIED, 'access-denied'));
    const bytes = proposed.reduce((n, p) => n + p.data.length + p.customMetadata.length, 0);
    if (bytes > ctx.behaviour.maxAppendSize) {
      const tooLarge = exception(status.INVALID_ARGUMENT, 'maximum-append-size-exceeded');
      tooLarge.metadata.set('maximum-append-size', String(ctx.behaviour.maxAppendSize));
      return callback(tooLarge);
    }
    if (proposed.length === 0) {
      return callback({ code: status.UNIMPLEMENTED, details: 'the stand-in does not model empty appends' });
    }
    const stream = streamName(options.getStreamIdentifier());
    const expected = expectedOf(options);
    const outcome = ctx.log.append(stream, expected, proposed);
    ctx.journal.push({
      method: 'Append',
      stream,
      expected: describeExpected(expected),
      outcome: outcome.kind,
    });
    callback(null, appendResponse(outcome, expected));
  });
}

/** How the server reports a refused plain Append: a gRPC status with the `exception` metadata. */
function exception(code: status, name: string): { code: status; details: string; metadata: Metadata } {
  const metadata = new Metadata();
  metadata.set('exception', name);
  return { code, details: name, metadata };
}

function expectedOf(options: InstanceType<typeof streamsPb.AppendReq.Options>): ExpectedRevision {
  if (options.hasRevision()) return { kind: 'revision', revision: Number(options.getRevision()) };
  if (options.hasNoStream()) return { kind: 'no_stream' };
  if (options.hasStreamExists()) return { kind: 'stream_exists' };
  return { kind: 'any' };
}

function describeExpected(expected: ExpectedRevision): string {
  return expected.kind === 'revision' ? `revision ${expected.revision}` : expected.kind;
}

function appendResponse(outcome: AppendOutcome, expected: ExpectedRevision): AppendResp {
  const resp = new AppendResp();
  if (outcome.kind === 'wrong_expected_version') {
    const wrong = new AppendResp.WrongExpectedVersion();
    if (outcome.current === null) wrong.setCurrentNoStream(new sharedPb.Empty());
    else wrong.setCurrentRevision(String(outcome.current));
    switch (expected.kind) {
      case 'revision':
        wrong.setExpectedRevision(String(expected.revision));
        break;
      case 'no_stream':
        wrong.setExpectedNoStream(new sharedPb.Empty());
        break;
      case 'stream_exists':
        wrong.setExpectedStreamExists(new sharedPb.Empty());
        break;
      case 'any':
        wrong.setExpectedAny(new sharedPb.Empty());
        break;
    }
    return resp.setWrongExpectedVersion(wrong);
  }
  const position = new AppendResp.Position();
  position.setCommitPosition(String(outcome.last.position));
  position.setPreparePosition(String(outcome.last.position));
  const success = new AppendResp.Success();
  success.setCurrentRevision(String(outcome.last.revision));
  success.setPosition(position);
  return resp.setSuccess(success);
}

type RevisionCase = InstanceType<typeof ReadReq.Options.StreamOptions>;

async function handleRead(ctx: StreamsContext, call: ServerWritableStream<ReadReq, ReadResp>): Promise<void> {
  const options = call.request.getOptions();
  const streamOptions = options?.getStream();
  if (!options || !streamOptions) {
    call.emit('error', {
      code: status.UNIMPLEMENTED,
      details: 'the stand-in models stream reads only, not $all',
    });
    return;
  }
  if (options.getUuidOption()?.hasStructured()) {
    call.emit('error', { code: status.UNIMPLEMENTED, details: 'the stand-in returns string UUIDs only' });
    return;
  }
  const stream = streamName(streamOptions.getStreamIdentifier());
  const from = describeFrom(streamOptions);
  if (options.hasSubscription()) {
    subscribe(ctx, call, stream, streamOptions);
    ctx.journal.push({
      method: 'Read',
      stream,
      mode: 'subscription',
      from,
      outcome: 'subscribed',
      events: 0,
    });
    return;
  }
  const backwards = options.getReadDirection() === ReadReq.Options.ReadDirection.BACKWARDS;
  if (backwards && ctx.behaviour.holdBackwardReads) await ctx.behaviour.holdBackwardReads;
  const mode = backwards ? 'backwards' : 'forwards';
  const records = ctx.log.records(stream);
  if (!records) {
    const notFound = new ReadResp.StreamNotFound();
    notFound.setStreamIdentifier(identifier(stream));
    call.write(new ReadResp().setStreamNotFound(notFound));
    call.end();
    ctx.journal.push({ method: 'Read', stream, mode, from, outcome: 'stream_not_found', events: 0 });
    return;
  }
  const count = options.hasCount() ? Number(options.getCount()) : Number.MAX_SAFE_INTEGER;
  const sent = counted(records, streamOptions, backwards, count);
  for (const record of sent) call.write(eventResponse(record));
  call.end();
  ctx.journal.push({ method: 'Read', stream, mode, from, outcome: 'events', events: sent.length });
}

/** A counted read: `from` is inclusive in both directions, as in ESDB. */
function counted(
  records: readonly StandinRecord[],
  options: RevisionCase,
  backwards: boolean,
  count: number,
): StandinRecord[] {
  const last = records.length - 1;
  if (!backwards) {
    const start = options.hasRevision()
      ? Number(options.getRevision())
      : options.hasEnd()
        ? records.length
        : 0;
    return records.slice(start, start + count);
  }
  const start = options.hasRevision()
    ? Math.min(Number(options.getRevision()), last)
    : options.hasStart()
      ? 0
      : last;
  return records.slice(Math.max(0, start - count + 1), start + 1).reverse();
}

/**
 * Catch-up then live. A subscription "from revision r" starts *after* r (exclusive), unlike a read.
 * The catch-up writes and the live listener are set up in one synchronous step, so no append can
 * fall between them.
 */
function subscribe(
  ctx: StreamsContext,
  call: ServerWritableStream<ReadReq, ReadResp>,
  stream: string,
  options: RevisionCase,
): void {
  const confirmation = new ReadResp.SubscriptionConfirmation();
  confirmation.setSubscriptionId(randomUUID());
  call.write(new ReadResp().setConfirmation(confirmation));
  let next = options.hasRevision()
    ? Number(options.getRevision()) + 1
    : options.hasEnd()
      ? (ctx.log.records(stream)?.length ?? 0)
      : 0;
  const pump = (): void => {
    const records = ctx.log.records(stream) ?? [];
    while (next < records.length && !call.cancelled) {
      call.write(eventResponse(records[next]!));
      next += 1;
    }
  };
  pump();
  if (ctx.behaviour.sendCaughtUp) call.write(new ReadResp().setCaughtUp(new ReadResp.CaughtUp()));
  const off = ctx.log.onAppend(stream, pump);
  const untrack = ctx.track(off);
  call.on('cancelled', () => {
    off();
    untrack();
  });
}

function describeFrom(options: RevisionCase): string {
  if (options.hasRevision()) return `revision ${options.getRevision()}`;
  return options.hasEnd() ? 'end' : 'start';
}

function eventResponse(record: StandinRecord): ReadResp {
  const recorded = new ReadResp.ReadEvent.RecordedEvent();
  const id = new sharedPb.UUID();
  id.setString(record.id);
  recorded.setId(id);
  recorded.setStreamIdentifier(identifier(record.stream));
  recorded.setStreamRevision(String(record.revision));
  recorded.setCommitPosition(String(record.position));
  recorded.setPreparePosition(String(record.position));
  recorded
    .getMetadataMap()
    .set('type', record.type)
    .set('content-type', record.contentType)
    .set('created', String(record.created));
  recorded.setCustomMetadata(record.customMetadata);
  recorded.setData(record.data);
  const event = new ReadResp.ReadEvent();
  event.setEvent(recorded);
  event.setCommitPosition(String(record.position));
  return new ReadResp().setEvent(event);
}

function identifier(stream: string): InstanceType<typeof sharedPb.StreamIdentifier> {
  const id = new sharedPb.StreamIdentifier();
  id.setStreamName(Buffer.from(stream, 'utf8'));
  return id;
}

function streamName(id: InstanceType<typeof sharedPb.StreamIdentifier> | undefined): string {
  return id ? Buffer.from(id.getStreamName_asU8()).toString('utf8') : '';
}
