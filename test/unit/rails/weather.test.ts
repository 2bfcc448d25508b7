import { expect } from 'chai';
import type { WeatherForecast } from '../../../src/projects/facts.js';
import {
  WEATHER_COLD_POUR_C,
  WEATHER_HEAT_INDEX_C,
  WEATHER_LOOKAHEAD_DAYS,
  WEATHER_LOST_DAY_PRECIP_MM,
  WEATHER_LOST_DAY_WIND_KPH,
  WEATHER_LOST_DAYS_LIMIT,
  WEATHER_POUR_LOOKBACK_DAYS,
  WEATHER_RAIL,
} from '../../../src/rails/weather.js';
import { facts, obs, railTable } from './builders.js';

/** Day `n` of the lookahead (0 = today, 2026-06-15). */
const day = (n: number): string => new Date(Date.UTC(2026, 5, 15 + n)).toISOString().slice(0, 10);
const rainy = (n: number, precip_mm = 12): WeatherForecast =>
  obs.forecast(`OBS-f${n}`, day(n), { precip_mm });
const mild = (n: number): WeatherForecast => obs.forecast(`OBS-f${n}`, day(n));

describe('WEATHER rail (DOMAIN §8)', () => {
  it('uses the documented thresholds', () => {
    expect([
      WEATHER_LOOKAHEAD_DAYS,
      WEATHER_LOST_DAYS_LIMIT,
      WEATHER_LOST_DAY_PRECIP_MM,
      WEATHER_LOST_DAY_WIND_KPH,
      WEATHER_HEAT_INDEX_C,
      WEATHER_COLD_POUR_C,
      WEATHER_POUR_LOOKBACK_DAYS,
    ]).to.deep.equal([14, 5, 10, 45, 39, 5, 28]);
  });

  railTable(WEATHER_RAIL, [
    {
      given: 'fourteen mild days ahead and a warm pour',
      facts: facts({
        observations: [...Array.from({ length: 14 }, (_, n) => mild(n)), obs.thermal('OBS-t1')],
      }),
      codes: [],
      posture: 'NOMINAL',
    },
    {
      given: 'four lost workdays ahead',
      facts: facts({ observations: [0, 2, 4, 6].map((n) => rainy(n)) }),
      codes: [],
    },
    {
      given: 'five lost workdays ahead',
      facts: facts({ observations: [0, 2, 4, 6, 13].map((n) => rainy(n)) }),
      codes: ['WEATHER_LOST_DAYS'],
    },
    {
      given: 'four lost workdays ahead and a fifth on day 14, outside the window',
      facts: facts({ observations: [0, 2, 4, 6, 14].map((n) => rainy(n)) }),
      codes: [],
    },
    {
      given: 'five days of 9.9 mm rain (just under the lost-day threshold)',
      facts: facts({ observations: [0, 1, 2, 3, 4].map((n) => rainy(n, 9.9)) }),
      codes: [],
    },
    {
      given: 'five days of 45 km/h wind',
      facts: facts({
        observations: [0, 1, 2, 3, 4].map((n) => obs.forecast(`OBS-w${n}`, day(n), { wind_kph: 45 })),
      }),
      codes: ['WEATHER_LOST_DAYS'],
    },
    {
      given: 'five rainy forecasts later revised to dry for two of the days',
      facts: facts({
        observations: [
          ...[0, 1, 2, 3, 4].map((n) => ({ ...rainy(n), observed_on: '2026-06-10' })),
          obs.forecast('OBS-r1', day(1), { observed_on: '2026-06-14' }),
          obs.forecast('OBS-r2', day(2), { observed_on: '2026-06-14' }),
        ],
      }),
      codes: [],
    },
    {
      given: 'a heat index of 38.9 °C ahead',
      facts: facts({ observations: [obs.forecast('OBS-h', day(3), { heat_index_c: 38.9 })] }),
      codes: [],
    },
    {
      given: 'a heat index of 39 °C ahead',
      facts: facts({ observations: [obs.forecast('OBS-h', day(3), { heat_index_c: 39 })] }),
      codes: ['WEATHER_HEAT'],
    },
    {
      given: 'a pour scanned at 4.9 °C',
      facts: facts({ observations: [obs.thermal('OBS-t1', { temp_c: 4.9 })] }),
      codes: ['WEATHER_COLD_POUR'],
    },
    {
      given: 'a pour scanned at 5 °C',
      facts: facts({ observations: [obs.thermal('OBS-t1', { temp_c: 5 })] }),
      codes: [],
    },
    {
      given: 'a non-pour thermal scan at −3 °C',
      facts: facts({ observations: [obs.thermal('OBS-t1', { temp_c: -3, concrete_pour: false })] }),
      codes: [],
    },
    {
      given: 'a cold pour 28 days ago (still curing)',
      facts: facts({ observations: [obs.thermal('OBS-t1', { temp_c: 2, observed_on: '2026-05-18' })] }),
      codes: ['WEATHER_COLD_POUR'],
    },
    {
      given: 'a cold pour 29 days ago (cured)',
      facts: facts({ observations: [obs.thermal('OBS-t1', { temp_c: 2, observed_on: '2026-05-17' })] }),
      codes: [],
    },
    {
      given: 'four cold pours this month',
      facts: facts({ observations: [1, 2, 3, 4].map((n) => obs.thermal(`OBS-t${n}`, { temp_c: 1 })) }),
      codes: ['WEATHER_COLD_POUR', 'WEATHER_COLD_POUR', 'WEATHER_COLD_POUR', 'WEATHER_COLD_POUR'],
      posture: 'CRITICAL',
    },
  ]);
});
