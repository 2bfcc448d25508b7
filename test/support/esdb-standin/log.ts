/**
 * The stand-in's storage: streams of records in memory, with the append rules EventStoreDB
 * documents for expected revisions and event-id idempotence ("Optimistic concurrency and
 * idempotence", ESDB client docs). Kept apart from the gRPC plumbing so the rules read on their own.
 */
import { EventEmitter } from 'node:events';

/** One stored event, as the server keeps it. */
export interface StandinRecord {
  stream: string;
  /** 0-based position in its stream. */
  revision: number;
  /** Lower-case canonical UUID: the server keeps a GUID, so the text it returns is normalized. */
  id: string;
  type: string;
  contentType: string;
  data: Uint8Array;
  customMetadata: Uint8Array;
  /** Position in the whole log (ESDB's commit/prepare position; here a counter). */
  position: number;
  /** When the server stored it, in .NET ticks (100 ns since the Unix epoch), as ESDB reports it. */
  created: bigint;
}

export type ProposedRecord = Pick<StandinRecord, 'id' | 'type' | 'contentType' | 'data' | 'customMetadata'>;

export type ExpectedRevision =
  | { kind: 'revision'; revision: number }
  | { kind: 'no_stream' }
  | { kind: 'any' }
  | { kind: 'stream_exists' };

export type AppendOutcome =
  | { kind: 'written'; last: StandinRecord }
  /** Every proposed id was already at the positions the append names: acknowledged, nothing written. */
  | { kind: 'idempotent'; last: StandinRecord }
  /** `current` is the stream's last revision, or null when the stream does not exist. */
  | { kind: 'wrong_expected_version'; current: number | null };

export class StandinLog {
  readonly #streams = new Map<string, StandinRecord[]>();
  readonly #appended = new EventEmitter();
  #position = 0;

  constructor() {
    this.#appended.setMaxListeners(0);
  }

  /** The stream's records (oldest first), or undefined when it was never written. */
  records(stream: string): readonly StandinRecord[] | undefined {
    return this.#streams.get(stream);
  }

  append(stream: string, expected: ExpectedRevision, proposed: readonly ProposedRecord[]): AppendOutcome {
    const existing = this.#streams.get(stream) ?? [];
    const current = existing.length - 1; // -1: no stream
    const currentOrNull = existing.length === 0 ? null : current;
    switch (expected.kind) {
      case 'any': {
        const at = existing.findIndex((r) => r.id === proposed[0]?.id);
        if (at === -1) return this.#write(stream, existing, proposed);
        return (
          matchesFrom(existing, at, proposed) ?? { kind: 'wrong_expected_version', current: currentOrNull }
        );
      }
      case 'stream_exists':
        if (existing.length === 0) return { kind: 'wrong_expected_version', current: null };
        return this.#write(stream, existing, proposed);
      case 'no_stream':
      case 'revision': {
        const want = expected.kind === 'no_stream' ? -1 : expected.revision;
        // Equal: write, even when some ids already sit earlier in the stream (ESDB checks ids only
        // from the expected position on, so a repeat at the current end is stored again).
        if (want === current) return this.#write(stream, existing, proposed);
        if (want > current) return { kind: 'wrong_expected_version', current: currentOrNull };
        // Behind: a repeat of the append that already landed right after `want` is acknowledged;
        // none or only some of the ids there is a conflict.
        return (
          matchesFrom(existing, want + 1, proposed) ?? {
            kind: 'wrong_expected_version',
            current: currentOrNull,
          }
        );
      }
    }
  }

  /** Calls `listener` after each write to `stream`; returns the unsubscribe function. */
  onAppend(stream: string, listener: () => void): () => void {
    this.#appended.on(stream, listener);
    return () => this.#appended.off(stream, listener);
  }

  #write(stream: string, records: StandinRecord[], proposed: readonly ProposedRecord[]): AppendOutcome {
    for (const message of proposed) {
      this.#position += 1;
      const created = BigInt(Date.now()) * 10_000n;
      records.push({ ...message, stream, revision: records.length, position: this.#position, created });
    }
    this.#streams.set(stream, records);
    this.#appended.emit(stream);
    return { kind: 'written', last: records[records.length - 1]! };
  }
}

function matchesFrom(
  existing: readonly StandinRecord[],
  from: number,
  proposed: readonly ProposedRecord[],
): AppendOutcome | undefined {
  const window = existing.slice(from, from + proposed.length);
  const same = window.length === proposed.length && window.every((r, i) => r.id === proposed[i]!.id);
  return same ? { kind: 'idempotent', last: window[window.length - 1]! } : undefined;
}
