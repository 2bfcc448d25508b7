/**
 * The scheduled behavioral evaluator (DOMAIN §5): time alone moves some states (a WARNING open
 * > 14 days → WATCH, 90 quiet days → one step up, an exclusion that terminated → PROBATION), so
 * something must look at every entity as days pass and record each transition as an event. The
 * decision runs inside the ledger commit on fresh state, and its event ids derive from the step,
 * so two evaluators (two nodes) append a transition once; replay reproduces the same states.
 */
import { credit as creditProjection } from '../../projections/credit.js';
import { registryProjection } from '../../projections/registry.js';
import { decideBehavior } from '../credit/index.js';
import type { Service } from '../platform/http/service.js';
import { entityFacts } from './entity-facts.js';
import { keysOf } from '../platform/projections/index.js';

export class BehaviorEvaluator {
  #timer: NodeJS.Timeout | null = null;
  #first: NodeJS.Timeout | null = null;
  #running: Promise<number> | null = null;
  #stopped = false;

  constructor(private readonly s: Service) {}

  /** Evaluates every governed entity once; resolves to the number of transitions appended. */
  run(): Promise<number> {
    this.#running ??= this.#runNow().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #runNow(): Promise<number> {
    let appended = 0;
    const ids = keysOf(this.s.runtime.state(registryProjection).entities).sort();
    for (const entityId of ids) {
      // The commits below settle without I/O (SQLite is synchronous), so without this the whole
      // pass — seconds on a large ledger — would run before the server answers another request.
      await new Promise<void>((resolve) => setImmediate(resolve));
      // A shutdown ends the pass between entities: each step is its own commit, and the next pass
      // (this node's next start, or another node) takes up where this one stopped.
      if (this.#stopped) break;
      const committed = await this.s.ledger.commit(
        () => {
          const entity = this.s.runtime.state(registryProjection).entities[entityId];
          if (!entity) return { events: [], result: 0 };
          const now = this.s.clock.now();
          // Derived for this step alone (unless a lender's call already keeps the entity's): a pass
          // over every entity must not hold them all in the heap (`FactsMemo.peek`).
          const events = decideBehavior(
            this.s.runtime.state(creditProjection),
            entityFacts(this.s, entity, now, null, false),
            now,
          );
          return { events, result: events.length };
        },
        { org_id: null, actor: 'system', request_id: 'behavior-evaluator' },
      );
      if (!committed.duplicate) appended += committed.result;
    }
    return appended;
  }

  /**
   * Runs after `firstAfterMs` and then every `ms` (unref'd: it never keeps the process alive). A
   * node starts it once it listens, with a delay: its first pass scores every entity from a cold
   * cache, which, run at once, held the first requests — `/readyz` included — behind it.
   */
  start(ms: number, firstAfterMs = 0): void {
    const tick = (): void => {
      if (this.#stopped) return;
      void this.run().catch((error: unknown) =>
        this.s.logger.error('behavior evaluator failed', { error: String(error) }),
      );
    };
    const first = setTimeout(() => {
      tick();
      this.#timer = setInterval(tick, ms);
      this.#timer.unref();
    }, firstAfterMs);
    first.unref();
    this.#first = first;
  }

  /** Stops the schedule and ends a running pass after the entity it is at (no new pass starts). */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#first) clearTimeout(this.#first);
    if (this.#timer) clearInterval(this.#timer);
    await this.#running?.catch(() => undefined);
  }
}
