import { expect } from 'chai';
import {
  EQUIPMENT_FAILURE_RISK_FACTOR,
  EQUIPMENT_LOW_UTILIZATION_PCT,
  EQUIPMENT_MAINTENANCE_DUE_FACTOR,
  EQUIPMENT_RAIL,
} from '../../../src/rails/equipment.js';
import { facts, NOW, obs, railTable } from './builders.js';

/** Interval 250 hours: overdue past 250, failure risk past 300. */
const crane = (id: string, hours: number, extra: Parameters<typeof obs.equipment>[1] = {}) =>
  obs.equipment(id, { hours, interval_hours: 250, ...extra });

describe('EQUIPMENT rail (DOMAIN §8)', () => {
  it('uses the documented thresholds', () => {
    expect([
      EQUIPMENT_MAINTENANCE_DUE_FACTOR,
      EQUIPMENT_FAILURE_RISK_FACTOR,
      EQUIPMENT_LOW_UTILIZATION_PCT,
    ]).to.deep.equal([1, 1.2, 30]);
  });

  railTable(EQUIPMENT_RAIL, [
    {
      given: 'a busy crane well inside its service interval',
      facts: facts({ observations: [crane('OBS-1', 100)] }),
      codes: [],
      posture: 'NOMINAL',
    },
    {
      given: 'hours since service exactly at the interval',
      facts: facts({ observations: [crane('OBS-1', 250)] }),
      codes: [],
    },
    {
      given: 'hours since service one past the interval',
      facts: facts({ observations: [crane('OBS-1', 251)] }),
      codes: ['EQUIPMENT_MAINTENANCE_OVERDUE'],
    },
    {
      given: 'hours since service exactly 1.2 × the interval',
      facts: facts({ observations: [crane('OBS-1', 300)] }),
      codes: ['EQUIPMENT_MAINTENANCE_OVERDUE'],
    },
    {
      given: 'hours since service exactly 1.2 × a decimal interval (5.4 hours over 4.5)',
      facts: facts({ observations: [crane('OBS-1', 5.4, { interval_hours: 4.5 })] }),
      codes: ['EQUIPMENT_MAINTENANCE_OVERDUE'],
    },
    {
      given: 'hours since service just past 1.2 × the interval (failure risk supersedes overdue)',
      facts: facts({ observations: [crane('OBS-1', 301)] }),
      codes: ['EQUIPMENT_FAILURE_RISK'],
    },
    {
      given: 'utilization of 29.9 %',
      facts: facts({ observations: [crane('OBS-1', 100, { utilization_pct: 29.9 })] }),
      codes: ['EQUIPMENT_LOW_UTILIZATION'],
      severities: ['INFO'],
      posture: 'NOMINAL',
    },
    {
      given: 'utilization of exactly 30 %',
      facts: facts({ observations: [crane('OBS-1', 100, { utilization_pct: 30 })] }),
      codes: [],
    },
    {
      given: 'an overdue log superseded by a later log after service',
      facts: facts({
        observations: [
          crane('OBS-1', 280, { observed_on: '2026-06-01' }),
          crane('OBS-2', 10, { observed_on: '2026-06-10' }),
        ],
      }),
      codes: [],
    },
    {
      given: 'three assets at failure risk',
      facts: facts({ observations: ['A', 'B', 'C'].map((asset) => crane(`OBS-${asset}`, 400, { asset })) }),
      codes: ['EQUIPMENT_FAILURE_RISK', 'EQUIPMENT_FAILURE_RISK', 'EQUIPMENT_FAILURE_RISK'],
      posture: 'CRITICAL',
    },
  ]);

  it('scores one failure risk and one idle asset as 100 − 20 − 2', () => {
    const f = facts({
      observations: [crane('OBS-1', 400), crane('OBS-2', 10, { asset: 'Loader', utilization_pct: 5 })],
    });
    expect(EQUIPMENT_RAIL.evaluate(f, NOW).score).to.equal(78);
  });
});
