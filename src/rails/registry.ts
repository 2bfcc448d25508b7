/**
 * The eleven rails in SPEC §7 order, and lookups by path and name for the HTTP edge.
 */
import { COUNTERPARTY_RAIL } from './counterparty.js';
import { ENVIRONMENTAL_RAIL } from './environmental.js';
import { EQUIPMENT_RAIL } from './equipment.js';
import { INSURANCE_RAIL } from './insurance.js';
import { MARKET_RAIL } from './market.js';
import { PROCUREMENT_RAIL } from './procurement.js';
import type { Rail, RailName } from './rail.js';
import { SAFETY_RAIL } from './safety-governance.js';
import { SCHEDULE_RAIL } from './schedule.js';
import { SYSTEM_RISK_RAIL } from './system-risk.js';
import { WEATHER_RAIL } from './weather.js';
import { WORKFORCE_RAIL } from './workforce.js';

/** Every rail, in RAIL_NAMES order (the registry test checks the two agree). */
export const RAILS: readonly Rail[] = Object.freeze([
  SYSTEM_RISK_RAIL,
  WORKFORCE_RAIL,
  SCHEDULE_RAIL,
  SAFETY_RAIL,
  INSURANCE_RAIL,
  ENVIRONMENTAL_RAIL,
  PROCUREMENT_RAIL,
  EQUIPMENT_RAIL,
  WEATHER_RAIL,
  COUNTERPARTY_RAIL,
  MARKET_RAIL,
]);

/** The rail served at `path` (e.g. `/api/schedule-rail`); undefined for any other path. */
export function railByPath(path: string): Rail | undefined {
  return RAILS.find((r) => r.path === path);
}

export function railByName(name: RailName): Rail {
  const rail = RAILS.find((r) => r.name === name);
  // RAILS lists every RailName (tested), so this only fires if that invariant is broken.
  if (rail === undefined) throw new TypeError(`no rail named ${name}`);
  return rail;
}
