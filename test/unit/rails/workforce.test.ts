import { expect } from 'chai';
import {
  WORKFORCE_HEADCOUNT_SWING_PCT,
  WORKFORCE_PAYROLL_DUE_DAYS,
  WORKFORCE_PAYROLL_MAX_GAP_DAYS,
  WORKFORCE_RAIL,
} from '../../../src/rails/workforce.js';
import { draw, facts, NOW, obs, railTable } from './builders.js';

const week = (id: string, from: string, to: string, extra: Parameters<typeof obs.payroll>[1] = {}) =>
  obs.payroll(id, { period_from: from, period_to: to, ...extra });

describe('WORKFORCE rail (DOMAIN §8)', () => {
  it('uses the documented thresholds', () => {
    expect([
      WORKFORCE_PAYROLL_MAX_GAP_DAYS,
      WORKFORCE_PAYROLL_DUE_DAYS,
      WORKFORCE_HEADCOUNT_SWING_PCT,
    ]).to.deep.equal([7, 7, 40]);
  });

  railTable(WORKFORCE_RAIL, [
    {
      given: 'contiguous compliant weekly payrolls with a steady crew',
      facts: facts({
        observations: [
          week('OBS-1', '2026-05-25', '2026-05-31'),
          week('OBS-2', '2026-06-01', '2026-06-07', { headcount: 22 }),
        ],
      }),
      codes: [],
      posture: 'NOMINAL',
    },
    {
      given: 'a 7-day gap between payroll periods (just under)',
      facts: facts({
        observations: [week('OBS-1', '2026-05-25', '2026-05-31'), week('OBS-2', '2026-06-08', '2026-06-14')],
      }),
      codes: [],
    },
    {
      given: 'an 8-day gap between payroll periods (just over)',
      facts: facts({
        observations: [week('OBS-1', '2026-05-25', '2026-05-31'), week('OBS-2', '2026-06-09', '2026-06-14')],
      }),
      codes: ['WORKFORCE_PAYROLL_MISSING'],
      posture: 'NOMINAL',
    },
    {
      given: 'the last period ended 14 days ago (just under the 7 + 7 day silence limit)',
      facts: facts({ observations: [week('OBS-1', '2026-05-26', '2026-06-01')] }),
      codes: [],
    },
    {
      given: 'the last period ended 15 days ago (just over)',
      facts: facts({ observations: [week('OBS-1', '2026-05-25', '2026-05-31')] }),
      codes: ['WORKFORCE_PAYROLL_MISSING'],
    },
    {
      given: 'a silence of 15 days on a project whose work is 100 % complete',
      facts: facts({
        observations: [week('OBS-1', '2026-05-25', '2026-05-31')],
        draws: [draw('DRW-1', 100)],
      }),
      codes: [],
    },
    {
      given: 'a prevailing-wage violation on the latest payroll',
      facts: facts({
        observations: [
          week('OBS-1', '2026-05-25', '2026-05-31'),
          week('OBS-2', '2026-06-01', '2026-06-07', { prevailing_wage_ok: false }),
        ],
      }),
      codes: ['WORKFORCE_WAGE_VIOLATION'],
      severities: ['WARNING'],
    },
    {
      given: 'a violation followed by a compliant payroll of the same crew',
      facts: facts({
        observations: [
          week('OBS-1', '2026-05-25', '2026-05-31', { prevailing_wage_ok: false }),
          week('OBS-2', '2026-06-01', '2026-06-07'),
        ],
      }),
      codes: [],
    },
    {
      given: `a headcount change of exactly ${WORKFORCE_HEADCOUNT_SWING_PCT} % (20 → 28)`,
      facts: facts({
        observations: [
          week('OBS-1', '2026-05-25', '2026-05-31', { headcount: 20 }),
          week('OBS-2', '2026-06-01', '2026-06-07', { headcount: 28 }),
        ],
      }),
      codes: [],
    },
    {
      given:
        'a headcount change of exactly 40 % in counts past 2^53 / 100 (3,835,817,681,779,950 → 5,370,144,754,491,930)',
      facts: facts({
        observations: [
          week('OBS-1', '2026-05-25', '2026-05-31', { headcount: 3_835_817_681_779_950 }),
          week('OBS-2', '2026-06-01', '2026-06-07', { headcount: 5_370_144_754_491_930 }),
        ],
      }),
      codes: [],
    },
    {
      given: 'a headcount drop of 45 % (20 → 11)',
      facts: facts({
        observations: [
          week('OBS-1', '2026-05-25', '2026-05-31', { headcount: 20 }),
          week('OBS-2', '2026-06-01', '2026-06-07', { headcount: 11 }),
        ],
      }),
      codes: ['WORKFORCE_HEADCOUNT_SWING'],
    },
    {
      given: 'three crews each with a standing wage violation',
      facts: facts({
        observations: ['ent_sub1', 'ent_sub2', 'ent_sub3'].map((entity_id, i) =>
          week(`OBS-${i}`, '2026-06-01', '2026-06-07', { entity_id, prevailing_wage_ok: false }),
        ),
      }),
      codes: ['WORKFORCE_WAGE_VIOLATION', 'WORKFORCE_WAGE_VIOLATION', 'WORKFORCE_WAGE_VIOLATION'],
      posture: 'CRITICAL',
    },
  ]);

  it('names the uncovered days and both payrolls around a gap', () => {
    const f = facts({
      observations: [week('OBS-1', '2026-05-25', '2026-05-31'), week('OBS-2', '2026-06-09', '2026-06-14')],
    });
    const [gap] = WORKFORCE_RAIL.evaluate(f, NOW).findings;
    expect(gap?.detail).to.contain('2026-06-01 to 2026-06-08');
    expect(gap?.evidence).to.deep.equal([
      { kind: 'observation', id: 'OBS-1' },
      { kind: 'observation', id: 'OBS-2' },
    ]);
    expect(WORKFORCE_RAIL.evaluate(f, NOW).score).to.equal(90);
  });
});
