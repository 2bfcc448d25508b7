import { expect } from 'chai';
import { ENV_BUDGET_LIMIT_PCT, ENVIRONMENTAL_RAIL } from '../../../src/rails/environmental.js';
import { facts, obs, railTable } from './builders.js';

describe('ENVIRONMENTAL rail (DOMAIN §8)', () => {
  it('uses the documented threshold', () => expect(ENV_BUDGET_LIMIT_PCT).to.equal(100));

  railTable(ENVIRONMENTAL_RAIL, [
    {
      given: 'emissions exactly at budget and a clean inspection',
      facts: facts({ observations: [obs.emissions('OBS-e1', 100, 100), obs.envInspection('OBS-i1')] }),
      codes: [],
      posture: 'NOMINAL',
    },
    {
      given:
        'emissions exactly at a budget of 1000.001 tCO2e (budget × 100 / 100 is 1000.0009999… in binary)',
      facts: facts({ observations: [obs.emissions('OBS-e1', 1000.001, 1000.001)] }),
      codes: [],
    },
    {
      given: 'emissions exactly at a budget of 1e308 tCO2e (× 100 before dividing would overflow)',
      facts: facts({ observations: [obs.emissions('OBS-e1', 1e308, 1e308)] }),
      codes: [],
    },
    {
      given: 'emissions 0.001 tCO2e over a budget of 1000.001 tCO2e',
      facts: facts({ observations: [obs.emissions('OBS-e1', 1000.002, 1000.001)] }),
      codes: ['ENV_OVER_BUDGET'],
    },
    {
      given: 'emissions 0.1 tCO2e over budget',
      facts: facts({ observations: [obs.emissions('OBS-e1', 100.1, 100)] }),
      codes: ['ENV_OVER_BUDGET'],
      posture: 'NOMINAL',
    },
    {
      given: 'an over-budget report superseded by a later one within budget',
      facts: facts({
        observations: [
          obs.emissions('OBS-e1', 120, 100, { observed_on: '2026-05-01' }),
          obs.emissions('OBS-e2', 180, 200, { observed_on: '2026-06-01' }),
        ],
      }),
      codes: [],
    },
    {
      given: 'a failed inspection with two violations as the latest',
      facts: facts({ observations: [obs.envInspection('OBS-i1', { passed: false, violations: 2 })] }),
      codes: ['ENV_VIOLATION_OPEN'],
    },
    {
      given: 'a passed inspection that still lists one violation',
      facts: facts({ observations: [obs.envInspection('OBS-i1', { violations: 1 })] }),
      codes: ['ENV_VIOLATION_OPEN'],
    },
    {
      given: 'a failed inspection followed by a clean one',
      facts: facts({
        observations: [
          obs.envInspection('OBS-i1', { passed: false, violations: 2, observed_on: '2026-05-01' }),
          obs.envInspection('OBS-i2', { observed_on: '2026-06-01' }),
        ],
      }),
      codes: [],
    },
    {
      given: 'open violations on three sites',
      facts: facts({
        observations: ['prj_1', 'prj_2', 'prj_3'].map((project_id) =>
          obs.envInspection(`OBS-${project_id}`, { project_id, passed: false, violations: 1 }),
        ),
      }),
      codes: ['ENV_VIOLATION_OPEN', 'ENV_VIOLATION_OPEN', 'ENV_VIOLATION_OPEN'],
      posture: 'CRITICAL',
    },
  ]);
});
