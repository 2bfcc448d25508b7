/**
 * Registry test helpers: sealed events with fixed ids and times, a registry state folded from
 * them, a throwaway SQLite ledger wired to the registry projection, and V2 line builders.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registryProjection } from '../../../projections/registry.js';
import { ManualClock } from '../../../src/platform/clock.js';
import { SqliteEventStore, SqliteSnapshotStore } from '../../../src/platform/event-store/sqlite.js';
import {
  GENESIS_HASH,
  Ledger,
  seal,
  type EventInput,
  type EventMeta,
  type SealedEvent,
} from '../../../src/platform/ledger/index.js';
import { ProjectionRuntime } from '../../../src/platform/projections/runtime.js';
import type { RegistryState } from '../../../src/registry/state.js';
import { testId } from '../../support/events.js';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/sam/', import.meta.url));
export const ORG_META: EventMeta = {
  org_id: 'org_lender1',
  actor: 'key_test',
  request_id: 'req-registry-01',
};
export const PINNED_NOW = new Date('2026-03-01T12:00:00Z');

/** Seals inputs into a chain with deterministic ids and times (ids: family 7). */
export function sealAll(inputs: EventInput[], meta: EventMeta = ORG_META): SealedEvent[] {
  let prev = { seq: 0, hash: GENESIS_HASH };
  return inputs.map((input, i) => {
    const { event } = seal(
      {
        id: input.id ?? testId(i + 1, 7),
        stream: input.stream,
        type: input.type,
        schema: input.schema ?? 1,
        data: input.data,
        meta,
        recorded_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      },
      prev,
    );
    prev = { seq: event.seq, hash: event.hash };
    return event;
  });
}

export function foldRegistry(events: readonly SealedEvent[]): RegistryState {
  return events.reduce((state, event) => registryProjection.evolve(state, event), registryProjection.init());
}

export interface TempLedger {
  dir: string;
  store: SqliteEventStore;
  ledger: Ledger;
  runtime: ProjectionRuntime;
  state: () => RegistryState;
  close(): Promise<void>;
}

/** A fresh file ledger with the registry projection applied on every append. */
export async function openTempLedger(): Promise<TempLedger> {
  const dir = mkdtempSync(join(tmpdir(), 'plumbline-registry-'));
  const store = SqliteEventStore.open(join(dir, 'ledger.db'));
  const clock = new ManualClock(PINNED_NOW);
  const runtime = new ProjectionRuntime(store, [registryProjection], new SqliteSnapshotStore(store), clock);
  await runtime.start();
  const ledger = await Ledger.open(store, clock, {
    onAppended: (events) => runtime.apply(events),
    onConflict: () => runtime.catchUp(),
  });
  return {
    dir,
    store,
    ledger,
    runtime,
    state: () => runtime.state(registryProjection),
    async close() {
      await runtime.stop();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A V2 record line: 142 fields, `!end` last, the given 1-based positions filled. */
export function v2Line(fields: Record<number, string>): string {
  const out = Array.from({ length: 142 }, () => '');
  out[141] = '!end';
  for (const [position, value] of Object.entries(fields)) out[Number(position) - 1] = value;
  return out.join('|');
}

/** A valid active monthly record for `uei`, with overrides. */
export function v2Record(uei: string, overrides: Record<number, string> = {}): string {
  return v2Line({ 1: uei, 6: 'A', 8: '20200115', 9: '20250114', 12: `${uei} LLC`, ...overrides });
}

export const BOF = 'BOF PUBLIC 00000000 20240301 0000001 0000009';
export const EOF = 'EOF PUBLIC 00000000 20240301 0000001 0000009';

/** Writes `content` to a new temp file named `name`; returns its path (removed by `cleanupTemp`). */
const tempDirs: string[] = [];
export function writeTemp(name: string, content: string | Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'plumbline-sam-fixture-'));
  tempDirs.push(dir);
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
export function cleanupTemp(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
