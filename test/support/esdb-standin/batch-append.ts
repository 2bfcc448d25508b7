/**
 * The stand-in's BatchAppend: the bidirectional stream `@eventstore/db-client` uses for every
 * append once the server-features call lists it (every 21.10+ server does). One client keeps one
 * call open; an append is one or more requests sharing a correlation id, the last one `is_final`,
 * and is answered by one response with that id: success, or a google.rpc.Status whose `details`
 * packs the reason (WrongExpectedVersion, AccessDenied, MaximumAppendSizeExceeded) as the server
 * does. A not-leader node fails the whole call with gRPC NOT_FOUND and the `exception` metadata.
 */
import { Metadata, status } from '@grpc/grpc-js';
import type { ServerDuplexStream } from '@grpc/grpc-js';
import anyPb from 'google-protobuf/google/protobuf/any_pb.js';
import sharedPb from '@eventstore/db-client/generated/shared_pb.js';
import statusPb from '@eventstore/db-client/generated/status_pb.js';
import streamsPb from '@eventstore/db-client/generated/streams_pb.js';
import type { AppendOutcome, ExpectedRevision, ProposedRecord } from './log.js';
import type { StreamsContext } from './streams-service.js';

const { BatchAppendResp } = streamsPb;
type BatchAppendReq = InstanceType<typeof streamsPb.BatchAppendReq>;
type BatchAppendResp = InstanceType<typeof BatchAppendResp>;
type BatchOptions = InstanceType<typeof streamsPb.BatchAppendReq.Options>;

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** google.rpc.Code values the server uses in a batch answer. */
const CODE = { INVALID_ARGUMENT: 3, FAILED_PRECONDITION: 9, PERMISSION_DENIED: 7 } as const;

interface Pending {
  options: BatchOptions | undefined;
  proposed: ProposedRecord[];
  bytes: number;
  invalid: string | undefined;
}

export function handleBatchAppend(
  ctx: StreamsContext,
  call: ServerDuplexStream<BatchAppendReq, BatchAppendResp>,
): void {
  if (ctx.behaviour.notLeader) {
    call.emit('error', notLeaderError(ctx.behaviour.notLeader));
    return;
  }
  const pending = new Map<string, Pending>();
  call.on('data', (req: BatchAppendReq) => {
    const correlation = req.getCorrelationId();
    const id = correlation?.hasString() ? correlation.getString() : '';
    let entry = pending.get(id);
    if (!entry) {
      entry = { options: undefined, proposed: [], bytes: 0, invalid: undefined };
      pending.set(id, entry);
    }
    if (req.hasOptions()) entry.options = req.getOptions();
    for (const message of req.getProposedMessagesList()) collect(entry, message);
    if (!req.getIsFinal()) return;
    pending.delete(id);
    if (!call.cancelled) call.write(answer(ctx, correlation, entry));
  });
  call.on('end', () => call.end());
}

function collect(
  entry: Pending,
  message: InstanceType<typeof streamsPb.BatchAppendReq.ProposedMessage>,
): void {
  const id = message.getId();
  const text = id?.hasString() ? id.getString() : '';
  const meta = message.getMetadataMap();
  const type = meta.get('type');
  const contentType = meta.get('content-type');
  const data = message.getData_asU8();
  const customMetadata = message.getCustomMetadata_asU8();
  // The server counts data and metadata bytes against MaxAppendSize.
  entry.bytes += data.length + customMetadata.length;
  if (!UUID_TEXT.test(text)) entry.invalid ??= `event id "${text}" is not a UUID`;
  else if (!type || !contentType) entry.invalid ??= 'type and content-type metadata are required';
  else entry.proposed.push({ id: text.toLowerCase(), type, contentType, data, customMetadata });
}

