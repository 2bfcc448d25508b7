/**
 * @module Read models: every projection the service folds from the ledger, in one list so the
 * server, `projections:rebuild` and the tests all fold the same set.
 */
import type { AnyProjection } from '../src/platform/projections/runtime.js';
import { ledgerIndex } from './ledger-index.js';

export { ledgerIndex };

export function allProjections(): AnyProjection[] {
  return [ledgerIndex];
}
