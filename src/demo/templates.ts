/**
 * Schedules of values by kind of job (G703 line items, weights as shares of the contract). Each
 * template's line 2 is structure/foundations (mid-job work on every schedule) and lines 3–4 are
 * where stored materials and change orders land in the problem scenarios.
 */
import type { LineTemplate } from './model.js';

const line = (
  description: string,
  trade: string,
  sub: string | null,
  weight: number,
  vendor?: string,
): LineTemplate => ({
  description,
  trade,
  sub,
  weight,
  ...(vendor ? { vendor } : {}),
});

/** Apartments, medical office, senior living, schools, townhomes, corporate buildings. */
export const BUILDING: readonly LineTemplate[] = [
  line('Sitework & utilities', 'sitework', 'sub.excavation', 0.1),
  line('Concrete & foundations', 'concrete', 'sub.concrete', 0.16),
  line('Structural steel & framing', 'structural', 'sub.steel', 0.2),
  line('Plumbing & HVAC', 'mechanical', 'sub.hvac', 0.14),
  line('Electrical & low voltage', 'electrical', 'sub.electrical', 0.12),
  line('Envelope & roofing', 'roofing', 'sub.roofing', 0.1),
  line('Interior finishes', 'finishes', 'sub.drywall', 0.12),
  line('Fire protection', 'fire protection', 'sub.fire', 0.06),
];

/** Distribution centers and cold storage: racking and dock equipment are supplier-installed. */
export const INDUSTRIAL: readonly LineTemplate[] = [
  line('Sitework, paving & utilities', 'sitework', 'sub.paving', 0.12),
  line('Foundations & slab on grade', 'concrete', 'sub.concrete', 0.18),
  line('Racking & conveyor systems', 'material handling', null, 0.16, 'sup.racking'),
  line('Dock levelers, doors & equipment', 'dock equipment', null, 0.08, 'sup.racking'),
  line('Pre-engineered steel building', 'structural', 'sub.steel', 0.22),
  line('Mechanical & refrigeration', 'mechanical', 'sub.hvac', 0.16),
  line('Fire protection (ESFR)', 'fire protection', 'sub.fire', 0.08),
];

/** Data center shell and power/cooling plant. */
export const DATA_CENTER: readonly LineTemplate[] = [
  line('Site development', 'sitework', 'sub.excavation', 0.06),
  line('Concrete & tilt-up shell', 'concrete', 'sub.concrete', 0.14),
  line('Switchgear, UPS & generators', 'electrical', 'sub.electrical', 0.3),
  line('Structural steel & roofing', 'structural', 'sub.steel', 0.1),
  line('Cooling plant & CRAH units', 'mechanical', 'sub.hvac', 0.28),
  line('Security, fencing & paving', 'sitework', 'sub.paving', 0.06),
  line('Fire suppression', 'fire protection', 'sub.fire', 0.06),
];

/** Storm and wildfire restoration for an insurer's claims program. */
export const RESTORATION: readonly LineTemplate[] = [
  line('Demolition & debris removal', 'demolition', 'sub.demolition', 0.12),
  line('Framing & structural repairs', 'structural', null, 0.18),
  line('Roof replacement', 'roofing', 'sub.roofing', 0.22),
  line('Electrical', 'electrical', 'sub.electrical', 0.12),
  line('Plumbing', 'plumbing', 'sub.plumbing', 0.1),
  line('Drywall & paint', 'finishes', 'sub.drywall', 0.16),
  line('Flooring', 'flooring', 'sub.flooring', 0.1),
];

/** Corporate renovation and fit-out. */
export const RENOVATION: readonly LineTemplate[] = [
  line('Selective demolition', 'demolition', 'sub.demolition', 0.08),
  line('Interior framing & drywall', 'finishes', 'sub.drywall', 0.2),
  line('HVAC upgrades', 'mechanical', 'sub.hvac', 0.18),
  line('Electrical & lighting', 'electrical', 'sub.electrical', 0.16),
  line('Curtain wall & storefront', 'glazing', 'sub.glazing', 0.14),
  line('Millwork & casework', 'casework', 'sub.casework', 0.12),
  line('Flooring', 'flooring', 'sub.flooring', 0.12),
];

/** Water treatment plant. */
export const WATER_PLANT: readonly LineTemplate[] = [
  line('Site work & yard piping', 'sitework', 'sub.excavation', 0.14),
  line('Concrete basins & structures', 'concrete', 'sub.concrete', 0.26),
  line('Process mechanical & piping', 'mechanical', 'sub.plumbing', 0.22),
  line('Electrical, instrumentation & controls', 'electrical', 'sub.electrical', 0.16),
  line('Operations building', 'masonry', 'sub.masonry', 0.14),
  line('Paving & site restoration', 'sitework', 'sub.paving', 0.08),
];
