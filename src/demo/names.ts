/**
 * People for the demo's signatures (AIA G702 certifications, treasury approvals, adjusters) and
 * names for any projects beyond the fifteen scripted ones. Drawn by the seed, so a different seed
 * gives different signers.
 */
import type { Rng } from './prng.js';

// prettier-ignore
const FIRST_NAMES = [
  'Maria', 'James', 'Aisha', 'Robert', 'Mei', 'David', 'Priya', 'Michael', 'Sofia', 'William',
  'Grace', 'Daniel', 'Fatima', 'Thomas', 'Elena', 'Marcus', 'Hannah', 'Luis', 'Olivia', 'Andre',
  'Keiko', 'Samuel', 'Rosa', 'Nathan', 'Leah', 'Carlos', 'Nadia', 'Patrick', 'Ingrid', 'Victor',
] as const;

// prettier-ignore
const LAST_NAMES = [
  'Alvarez', 'Bennett', 'Chen', 'Dubois', 'Okafor', 'Fitzgerald', 'Gupta', 'Hernandez', 'Ivanova',
  'Johansson', 'Kowalski', 'Lindqvist', 'Martinez', 'Nakamura', "O'Brien", 'Patel', 'Quinn',
  'Rahman', 'Sullivan', 'Tanaka', 'Underwood', 'Vasquez', 'Washington', 'Yilmaz', 'Zimmerman',
  'Abernathy', 'Castillo', 'Delgado', 'Everett', 'Greer',
] as const;

/** A full name, e.g. "Priya Okafor". */
export function personName(rng: Rng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

// prettier-ignore
const PLACES = [
  'Aspen Grove', 'Birch Hollow', 'Copper Creek', 'Driftwood', 'Elm Park', 'Foxglove', 'Glenwood',
  'Heron Bay', 'Indigo Flats', 'Jasper Point', 'Kestrel Ridge', 'Linden Square', 'Maple Crossing',
  'Nettle Bend', 'Orchard Hill', 'Quarry Lake', 'Rosewood', 'Sandstone', 'Tamarack', 'Whistler Bay',
] as const;

const KINDS = ['Apartments', 'Medical Pavilion', 'Townhomes', 'Office Park', 'Mixed-Use Block'] as const;

/** A project name for generated (unscripted) projects; `n` keeps it unique within an org. */
export function extraProjectName(rng: Rng, n: number): string {
  return `${rng.pick(PLACES)} ${rng.pick(KINDS)} No. ${n}`;
}
