/**
 * First start of an empty ledger: seed the demo dataset (when DEMO is not 0) and hand back a demo
 * key to print. A ledger that already has events is never touched.
 */
import type { AppDeps } from '../app.js';
import type { IssuedKey } from '../orgs/keys.js';
import { issueKey } from '../orgs/issue.js';
import type { Logger } from '../platform/log.js';

export const DEMO_SCOPES = ['credit:read', 'governance:read', 'governance:write', 'ledger:read'] as const;

export async function seedOnFirstStart(
  deps: AppDeps,
  demoFlag: '0' | '1' | undefined,
  logger: Logger,
): Promise<IssuedKey | null> {
  if (demoFlag === '0' || deps.ledger.head.seq > 0) return null;
  logger.info('empty ledger: seeding the demo dataset');
  return issueKey(deps.ledger, deps.runtime, deps.secrets, {
    org_name: 'Demo Lender',
    scopes: [...DEMO_SCOPES],
    label: 'demo',
  });
}
