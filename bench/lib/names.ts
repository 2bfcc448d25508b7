/**
 * Names for the benchmark datasets: firms by role and trade, people, projects, materials. Built
 * from word lists with the seeded PRNG and made unique by a counter, so registry lookups by name
 * stay unambiguous at any size.
 */
import type { Rng } from './prng.js';

const FIRST = [
  'Keystone',
  'Harbor',
  'Granite',
  'Summit',
  'Cedar',
  'Ironwood',
  'Bluestone',
  'Redline',
  'Northgate',
  'Clearwater',
  'Pioneer',
  'Meridian',
  'Lakeshore',
  'Oakmont',
  'Silverline',
  'Copperfield',
  'Westbrook',
  'Highland',
  'Riverbend',
  'Stonebridge',
  'Evergreen',
  'Foxhall',
  'Beacon',
  'Tidewater',
  'Sterling',
  'Canyon',
  'Prairie',
  'Juniper',
  'Mesa',
  'Arbor',
] as const;
const SECOND = [
  'Ridge',
  'Point',
  'Valley',
  'Crest',
  'Field',
  'Park',
  'Creek',
  'Hill',
  'Bay',
  'Gate',
  'Works',
  'Mill',
  'Forge',
  'Line',
  'Square',
  'Landing',
  'Hollow',
  'Shore',
  'Peak',
  'Grove',
] as const;
export const TRADES = [
  ['sitework', 'Excavation'],
  ['concrete', 'Concrete'],
  ['masonry', 'Masonry'],
  ['steel', 'Steel Erectors'],
  ['carpentry', 'Framing'],
  ['roofing', 'Roofing'],
  ['mechanical', 'Mechanical'],
  ['plumbing', 'Plumbing'],
  ['electrical', 'Electric'],
  ['drywall', 'Drywall'],
  ['finishes', 'Interiors'],
  ['glazing', 'Glass & Glazing'],
  ['elevators', 'Elevator'],
  ['fire_protection', 'Fire Protection'],
  ['landscaping', 'Landscapes'],
] as const;
export type Trade = (typeof TRADES)[number][0];
const PEOPLE_FIRST = [
  'Ana',
  'Ben',
  'Carla',
  'Dev',
  'Elena',
  'Frank',
  'Grace',
  'Hiro',
  'Ines',
  'Jamal',
  'Kira',
  'Luis',
  'Mara',
  'Noah',
  'Olu',
  'Priya',
] as const;
const PEOPLE_LAST = [
  'Alvarez',
  'Brooks',
  'Chen',
  'Diaz',
  'Evans',
  'Foster',
  'Gupta',
  'Hayes',
  'Ito',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Morgan',
  'Nakamura',
  'Okafor',
  'Patel',
] as const;
const PROJECT_KINDS = [
  'Lofts',
  'Commons',
  'Medical Office',
  'Flats',
  'Logistics Center',
  'Senior Living',
  'Townhomes',
  'Mixed-Use',
  'Charter School',
  'Hotel',
] as const;
export const MATERIALS = [
  'rebar',
  'ready-mix concrete',
  'structural steel',
  'lumber',
  'copper wire',
  'drywall board',
  'curtain wall',
  'roof membrane',
  'HVAC units',
  'switchgear',
] as const;
export const ASSETS = [
  'tower crane',
  'excavator',
  'telehandler',
  'concrete pump',
  'scissor lift',
  'generator',
] as const;

export type FirmKind =
  'general_contractor' | 'subcontractor' | 'supplier' | 'owner' | 'architect' | 'inspector';

const SUFFIX: Record<FirmKind, readonly string[]> = {
  general_contractor: ['Builders, Inc.', 'Construction Co.', 'Contracting LLC', 'Building Group'],
  subcontractor: ['LLC', 'Inc.', 'Co.'],
  supplier: ['Supply Co.', 'Materials LLC', 'Distributors Inc.'],
  owner: ['Owner LLC', 'Holdings LLC', 'Partners LP'],
  architect: ['Architecture PLLC', 'Design Studio', 'Architects LLP'],
  inspector: ['Inspections LLC', 'Construction Consulting', 'Field Services Inc.'],
};

/** Hands out unique names: word-list combinations, then a counter once they repeat. */
export class NameBook {
  readonly #used = new Set<string>();
  constructor(private readonly rng: Rng) {}

  #unique(base: string): string {
    let name = base;
    for (let n = 2; this.#used.has(name.toLowerCase()); n += 1) name = `${base} ${toRoman(n)}`;
    this.#used.add(name.toLowerCase());
    return name;
  }

  firm(kind: FirmKind, trade?: string): string {
    const stem = `${this.rng.pick(FIRST)} ${this.rng.pick(SECOND)}`;
    const middle = trade === undefined ? '' : ` ${trade}`;
    return this.#unique(`${stem}${middle} ${this.rng.pick(SUFFIX[kind])}`);
  }

  project(city: string): string {
    return this.#unique(`${this.rng.pick(FIRST)} ${this.rng.pick(PROJECT_KINDS)} ${city}`);
  }

  person(): string {
    return `${this.rng.pick(PEOPLE_FIRST)} ${this.rng.pick(PEOPLE_LAST)}`;
  }
}

function toRoman(n: number): string {
  const table: [number, string][] = [
    [1000, 'M'],
    [900, 'CM'],
    [500, 'D'],
    [400, 'CD'],
    [100, 'C'],
    [90, 'XC'],
    [50, 'L'],
    [40, 'XL'],
    [10, 'X'],
    [9, 'IX'],
    [5, 'V'],
    [4, 'IV'],
    [1, 'I'],
  ];
  let out = '';
  let rest = n;
  for (const [value, numeral] of table) {
    while (rest >= value) {
      out += numeral;
      rest -= value;
    }
  }
  return out;
}
