/**
 * Decider spec helper (STYLE: tests read `given(events).when(command).then(events)`): seals the
 * given events at pinned positions and times, folds them through a projection, runs the decider
 * and asserts the outcome.
 */
import { expect } from 'chai';
import {
  GENESIS_HASH,
  seal,
  type EventInput,
  type LedgerHead,
  type SealedEvent,
} from '../../src/platform/ledger/index.js';
import type { Projection } from '../../src/platform/projections/runtime.js';

/** An event as a test states it: the input plus the org it was recorded for. */
export interface GivenEvent extends EventInput {
  org_id: string | null;
}

/** The outcome shape every decider in this codebase returns. */
export type Outcome<E> =
  | { ok: true; events: E[]; result: unknown }
  | {
      ok: false;
      error: { code: string; detail: string; errors?: { path: (string | number)[]; code: string }[] };
    };

/** The n-th recording instant: 2026-03-01T00:00:00Z plus n minutes (pinned, never the wall clock). */
export function recordedAt(seq: number): string {
  return new Date(Date.UTC(2026, 2, 1, 0, seq)).toISOString();
}

/** Seals events after `after` the way the ledger would, with fixed meta and times. */
export function sealGiven(
  events: readonly GivenEvent[],
  after: LedgerHead = { seq: 0, hash: GENESIS_HASH },
): SealedEvent[] {
  const out: SealedEvent[] = [];
  let prev = after;
  for (const e of events) {
    const seq = prev.seq + 1;
    const { event } = seal(
      {
        id: e.id ?? `00000000-0000-4000-8000-${seq.toString(16).padStart(12, '0')}`,
        stream: e.stream,
        type: e.type,
        schema: e.schema ?? 1,
        data: e.data,
        meta: { org_id: e.org_id, actor: 'key_test', request_id: `req-${seq}` },
        recorded_at: recordedAt(seq),
      },
      prev,
    );
    out.push(event);
    prev = { seq: event.seq, hash: event.hash };
  }
  return out;
}

export function fold<S>(
  projection: Projection<S>,
  events: readonly SealedEvent[],
  from: S = projection.init(),
): S {
  return events.reduce((state, event) => projection.evolve(state, event), from);
}

export function deciderSpec<S, C, Ctx, E>(
  projection: Projection<S>,
  decide: (state: S, command: C, ctx: Ctx) => Outcome<E>,
) {
  return {
    given(events: readonly GivenEvent[]) {
      const state = fold(projection, sealGiven(events));
      return {
        when(command: C, ctx: Ctx) {
          const outcome = decide(state, command, ctx);
          return {
            /** Accepted with exactly these events; returns them. */
            then(expected: readonly E[]): E[] {
              if (!outcome.ok)
                expect.fail(`expected acceptance, got ${outcome.error.code}: ${outcome.error.detail}`);
              expect(outcome.events).to.deep.equal(expected);
              return outcome.events;
            },
            /** Accepted (events checked by the caller); returns them. */
            thenAccepted(): E[] {
              if (!outcome.ok)
                expect.fail(`expected acceptance, got ${outcome.error.code}: ${outcome.error.detail}`);
              return outcome.events;
            },
            /** Rejected with `code`; when `path` is given, an issue names exactly that path (and `issue` code). */
            thenRejects(code: string, path?: (string | number)[], issue?: string): void {
              if (outcome.ok) expect.fail(`expected ${code}, but the command was accepted`);
              expect(outcome.error.code).to.equal(code);
              if (path === undefined) return;
              const hit = (outcome.error.errors ?? []).find(
                (e) => JSON.stringify(e.path) === JSON.stringify(path),
              );
              expect(hit, `an issue at ${JSON.stringify(path)} in ${JSON.stringify(outcome.error.errors)}`).to
                .exist;
              if (issue !== undefined) expect(hit?.code).to.equal(issue);
            },
          };
        },
      };
    },
  };
}