function answer(
  ctx: StreamsContext,
  correlation: InstanceType<typeof sharedPb.UUID> | undefined,
  entry: Pending,
): BatchAppendResp {
  const resp = new BatchAppendResp();
  resp.setCorrelationId(correlation);
  const options = entry.options;
  if (!options) return resp.setError(rpcStatus(CODE.INVALID_ARGUMENT, 'append sent no options'));
  resp.setStreamIdentifier(options.getStreamIdentifier());
  const stream = Buffer.from(options.getStreamIdentifier()?.getStreamName_asU8() ?? []).toString('utf8');
  const expected = expectedOf(options);
  const journal = (outcome: string): void => {
    ctx.journal.push({
      method: 'BatchAppend',
      stream,
      expected: describe(expected),
      outcome,
      bytes: entry.bytes,
    });
  };
  if (entry.invalid) return resp.setError(rpcStatus(CODE.INVALID_ARGUMENT, entry.invalid));
  if (ctx.behaviour.denyWrites) {
    journal('access_denied');
    const details = packed(new sharedPb.AccessDenied(), 'event_store.client.AccessDenied');
    return resp.setError(rpcStatus(CODE.PERMISSION_DENIED, 'Access Denied', details));
  }
  if (entry.bytes > ctx.behaviour.maxAppendSize) {
    journal('maximum_append_size_exceeded');
    const exceeded = new sharedPb.MaximumAppendSizeExceeded();
    exceeded.setMaxappendsize(ctx.behaviour.maxAppendSize);
    const details = packed(exceeded, 'event_store.client.MaximumAppendSizeExceeded');
    return resp.setError(rpcStatus(CODE.INVALID_ARGUMENT, 'Maximum Append Size Exceeded', details));
  }
  if (entry.proposed.length === 0) {
    return resp.setError(rpcStatus(CODE.INVALID_ARGUMENT, 'the stand-in does not model empty appends'));
  }
  const outcome = ctx.log.append(stream, expected, entry.proposed);
  journal(outcome.kind);
  return outcome.kind === 'wrong_expected_version'
    ? resp.setError(wrongExpectedVersion(outcome, expected))
    : resp.setSuccess(success(outcome.last.revision, outcome.last.position));
}

function expectedOf(options: BatchOptions): ExpectedRevision {
  if (options.hasStreamPosition()) return { kind: 'revision', revision: Number(options.getStreamPosition()) };
  if (options.hasNoStream()) return { kind: 'no_stream' };
  if (options.hasStreamExists()) return { kind: 'stream_exists' };
  return { kind: 'any' };
}

function describe(expected: ExpectedRevision): string {
  return expected.kind === 'revision' ? `revision ${expected.revision}` : expected.kind;
}

function success(revision: number, position: number): InstanceType<typeof BatchAppendResp.Success> {
  const all = new sharedPb.AllStreamPosition();
  all.setCommitPosition(String(position));
  all.setPreparePosition(String(position));
  const ok = new BatchAppendResp.Success();
  ok.setCurrentRevision(String(revision));
  ok.setPosition(all);
  return ok;
}

function wrongExpectedVersion(
  outcome: Extract<AppendOutcome, { kind: 'wrong_expected_version' }>,
  expected: ExpectedRevision,
): InstanceType<typeof statusPb.Status> {
  const wrong = new sharedPb.WrongExpectedVersion();
  if (outcome.current === null) wrong.setCurrentNoStream(new sharedPb.Empty());
  else wrong.setCurrentStreamRevision(String(outcome.current));
  switch (expected.kind) {
    case 'revision':
      wrong.setExpectedStreamPosition(String(expected.revision));
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
  const details = packed(wrong, 'event_store.client.WrongExpectedVersion');
  return rpcStatus(CODE.FAILED_PRECONDITION, 'WrongExpectedVersion', details);
}

function packed(
  message: { serializeBinary(): Uint8Array },
  typeName: string,
): InstanceType<typeof anyPb.Any> {
  const any = new anyPb.Any();
  any.pack(message.serializeBinary(), typeName);
  return any;
}

function rpcStatus(
  code: number,
  message: string,
  details?: InstanceType<typeof anyPb.Any>,
): InstanceType<typeof statusPb.Status> {
  const out = new statusPb.Status();
  out.setCode(code);
  out.setMessage(message);
  if (details) out.setDetails(details);
  return out;
}

/** What a follower answers a write with (EventStoreDB `NotLeader`): the leader's address in metadata. */
export function notLeaderError(leader: { host: string; port: number }): {
  code: number;
  details: string;
  metadata: Metadata;
} {
  const metadata = new Metadata();
  metadata.set('exception', 'not-leader');
  metadata.set('leader-endpoint-host', leader.host);
  metadata.set('leader-endpoint-port', String(leader.port));
  return { code: status.NOT_FOUND, details: 'Leader info available', metadata };
}
