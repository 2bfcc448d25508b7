import { expect } from 'chai';
import { governance, type GovernanceState } from '../../projections/governance.js';
import { observationsProjection } from '../../projections/observations.js';
import { projectsProjection } from '../../projections/projects.js';
import type { MemoRuntime } from '../../src/lender-api/facts-memo.js';
import type { SealedEvent } from '../../src/platform/ledger/index.js';
import type { Projection } from '../../src/platform/projections/runtime.js';

/**
 * A facts memo's runtime over read models held by hand (each read when the memo asks), and `apply`
 * to hand it an event as the runtime would after folding it.
 */
export function handRuntime(models: {
  projects: () => unknown;
  governance: () => GovernanceState;
  observations?: () => unknown;
  position?: number;
}): { runtime: MemoRuntime; apply: (event: SealedEvent) => void } {
  let applied: (event: SealedEvent) => void = () => expect.fail('the memo did not follow the runtime');
  const states = new Map<Projection<unknown>, () => unknown>([
    [projectsProjection, models.projects],
    [observationsProjection, models.observations ?? (() => observationsProjection.init())],
    [governance, models.governance],
  ]);
  const runtime: MemoRuntime = {
    state: <S>(projection: Projection<S>) => states.get(projection)!() as S,
    position: models.position ?? 0,
    onApplied: (fn) => {
      applied = fn;
    },
  };
  return { runtime, apply: (event) => applied(event) };
}
