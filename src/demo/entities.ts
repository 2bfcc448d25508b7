/**
 * Registering the roster (`POST /api/entities`): every entity with an EIN, SAM-registered ones with
 * a UEI (and CAGE for federal contractors), all drawn from the seed and unique, because a repeated
 * identifier is a 409 duplicate registration (SPEC §2).
 */
import type { Rng } from './prng.js';
import { ROSTER, type RosterEntity } from './roster.js';
import type { Json, Timeline } from './steps.js';

export interface EntityIdentifiers {
  ein: string;
  uei: string | null;
  cage: string | null;
}

/** SAM UEI alphabet: digits and letters without I and O (registry/contract.ts UEI_PATTERN). */
const UEI_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
const CAGE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

function drawUnique(seen: Set<string>, draw: () => string): string {
  for (;;) {
    const value = draw();
    if (!seen.has(value)) {
      seen.add(value);
      return value;
    }
  }
}

/** Identifiers for every roster entity, keyed by roster key, in roster order. */
export function identifiersFor(rng: Rng): Map<string, EntityIdentifiers> {
  const seen = new Set<string>();
  const out = new Map<string, EntityIdentifiers>();
  for (const entity of ROSTER) {
    const r = rng.fork(entity.key);
    // IRS campus prefixes run 01–99 with gaps; 10–98 keeps every drawn EIN plausible.
    const ein = drawUnique(seen, () => `${r.int(10, 98)}-${String(r.int(0, 9_999_999)).padStart(7, '0')}`);
    const uei =
      entity.sam === 'none'
        ? null
        : drawUnique(
            seen,
            () => r.chars(UEI_ALPHABET.slice(0, -10) + '123456789', 1) + r.chars(UEI_ALPHABET, 11),
          );
    const cage =
      entity.sam === 'uei+cage' ? drawUnique(seen, () => r.int(1, 9) + r.chars(CAGE_ALPHABET, 4)) : null;
    out.set(entity.key, { ein, uei, cage });
  }
  return out;
}

function registrationBody(entity: RosterEntity, ids: EntityIdentifiers): Json {
  return {
    legal_name: entity.legal_name,
    ...(entity.aliases ? { aliases: entity.aliases } : {}),
    ein: ids.ein,
    ...(ids.uei ? { uei: ids.uei } : {}),
    ...(ids.cage ? { cage: ids.cage } : {}),
    roles: entity.roles,
    ...(entity.business_types ? { business_types: entity.business_types } : {}),
    state: entity.state,
  };
}

/**
 * One registration per roster entity on `date`, sent by the lender that first works with it
 * (each lender onboards its own counterparties; the bureau then shares them across lenders).
 */
export function entitySteps(
  t: Timeline,
  ids: ReadonlyMap<string, EntityIdentifiers>,
  date: string,
  lenderOf: (key: string) => number,
): void {
  for (const entity of ROSTER) {
    const body = registrationBody(entity, ids.get(entity.key)!);
    t.ingest(date, lenderOf(entity.key), '/api/entities', body, `register ${entity.legal_name}`, entity.key);
  }
}
