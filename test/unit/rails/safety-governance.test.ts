import { expect } from 'chai';
import {
  SAFETY_LOOKBACK_DAYS,
  SAFETY_RAIL,
  SAFETY_TRIR_HOURS_BASE,
  SAFETY_TRIR_LIMIT,
} from '../../../src/rails/safety-governance.js';
import { facts, obs, railTable } from './builders.js';

const incidents = (n: number) => Array.from({ length: n }, (_, i) => obs.incident(`OBS-i${i}`));

describe('SAFETY rail (DOMAIN §8)', () => {
  it('uses the documented thresholds', () => {
    expect([SAFETY_TRIR_LIMIT, SAFETY_TRIR_HOURS_BASE, SAFETY_LOOKBACK_DAYS]).to.deep.equal([
      3, 200_000, 365,
    ]);
  });

  railTable(SAFETY_RAIL, [
    {
      given: 'an abated "other" citation and a TRIR of 2.0',
      facts: facts({
        observations: [
          obs.citation('OBS-c1', { type: 'O', abated_on: '2026-06-01' }),
          ...incidents(1),
          obs.hours('OBS-h1', 100_000),
        ],
      }),
      codes: [],
      posture: 'NOMINAL',
    },
    {
      given: 'a serious citation',
      facts: facts({ observations: [obs.citation('OBS-c1', { type: 'S' })] }),
      codes: ['SAFETY_SERIOUS_CITATION'],
      severities: ['WARNING'],
      posture: 'NOMINAL',
    },
    {
      given: 'an unabated willful citation',
      facts: facts({ observations: [obs.citation('OBS-c1', { type: 'W' })] }),
      codes: ['SAFETY_SERIOUS_CITATION'],
      severities: ['CRITICAL'],
      posture: 'CRITICAL',
    },
    {
      given: 'an abated repeat citation',
      facts: facts({ observations: [obs.citation('OBS-c1', { type: 'R', abated_on: '2026-06-10' })] }),
      codes: ['SAFETY_SERIOUS_CITATION'],
      severities: ['WARNING'],
    },
    {
      given: 'an abated serious citation observed 365 days ago (inside the window)',
      facts: facts({
        observations: [
          obs.citation('OBS-c1', { type: 'S', observed_on: '2025-06-15', abated_on: '2025-07-01' }),
        ],
      }),
      codes: ['SAFETY_SERIOUS_CITATION'],
    },
    {
      given: 'an abated serious citation observed 366 days ago (outside the window)',
      facts: facts({
        observations: [
          obs.citation('OBS-c1', { type: 'S', observed_on: '2025-06-14', abated_on: '2025-07-01' }),
        ],
      }),
      codes: [],
    },
    {
      given: 'an open abatement due today',
      facts: facts({ observations: [obs.citation('OBS-c1', { abate_by: '2026-06-15' })] }),
      codes: [],
    },
    {
      given: 'an open abatement due yesterday',
      facts: facts({ observations: [obs.citation('OBS-c1', { abate_by: '2026-06-14' })] }),
      codes: ['SAFETY_ABATEMENT_PAST_DUE'],
    },
    {
      given: '3 recordables over 200,000 hours (TRIR exactly 3.0)',
      facts: facts({ observations: [...incidents(3), obs.hours('OBS-h1', 200_000)] }),
      codes: [],
    },
    {
      given: '3 recordables over three reports totalling 200,000 hours (15,272.8 + 183,434.8 + 1,292.4)',
      // Summed in binary the hours are 199,999.99999999997 and the rate 3.0000000000000004.
      facts: facts({
        observations: [
          ...incidents(3),
          obs.hours('OBS-h1', 15_272.8),
          obs.hours('OBS-h2', 183_434.8),
          obs.hours('OBS-h3', 1_292.4),
        ],
      }),
      codes: [],
    },
    {
      given: '3 recordables over 199,999 hours (TRIR just over 3.0)',
      facts: facts({ observations: [...incidents(3), obs.hours('OBS-h1', 199_999)] }),
      codes: ['SAFETY_TRIR_HIGH'],
    },
    {
      given: '3 incidents, one not recordable, over 100,000 hours (TRIR 4.0 from 2 recordables)',
      facts: facts({
        observations: [
          ...incidents(2),
          obs.incident('OBS-x', { recordable: false }),
          obs.hours('OBS-h1', 100_000),
        ],
      }),
      codes: ['SAFETY_TRIR_HIGH'],
    },
    {
      given: 'recordable incidents but no hours reported (no rate can be computed)',
      facts: facts({ observations: incidents(5) }),
      codes: [],
    },
    {
      given: 'a willful citation, its abatement past due and a high TRIR',
      facts: facts({
        observations: [
          obs.citation('OBS-c1', { type: 'W', abate_by: '2026-06-01' }),
          ...incidents(4),
          obs.hours('OBS-h', 1000),
        ],
      }),
      codes: ['SAFETY_ABATEMENT_PAST_DUE', 'SAFETY_SERIOUS_CITATION', 'SAFETY_TRIR_HIGH'],
      posture: 'CRITICAL',
    },
  ]);
});
