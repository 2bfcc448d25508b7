/**
 * WEATHER rail (DOMAIN §8): the next 14 days' forecasts per site (lost workdays, heat) and
 * concrete poured in the cold, from thermal scans.
 */
import type { IsoDate, ThermalScan, WeatherForecast } from '../projects/facts.js';
import { dayOf, daysBetween, latestOf } from './dates.js';
import { finding, type RailFinding } from './findings.js';
import { groupBy, keyOf, latestPer, observationsOf, siteOf } from './observations.js';
import { RAIL_PATHS, type Rail, type RailFacts } from './rail.js';
import { evaluateWith, observed, type FactCheck } from './coverage.js';

/** DOMAIN §8: forecasts looked at, today included. */
export const WEATHER_LOOKAHEAD_DAYS = 14;
/** DOMAIN §8: this many lost-workday forecasts in the lookahead is a finding (≥). */
export const WEATHER_LOST_DAYS_LIMIT = 5;
/** Lost workday (DOMAIN §8 leaves it to us): at least 10 mm of rain, the usual "rain day" in delay clauses. */
export const WEATHER_LOST_DAY_PRECIP_MM = 10;
/** Lost workday: wind of at least 45 km/h (≈ 28 mph, the common limit for cranes and aerial lifts). */
export const WEATHER_LOST_DAY_WIND_KPH = 45;
/** DOMAIN §8: heat index at or above 39 °C. */
export const WEATHER_HEAT_INDEX_C = 39;
/** DOMAIN §8: concrete poured below 5 °C. */
export const WEATHER_COLD_POUR_C = 5;
/** Days a cold pour stays a finding: concrete reaches design strength in 28 days, so curing risk lasts that long. */
export const WEATHER_POUR_LOOKBACK_DAYS = 28;

export function isLostWorkday(f: WeatherForecast): boolean {
  return f.precip_mm >= WEATHER_LOST_DAY_PRECIP_MM || f.wind_kph >= WEATHER_LOST_DAY_WIND_KPH;
}

/** The newest forecast for each (site, day) within the lookahead window. */
function upcoming(facts: RailFacts, today: IsoDate): WeatherForecast[] {
  const ahead = (f: WeatherForecast): boolean => {
    const d = daysBetween(today, f.date);
    return d >= 0 && d < WEATHER_LOOKAHEAD_DAYS;
  };
  return latestPer(observationsOf(facts, 'weather_forecast').filter(ahead), (f) => keyOf(siteOf(f), f.date));
}

function forecastFinding(
  code: 'WEATHER_LOST_DAYS' | 'WEATHER_HEAT',
  days: readonly WeatherForecast[],
  title: string,
  detail: string,
): RailFinding[] {
  const first = days[0];
  if (first === undefined) return [];
  return [
    finding(code, 'WARNING', {
      project_id: first.project_id,
      entity_id: first.entity_id,
      title,
      detail,
      evidence: days.map((f) => ({ kind: 'observation', id: f.id })),
      observed_on: latestOf(days.map((f) => f.observed_on)) ?? first.observed_on,
    }),
  ];
}

function siteForecastFindings(forecasts: readonly WeatherForecast[]): RailFinding[] {
  const byDate = [...forecasts].sort((a, b) => (a.date < b.date ? -1 : 1));
  const lost = byDate.filter(isLostWorkday);
  const hot = byDate.filter((f) => f.heat_index_c >= WEATHER_HEAT_INDEX_C);
  const out: RailFinding[] = [];
  if (lost.length >= WEATHER_LOST_DAYS_LIMIT) {
    const detail = `${lost.length} forecast lost workdays in the next ${WEATHER_LOOKAHEAD_DAYS} days (limit ${WEATHER_LOST_DAYS_LIMIT}): ${lost.map((f) => f.date).join(', ')}.`;
    out.push(...forecastFinding('WEATHER_LOST_DAYS', lost, 'Lost workdays forecast', detail));
  }
  if (hot.length > 0) {
    const detail = `Heat index ≥ ${WEATHER_HEAT_INDEX_C} °C forecast on ${hot.map((f) => `${f.date} (${f.heat_index_c} °C)`).join(', ')}.`;
    out.push(...forecastFinding('WEATHER_HEAT', hot, 'Extreme heat forecast', detail));
  }
  return out;
}

function coldPours(scans: readonly ThermalScan[], today: IsoDate): RailFinding[] {
  return scans.flatMap((s) => {
    const age = daysBetween(s.observed_on, today);
    if (!s.concrete_pour || s.temp_c >= WEATHER_COLD_POUR_C || age > WEATHER_POUR_LOOKBACK_DAYS) return [];
    return [
      finding('WEATHER_COLD_POUR', 'WARNING', {
        project_id: s.project_id,
        entity_id: s.entity_id,
        title: 'Concrete poured in the cold',
        detail: `Thermal scan of a pour read ${s.temp_c} °C on ${s.observed_on} (floor ${WEATHER_COLD_POUR_C} °C).`,
        evidence: [{ kind: 'observation', id: s.id }],
        observed_on: s.observed_on,
      }),
    ];
  });
}

export function weatherFindings(facts: RailFacts, now: Date): RailFinding[] {
  const today = dayOf(now);
  const sites = groupBy(upcoming(facts, today), siteOf);
  return [
    ...[...sites.values()].flatMap(siteForecastFindings),
    ...coldPours(observationsOf(facts, 'thermal_scan'), today),
  ];
}

/** The facts the WEATHER rail reads (DOMAIN §8 table): none of them → INSUFFICIENT_DATA. */
export const WEATHER_FACTS: readonly FactCheck[] = [observed('weather_forecast'), observed('thermal_scan')];

export const WEATHER_RAIL: Rail = {
  name: 'WEATHER',
  path: RAIL_PATHS.WEATHER,
  evaluate: evaluateWith('WEATHER', WEATHER_FACTS, weatherFindings),
};
