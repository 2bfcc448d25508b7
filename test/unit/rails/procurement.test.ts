import { expect } from 'chai';
import { PROCUREMENT_LATE_GRACE_DAYS, PROCUREMENT_RAIL } from '../../../src/rails/procurement.js';
import { draw, facts, obs, railTable } from './builders.js';

/** The latest draw bills $500,000 of stored materials on line 1 for a period ending 2026-05-31. */
const storedDraw = draw('DRW-1', 40, {}, 50_000_000);

describe('PROCUREMENT rail (DOMAIN §8)', () => {
  it('uses the documented threshold', () => expect(PROCUREMENT_LATE_GRACE_DAYS).to.equal(0));

  railTable(PROCUREMENT_RAIL, [
    {
      given: 'a critical delivery made on time and no stored materials billed',
      facts: facts({ observations: [obs.delivery('OBS-d1')], draws: [draw('DRW-1', 40)] }),
      codes: [],
      posture: 'NOMINAL',
    },
    {
      given: 'an undelivered critical material needed today',
      facts: facts({
        observations: [obs.delivery('OBS-d1', { needed_by: '2026-06-15', delivered_on: null })],
      }),
      codes: [],
    },
    {
      given: 'an undelivered critical material needed yesterday',
      facts: facts({
        observations: [obs.delivery('OBS-d1', { needed_by: '2026-06-14', delivered_on: null })],
      }),
      codes: ['PROCUREMENT_LATE_CRITICAL'],
    },
    {
      given: 'an undelivered non-critical material needed last week',
      facts: facts({
        observations: [
          obs.delivery('OBS-d1', { needed_by: '2026-06-08', delivered_on: null, critical: false }),
        ],
      }),
      codes: [],
    },
    {
      given: 'a late critical order later recorded as delivered',
      facts: facts({
        observations: [
          obs.delivery('OBS-d1', { needed_by: '2026-06-08', delivered_on: null, observed_on: '2026-06-09' }),
          obs.delivery('OBS-d2', {
            needed_by: '2026-06-08',
            delivered_on: '2026-06-12',
            observed_on: '2026-06-12',
          }),
        ],
      }),
      codes: [],
    },
    {
      given: 'stored materials billed with their delivery recorded before the period end',
      facts: facts({
        draws: [storedDraw],
        observations: [obs.delivery('OBS-d1', { delivered_on: '2026-05-30' })],
      }),
      codes: [],
    },
    {
      given: 'stored materials billed with no delivery record for the line',
      facts: facts({ draws: [storedDraw] }),
      codes: ['PROCUREMENT_UNDELIVERED_STORED'],
      severities: ['WARNING'],
      posture: 'NOMINAL',
    },
    {
      given: 'stored materials billed while the delivery record shows it arrived after the period end',
      facts: facts({
        draws: [storedDraw],
        observations: [obs.delivery('OBS-d1', { needed_by: '2026-06-20', delivered_on: '2026-06-01' })],
      }),
      codes: ['PROCUREMENT_UNDELIVERED_STORED'],
      severities: ['CRITICAL'],
      posture: 'CRITICAL',
    },
  ]);
});
