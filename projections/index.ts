/**
 * @module Read models: every projection the service folds from the ledger, in one list so the
 * server, `projections:rebuild` and the tests all fold the same set.
 */
import type { AnyProjection } from '../src/platform/projections/runtime.js';
import { accountsProjection } from './accounts.js';
import { credit } from './credit.js';
import { governance } from './governance.js';
import { keys } from './keys.js';
import { ledgerIndex } from './ledger-index.js';
import { observationsProjection } from './observations.js';
import { projectsProjection } from './projects.js';
import { registryProjection } from './registry.js';
import { signersProjection } from './signers.js';

export {
  accountsProjection,
  credit,
  governance,
  keys,
  ledgerIndex,
  observationsProjection,
  projectsProjection,
  registryProjection,
  signersProjection,
};

export function allProjections(): AnyProjection[] {
  return [
    ledgerIndex,
    keys,
    registryProjection,
    projectsProjection,
    observationsProjection,
    governance,
    credit,
    signersProjection,
    accountsProjection,
  ];
}
