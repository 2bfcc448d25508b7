import { expect } from 'chai';
import type { RailName } from '../../../src/rails/rail.js';
import { SYSTEM_RAIL_STALE_DAYS, SYSTEM_RISK_RAIL } from '../../../src/rails/system-risk.js';
import { facts, NOW, platform, railTable } from './builders.js';

const fed = (days: Partial<Record<RailName, string>>) =>
  platform({ rail_data_last_observed: { ...platform().rail_data_last_observed, ...days } });

describe('SYSTEM_RISK rail (DOMAIN §8)', () => {
  it('uses the documented threshold', () => {
    expect(SYSTEM_RAIL_STALE_DAYS).to.equal(30);
  });

  it('reads ledger facts only: the same slice at another ledger head scores the same', () => {
    const fedFacts = (seq: number) =>
      facts({
        platform: {
          ...fed({ WORKFORCE: '2026-05-15' }),
          ledger_head: { seq, hash: 'c'.repeat(64) },
        },
      });
    expect(SYSTEM_RISK_RAIL.evaluate(fedFacts(10), NOW)).to.deep.equal(
      SYSTEM_RISK_RAIL.evaluate(fedFacts(90_000), NOW),
    );
  });

  railTable(SYSTEM_RISK_RAIL, [
    {
      given: 'no rail ever fed (nothing to judge freshness by)',
      facts: facts(),
      codes: ['INSUFFICIENT_DATA'],
      severities: ['WARNING'],
      posture: 'ELEVATED',
    },
    {
      given: 'rails fed this month',
      facts: facts({ platform: fed({ WORKFORCE: '2026-06-01', WEATHER: '2026-06-14' }) }),
      codes: [],
      posture: 'NOMINAL',
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
