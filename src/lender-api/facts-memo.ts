/**
 * Remembers what the credit rules derive from an entity's facts (its score, the facts part of its
 * behavioral assessment) while those facts stay the same, so repeated `score` calls on a busy
 * entity cost the report's assembly, not a fresh walk over every project, draw and observation.
 *
 * The facts `entityFacts` assembles come from the projects, observations, governance and registry
 * read models. The credit capability's own events (issued reports, behavioral transitions, registry
 * verifications) are folded only by the credit read model, so they leave the facts as they were;
 * any other event may change them, and forgets everything remembered. Keys carry the day (see
 * `derived` in src/credit/inputs.ts), so a new day computes afresh too. The one credit event that
 * does change facts — a RegistryVerified carrying a live SAM.gov answer, which the registry check
 * then reads for 24 hours — is covered by the caller: `entityFacts` asks for the memo of the entity
 * *and its registry outcome*, so a new outcome starts a fresh memo. Remembered values are
 * shared by every later call, so callers treat them as read-only (they are not frozen: they hold
 * references into the live read models, which the projections go on updating).
 */
import type { SealedEvent } from '../platform/ledger/index.js';
import type { ProjectionRuntime } from '../platform/projections/runtime.js';
import { CREDIT_EVENT_TYPES, type DerivationMemo } from '../credit/index.js';

/** What the memo follows: where the read models stand, and each event they apply. */
export type MemoRuntime = Pick<ProjectionRuntime, 'position' | 'onApplied'>;

/** Entities remembered at once; the oldest is forgotten first. */
export const REMEMBERED_ENTITIES = 5_000;

const FACTS_NEUTRAL: ReadonlySet<string> = new Set(CREDIT_EVENT_TYPES);

class EntityMemo implements DerivationMemo {
  readonly #values = new Map<string, unknown>();
  remember<T>(key: string, compute: () => T): T {
    if (this.#values.has(key)) return this.#values.get(key) as T;
    const value = compute();
    this.#values.set(key, value);
    return value;
  }
}

export class FactsMemo {
  readonly #entities = new Map<string, EntityMemo>();
  /** The seq of the last event that may have changed some entity's facts. */
  #epoch: number;

  constructor(runtime: MemoRuntime) {
    this.#epoch = runtime.position;
    runtime.onApplied((event) => this.#applied(event));
  }

  get epoch(): number {
    return this.#epoch;
  }

  /** The memo for one entity's facts as they are now. */
  for(entityId: string): DerivationMemo {
    let memo = this.#entities.get(entityId);
    if (!memo) {
      if (this.#entities.size >= REMEMBERED_ENTITIES) {
        const oldest = this.#entities.keys().next().value;
        if (oldest !== undefined) this.#entities.delete(oldest);
      }
      memo = new EntityMemo();
      this.#entities.set(entityId, memo);
    }
    return memo;
  }

  #applied(event: SealedEvent): void {
    if (FACTS_NEUTRAL.has(event.type)) return;
    this.#epoch = event.seq;
    this.#entities.clear();
  }
}

const memos = new WeakMap<MemoRuntime, FactsMemo>();

/** The one FactsMemo of a runtime (created on first use, following it from then on). */
export function factsMemoOf(runtime: MemoRuntime): FactsMemo {
  let memo = memos.get(runtime);
  if (!memo) {
    memo = new FactsMemo(runtime);
    memos.set(runtime, memo);
  }
  return memo;
}
