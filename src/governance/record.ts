/**
 * What a governance decider returns, and the one helper that records a governance result: the
 * payload's hash, the artifacts audit-verify finds it by, the event that carries both. Every
 * decider (scan, adequacy, compile, simulate, certify, notarize, payment push, reject draw) builds
 * its event here, and the edge (`command.ts`) assembles every such response in one place.
 */
import type { EventInput } from '../platform/ledger/index.js';
import type { ErrorCode, ProblemExtras } from '../platform/http/problem.js';
import {
  governanceEvent,
  resultArtifacts,
  type ArtifactRef,
  type GovernanceEventMap,
  type GovernanceEventType,
} from './events.js';

/** The decision context: who asks, when (injected clock), and the event id resource ids come from. */
export interface GovernanceCtx {
  org_id: string;
  now: Date;
  /** UUID of the result's recording event; `CMP-`/`PAY-`/… ids are minted from it. */
  eventId: string;
  /** Base of absolute URLs handed out (certification badge). */
  publicBaseUrl: string;
}

/** A typed rejection in the SPEC §2 vocabulary. */
export interface GovernanceRejection {
  code: ErrorCode;
  detail: string;
  extras?: ProblemExtras;
}

/** The response a recorded result answers with, and which event anchors it. */
export interface RecordedResponse {
  payload: Record<string, unknown>;
  /** Index in `events` of the event that records `payload` (its provenance anchor). */
  anchor: number;
  /**
   * `provenance` (ARCHITECTURE §7, the default), a bare `ledger: {seq, hash}` (notarization), or
   * both (scan_all: it answered a bare `ledger` before it carried provenance, kept within 1.x).
   */
  anchor_style: 'provenance' | 'ledger' | 'provenance_and_ledger';
  /** Also answer `provenance_hash` (the payload's SHA-256: the rail responses of SPEC §7). */
  with_provenance_hash?: boolean;
}

export type GovernanceDecided =
  | ({ ok: true; events: EventInput[] } & RecordedResponse)
  /** A rejection; with `events` it is audited (recorded, then answered as the error). */
  | { ok: false; error: GovernanceRejection; events: EventInput[] };

export function rejected(code: ErrorCode, detail: string, extras?: ProblemExtras): GovernanceDecided {
  return { ok: false, error: extras ? { code, detail, extras } : { code, detail }, events: [] };
}

export interface RecordedResult<T extends GovernanceEventType> {
  event: EventInput<T, GovernanceEventMap[T]> & { schema: number };
  payload: Record<string, unknown>;
  hash: string;
}

/**
 * Records a governance result: `payload_hash` = hash of the response payload, `artifacts` = one
 * `{kind, hash}` per provenance digest of it (`resultArtifacts`) plus any extra (a document digest, an instruction's hash), the event on `stream`
 * under `eventId`. `data` gets the hash and artifacts and returns the event's data.
 */
export function recordResult<T extends GovernanceEventType>(spec: {
  type: T;
  stream: string;
  eventId: string | undefined;
  payload: Record<string, unknown>;
  kind: string;
  extraArtifacts?: ArtifactRef[];
  data: (recorded: { payload_hash: string; artifacts: ArtifactRef[] }) => GovernanceEventMap[T];
}): RecordedResult<T> {
  const recorded = resultArtifacts(spec.kind, spec.payload);
  const hash = recorded.payload_hash;
  const artifacts = [...recorded.artifacts, ...(spec.extraArtifacts ?? [])];
  const data = spec.data({ payload_hash: hash, artifacts });
  return { event: governanceEvent(spec.type, spec.stream, data, spec.eventId), payload: spec.payload, hash };
}

/** A decision that records `events`, answering `payload` anchored to `events[anchor]`. */
export function accepted(
  events: EventInput[],
  payload: Record<string, unknown>,
  anchor = events.length - 1,
  anchor_style: RecordedResponse['anchor_style'] = 'provenance',
  with_provenance_hash = false,
): GovernanceDecided {
  return { ok: true, events, payload, anchor, anchor_style, with_provenance_hash };
}
