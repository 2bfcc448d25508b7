/**
 * credit: per entity, the behavioral state and its transitions, the inquiries (issued credit
 * reports, with the inquiring org — also the composite history the drop rule reads) and the registry
 * verifications (ARCHITECTURE §6). The fold itself lives with the capability (src/credit/read-model.ts)
 * so the decider and the replay share one `recordTransition`.
 */
import type { Projection } from '../src/platform/projections/runtime.js';
import { evolveCredit, initCreditState, type CreditState } from '../src/credit/read-model.js';

export const credit: Projection<CreditState> = {
  name: 'credit',
  version: 6,
  init: initCreditState,
  evolve: evolveCredit,
};
