import { expect } from 'chai';
import {
  MARKET_CO_VELOCITY_PCT_PER_MONTH,
  MARKET_CO_WINDOW_DAYS,
  MARKET_COST_ESCALATION_PCT,
  MARKET_DAYS_PER_MONTH,
  MARKET_RAIL,
} from '../../../src/rails/market.js';
import { changeOrder, facts, obs, railTable } from './builders.js';

/** The default contract is $10,000,000: 2 %/month over 3 months = $600,000 = 60,000,000 cents. */
const AT_LIMIT = 60_000_000;

describe('MARKET rail (DOMAIN §8)', () => {
  it('uses the documented thresholds', () => {
    expect([
      MARKET_CO_VELOCITY_PCT_PER_MONTH,
      MARKET_CO_WINDOW_DAYS,
      MARKET_DAYS_PER_MONTH,
      MARKET_COST_ESCALATION_PCT,
    ]).to.deep.equal([2, 90, 30, 10]);
  });

  railTable(MARKET_RAIL, [
    {
      given: 'a 5 % change order this quarter and rebar 5 % above baseline',
      facts: facts({
        change_orders: [changeOrder('CO-1', 50_000_000, '2026-05-01')],
        observations: [obs.costIndex('OBS-c1', 105, 100)],
      }),
      codes: [],
      posture: 'NOMINAL',
    },
    {
      given: 'change orders adding exactly 2 % of the contract per month',
      facts: facts({ change_orders: [changeOrder('CO-1', AT_LIMIT, '2026-06-01')] }),
      codes: [],
    },
    {
      given: 'change orders adding just over 2 % per month',
      facts: facts({ change_orders: [changeOrder('CO-1', AT_LIMIT + 1_000, '2026-06-01')] }),
      codes: ['MARKET_CO_VELOCITY'],
    },
    {
      given: 'a large change order executed 90 days ago (outside the window)',
      facts: facts({ change_orders: [changeOrder('CO-1', 3 * AT_LIMIT, '2026-03-17')] }),
      codes: [],
    },
    {
      given: 'a large change order executed 89 days ago (inside the window)',
      facts: facts({ change_orders: [changeOrder('CO-1', 3 * AT_LIMIT, '2026-03-18')] }),
      codes: ['MARKET_CO_VELOCITY'],
    },
    {
      given: 'a large change order not yet executed',
      facts: facts({ change_orders: [changeOrder('CO-1', 3 * AT_LIMIT, null)] }),
      codes: [],
    },
    {
      given: 'an additive change order netted by a deductive one',
      facts: facts({
        change_orders: [
          changeOrder('CO-1', 3 * AT_LIMIT, '2026-06-01'),
          changeOrder('CO-2', -3 * AT_LIMIT, '2026-06-02'),
        ],
      }),
      codes: [],
    },
    {
      given: 'an index of 1.05e308 over a baseline of 1e308 (5 %; the difference × 100 overflows a double)',
      facts: facts({ observations: [obs.costIndex('OBS-c1', 1.05e308, 1e308)] }),
      codes: [],
    },
    {
      given: 'an index of 1.7e308 over a baseline of 1e308 (70 %)',
      facts: facts({ observations: [obs.costIndex('OBS-c1', 1.7e308, 1e308)] }),
      codes: ['MARKET_COST_ESCALATION'],
    },
    {
      given: 'rebar exactly 10 % above its baseline',
      facts: facts({ observations: [obs.costIndex('OBS-c1', 110, 100)] }),
      codes: [],
    },
    {
      given: 'an index of 1.1 over a baseline of 1 (exactly 10 %, typed as decimals)',
      facts: facts({
        observations: [
          obs.costIndex('OBS-c1', 1.1, 1),
          obs.costIndex('OBS-c2', 0.33, 0.3, { material: 'Lumber' }),
        ],
      }),
      codes: [],
    },
    {
      given: 'rebar 10.1 % above its baseline',
      facts: facts({ observations: [obs.costIndex('OBS-c1', 110.1, 100)] }),
      codes: ['MARKET_COST_ESCALATION'],
    },
    {
      given: 'an escalated reading superseded by a later one near baseline',
      facts: facts({
        observations: [
          obs.costIndex('OBS-c1', 130, 100, { observed_on: '2026-05-01' }),
          obs.costIndex('OBS-c2', 102, 100, { observed_on: '2026-06-01' }),
        ],
      }),
      codes: [],
    },
    {
      given: 'fast change orders and four escalating materials',
      facts: facts({
        change_orders: [changeOrder('CO-1', 3 * AT_LIMIT, '2026-06-01')],
        observations: ['Rebar', 'Lumber', 'Copper', 'Concrete'].map((material) =>
          obs.costIndex(`OBS-${material}`, 125, 100, { material }),
        ),
      }),
      // Code order is plain code-unit order: "COST" sorts before "CO_".
      codes: [
        'MARKET_COST_ESCALATION',
        'MARKET_COST_ESCALATION',
        'MARKET_COST_ESCALATION',
        'MARKET_COST_ESCALATION',
        'MARKET_CO_VELOCITY',
      ],
      posture: 'CRITICAL',
    },
  ]);
});
