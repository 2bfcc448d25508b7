import { expect } from 'chai';
import type { RailName } from '../../../src/rails/rail.js';
import {
  SYSTEM_MAX_PROJECTION_LAG_EVENTS,
  SYSTEM_MAX_UNVERIFIED_EVENTS,
  SYSTEM_RAIL_STALE_DAYS,
  SYSTEM_RISK_RAIL,
} from '../../../src/rails/system-risk.js';
import { facts, platform, railTable } from './builders.js';

const head = (seq: number) => ({ seq, hash: 'c'.repeat(64) });
const fed = (days: Partial<Record<RailName, string>>) =>
  platform({ rail_data_last_observed: { ...platform().rail_data_last_observed, ...days } });

describe('SYSTEM_RISK rail (DOMAIN §8)', () => {
  it('uses the documented thresholds', () => {
    expect([
      SYSTEM_MAX_UNVERIFIED_EVENTS,
      SYSTEM_MAX_PROJECTION_LAG_EVENTS,
      SYSTEM_RAIL_STALE_DAYS,
    ]).to.deep.equal([100, 100, 30]);
  });

  railTable(SYSTEM_RISK_RAIL, [
    {
      given: 'a chain verified to the head, no lag and rails fed this month',
      facts: facts({ platform: fed({ WORKFORCE: '2026-06-01', WEATHER: '2026-06-14' }) }),
      codes: [],
      posture: 'NOMINAL',
    },
    {
      given: 'the verifier 100 events behind the head',
      facts: facts({ platform: platform({ verified_through: 500, ledger_head: head(600) }) }),
      codes: [],
    },
    {
      given: 'the verifier 101 events behind the head',
      facts: facts({ platform: platform({ verified_through: 500, ledger_head: head(601) }) }),
      codes: ['SYSTEM_CHAIN_UNVERIFIED'],
      severities: ['CRITICAL'],
      posture: 'CRITICAL',
    },
    {
      given: 'projections 100 events behind',
      facts: facts({ platform: platform({ projection_lag: 100 }) }),
      codes: [],
    },
    {
      given: 'projections 101 events behind',
      facts: facts({ platform: platform({ projection_lag: 101 }) }),
      codes: ['SYSTEM_PROJECTION_LAG'],
    },
    {
      given: 'workforce data last observed 30 days ago',
      facts: facts({ platform: fed({ WORKFORCE: '2026-05-16' }) }),
      codes: [],
    },
    {
      given: 'workforce data last observed 31 days ago',
      facts: facts({ platform: fed({ WORKFORCE: '2026-05-15' }) }),
      codes: ['SYSTEM_RAIL_STALE'],
      posture: 'NOMINAL',
    },
    {
      given: 'three rails stale (WARNING-heavy)',
      facts: facts({
        platform: fed({ WORKFORCE: '2026-01-01', SAFETY: '2026-01-01', MARKET: '2026-01-01' }),
      }),
      codes: ['SYSTEM_RAIL_STALE', 'SYSTEM_RAIL_STALE', 'SYSTEM_RAIL_STALE'],
      posture: 'ELEVATED',
    },
  ]);
});
