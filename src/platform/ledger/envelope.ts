/**
 * The ledger envelope (ARCHITECTURE §3.1) and its two-level hashing:
 * `content_hash` = SHA-256(JCS{id, stream, type, schema, data, meta, recorded_at}),
 * `hash` = SHA-256(JCS{seq, prev_hash, content_hash}); the first event links to 64 zeros.
 */
import { sha256Hex } from '../crypto/hash.js';
import { canonicalJson } from './canonical.js';

export const GENESIS_HASH = '0'.repeat(64);

/** Who caused an event and on whose behalf. `org_id` is null for platform-wide facts (registry imports). */
export interface EventMeta {
  org_id: string | null;
  actor: string;
  request_id: string;
  correlation_id?: string;
  causation_id?: string;
}

/** What a command hands the ledger: the ledger adds position, time and hashes. */
export interface EventInput<Type extends string = string, Data = unknown> {
  /** UUID; v7 when omitted, v5 from an Idempotency-Key when the caller derives one. */
  id?: string;
  stream: string;
  type: Type;
  schema?: number;
  data: Data;
}

/** The hashed part of an event. */
export interface EventContent<Type extends string = string, Data = unknown> {
  id: string;
  stream: string;
  type: Type;
  schema: number;
  data: Data;
  meta: EventMeta;
  recorded_at: string;
}

export interface SealedEvent<Type extends string = string, Data = unknown> extends EventContent<Type, Data> {
  seq: number;
  content_hash: string;
  prev_hash: string;
  hash: string;
}

export interface LedgerHead {
  seq: number;
  hash: string;
}

export const EMPTY_HEAD: LedgerHead = Object.freeze({ seq: 0, hash: GENESIS_HASH });

/** Drops absent optional meta fields so the hashed JSON never depends on `undefined`. */
export function cleanMeta(meta: EventMeta): EventMeta {
  const out: EventMeta = { org_id: meta.org_id, actor: meta.actor, request_id: meta.request_id };
  if (meta.correlation_id !== undefined) out.correlation_id = meta.correlation_id;
  if (meta.causation_id !== undefined) out.causation_id = meta.causation_id;
  return out;
}

/** Canonical text kept for events sealed in this process, so stores do not canonicalize twice. */
const sealedText = new WeakMap<object, string>();

/** The canonical text an event was sealed with (stores write these bytes); computed if unknown. */
export function sealedContentText(event: SealedEvent): string {
  return sealedText.get(event) ?? contentJson(event);
}

/** The exact bytes `content_hash` is taken over, always recomputed from the fields. */
export function contentJson(event: EventContent): string {
  return canonicalJson({
    id: event.id,
    stream: event.stream,
    type: event.type,
    schema: event.schema,
    data: event.data,
    meta: event.meta,
    recorded_at: event.recorded_at,
  });
}

/**
 * JCS of `{seq, prev_hash, content_hash}`. Keys sort as content_hash < prev_hash < seq, and the
 * values are a hex string, a hex string and a safe integer, so the template *is* the JCS form;
 * a unit test holds it equal to `canonicalize` for arbitrary inputs.
 */
export function linkJson(seq: number, prevHash: string, contentHash: string): string {
  return `{"content_hash":"${contentHash}","prev_hash":"${prevHash}","seq":${seq}}`;
}

export function linkHash(seq: number, prevHash: string, contentHash: string): string {
  return sha256Hex(linkJson(seq, prevHash, contentHash));
}

/**
 * Seals content at a position after `prev`; returns the event and the canonical content bytes.
 * The event's `data` and `meta` are read back from those bytes, so an event applied in the process
 * that sealed it is the very event every reader of the store gets (key order, no `undefined`
 * members, no objects shared with the caller) — the read models a live process folds are then
 * byte for byte the ones a replay folds.
 */
export function seal<T extends string, D>(
  content: EventContent<T, D>,
  prev: LedgerHead,
): { event: SealedEvent<T, D>; contentText: string } {
  const contentText = contentJson(content);
  const content_hash = sha256Hex(contentText);
  const seq = prev.seq + 1;
  const hash = linkHash(seq, prev.hash, content_hash);
  const stored = JSON.parse(contentText) as Pick<EventContent<T, D>, 'data' | 'meta'>;
  const event: SealedEvent<T, D> = {
    seq,
    ...content,
    data: stored.data,
    meta: stored.meta,
    content_hash,
    prev_hash: prev.hash,
    hash,
  };
  sealedText.set(event, contentText);
  return { event, contentText };
}

export function contentOf(event: SealedEvent): EventContent {
  const { id, stream, type, schema, data, meta, recorded_at } = event;
  return { id, stream, type, schema, data, meta, recorded_at };
}
