/**
 * ledger-index: hash → position for every event hash and every artifact hash recorded in events.
 * An event that records a result (a scan, a credit report, a notarization…) lists what it attests
 * in `data.artifacts: [{kind, hash}]`; audit-verify looks hashes up here.
 */
import type { SealedEvent } from '../src/platform/ledger/envelope.js';
import type { Projection } from '../src/platform/projections/runtime.js';

export interface ArtifactRef {
  kind: string;
  hash: string;
}

export interface LedgerIndexState {
  /** event hash → seq */
  events: Record<string, number>;
  /** artifact hash → where it was recorded (first recording wins) */
  artifacts: Record<string, { kind: string; seq: number }>;
  count: number;
}

function artifactsOf(event: SealedEvent): ArtifactRef[] {
  const data = event.data as { artifacts?: unknown } | null;
  if (!data || typeof data !== 'object' || !Array.isArray(data.artifacts)) return [];
  return (data.artifacts as unknown[]).filter(
    (a): a is ArtifactRef =>
      typeof a === 'object' &&
      a !== null &&
      typeof (a as ArtifactRef).kind === 'string' &&
      typeof (a as ArtifactRef).hash === 'string',
  );
}

export const ledgerIndex: Projection<LedgerIndexState> = {
  name: 'ledger-index',
  version: 1,
  init: () => ({ events: {}, artifacts: {}, count: 0 }),
  evolve(state, event) {
    state.events[event.hash] = event.seq;
    state.count += 1;
    for (const artifact of artifactsOf(event)) {
      state.artifacts[artifact.hash] ??= { kind: artifact.kind, seq: event.seq };
    }
    return state;
  },
};
