/**
 * The demo's governed entities: who builds, owns, designs, inspects, supplies and lends. Names are
 * fixed (fictional, in the style of real firms) so the plan table in `dataset.ts` can say which
 * company carries which story; identifiers (EIN, UEI, CAGE) are drawn from the seed.
 *
 * SAM business types are set so each DOMAIN §7 bias group (woman-, minority-, veteran-owned, small
 * business) has at least five members: the methodology page's screen then has groups to compare.
 * They are never scoring inputs.
 */
import type { EntityRole } from '../registry/contract.js';
import type { UsJurisdiction } from '../projects/jurisdictions.js';

export interface RosterEntity {
  /** Stable handle the plan refers to (`gc.bedrock`); the ledger id is learned at run time. */
  key: string;
  legal_name: string;
  aliases?: string[];
  roles: EntityRole[];
  state: UsJurisdiction;
  /** SAM business type codes (bias analysis only). */
  business_types?: string[];
  /** Registered in SAM (gets a UEI); federal contractors also carry a CAGE code. */
  sam: 'none' | 'uei' | 'uei+cage';
}

const gc = (
  key: string,
  legal_name: string,
  state: UsJurisdiction,
  extra: Partial<RosterEntity> = {},
): RosterEntity => ({
  key: `gc.${key}`,
  legal_name,
  roles: ['general_contractor'],
  state,
  sam: 'uei+cage',
  ...extra,
});

const sub = (
  key: string,
  legal_name: string,
  state: UsJurisdiction,
  extra: Partial<RosterEntity> = {},
): RosterEntity => ({ key: `sub.${key}`, legal_name, roles: ['subcontractor'], state, sam: 'uei', ...extra });

const owner = (key: string, legal_name: string, state: UsJurisdiction): RosterEntity => ({
  key: `owner.${key}`,
  legal_name,
  roles: ['owner'],
  state,
  sam: 'none',
});

export const GENERAL_CONTRACTORS: readonly RosterEntity[] = [
  gc('keystone', 'Keystone Builders, Inc.', 'OR', { aliases: ['Keystone Builders'] }),
  gc('harborline', 'Harborline Construction Co.', 'WA', { business_types: ['23', 'PI'] }),
  gc('bedrock', 'Bedrock Constructors Inc.', 'TX', { aliases: ['Bedrock Construction'] }),
  gc('tristate', 'Tri-State Industrial Builders LLC', 'OH'),
  gc('lakeview', 'Lakeview General Contracting LLC', 'IL', { business_types: ['A2'] }),
  gc('redline', 'Redline Homes & Construction LLC', 'CO'),
  gc('coastal', 'Coastal Interiors Group, Inc.', 'FL'),
  gc('pinnacle', 'Pinnacle Commercial Builders, Inc.', 'GA'),
  gc('apex', 'Apex Restoration Group LLC', 'LA', { aliases: ['Apex Restoration'] }),
  gc('meridian', 'Meridian Building Company', 'MN'),
  gc('northstar', 'Northstar Modular Builders LLC', 'NC', { business_types: ['23', 'OY'] }),
  gc('sierra', 'Sierra Vista Contractors, Inc.', 'AZ', { business_types: ['A5'] }),
];

export const SUBCONTRACTORS: readonly RosterEntity[] = [
  sub('excavation', 'Summit Excavation & Grading LLC', 'OR', { business_types: ['27'] }),
  sub('steel', 'Ironworks Structural Steel Co.', 'PA', { business_types: ['QF'], sam: 'uei+cage' }),
  sub('concrete', 'Precision Concrete Solutions, Inc.', 'TX', { business_types: ['OY'] }),
  sub('plumbing', 'Bluewater Plumbing & Mechanical LLC', 'WA', { business_types: ['8W'] }),
  sub('electrical', 'Brightline Electrical Contractors, Inc.', 'CA', { business_types: ['FR'] }),
  sub('hvac', 'Evergreen HVAC Services LLC', 'OR', { business_types: ['XX'] }),
  sub('masonry', 'Cornerstone Masonry LLC', 'OH', { business_types: ['27'] }),
  sub('roofing', 'Gulf Coast Roofing & Sheet Metal LLC', 'LA', { business_types: ['A6'] }),
  sub('glazing', 'Clearview Glass & Glazing, Inc.', 'IL', { business_types: ['27'] }),
  sub('drywall', 'Heartland Drywall & Acoustics LLC', 'MO', { business_types: ['A2'] }),
  sub('fire', 'Silverline Fire Protection, Inc.', 'GA', { business_types: ['A5'] }),
  sub('flooring', 'TrueLevel Flooring Co.', 'MN', { business_types: ['A2'] }),
  sub('elevator', 'Northern Elevator Services LLC', 'MN', { business_types: ['XX'] }),
  sub('paving', 'Pioneer Paving & Site Utilities LLC', 'AZ', { business_types: ['PI'] }),
  sub('casework', 'Redwood Millwork & Casework Inc.', 'CA', { business_types: ['NB'] }),
  sub('demolition', 'Vantage Demolition Services LLC', 'CO', { business_types: ['A5'] }),
];

export const SUPPLIERS: readonly RosterEntity[] = [
  {
    key: 'sup.allied',
    legal_name: 'Allied Building Supply Co.',
    roles: ['supplier'],
    state: 'OR',
    sam: 'uei',
  },
  {
    key: 'sup.lumber',
    legal_name: 'Great Plains Lumber Company',
    roles: ['supplier'],
    state: 'NE',
    sam: 'uei',
  },
  {
    key: 'sup.steel',
    legal_name: 'Continental Steel Distributors, Inc.',
    roles: ['supplier'],
    state: 'IN',
    sam: 'uei',
  },
  {
    key: 'sup.racking',
    legal_name: 'Crossroads Material Handling LLC',
    roles: ['supplier'],
    state: 'OH',
    sam: 'uei',
  },
  {
    key: 'sup.readymix',
    legal_name: 'Metro Ready-Mix Concrete LLC',
    roles: ['supplier'],
    state: 'TX',
    sam: 'uei',
  },
  {
    key: 'sup.rentals',
    legal_name: 'Frontier Equipment Rentals LLC',
    roles: ['supplier'],
    state: 'CO',
    sam: 'uei',
  },
];

export const OWNERS: readonly RosterEntity[] = [
  owner('riverside', 'Riverside Commons Owner LLC', 'OR'),
  owner('harborpoint', 'Harbor Point Medical Partners LP', 'WA'),
  owner('cedarridge', 'Cedar Ridge Unified School District', 'MT'),
  owner('northgate', 'Northgate Logistics Holdings LLC', 'OH'),
  owner('lakeshore', 'Lakeshore Senior Living LLC', 'IL'),
  owner('summitridge', 'Summit Ridge Residential LLC', 'CO'),
  owner('alder', 'Alder Pharmaceuticals, Inc.', 'FL'),
  owner('mesaverde', 'Mesa Verde Water Authority', 'NM'),
  owner('oakmont', 'Oakmont Campus Owner LLC', 'GA'),
  owner('prairie', 'Prairie Mutual Insurance Company', 'LA'),
  owner('lonestar', 'Lone Star Digital Infrastructure LLC', 'TX'),
  owner('northwind', 'Northwind Technologies, Inc.', 'MN'),
  owner('juniper', 'Juniper Street Partners LLC', 'NC'),
  owner('ironwood', 'Ironwood Cold Chain LLC', 'OR'),
  owner('canyon', 'Canyon State Casualty Insurance Co.', 'AZ'),
];

export const DESIGN_AND_INSPECTION: readonly RosterEntity[] = [
  {
    key: 'arch.lumen',
    legal_name: 'Lumen Architecture PLLC',
    roles: ['architect'],
    state: 'OR',
    sam: 'none',
  },
  {
    key: 'arch.hartwell',
    legal_name: 'Hartwell & Associates Architects',
    roles: ['architect'],
    state: 'TX',
    sam: 'uei',
  },
  {
    key: 'arch.fieldstone',
    legal_name: 'Fieldstone Design Group LLC',
    roles: ['architect'],
    state: 'GA',
    business_types: ['A2'],
    sam: 'none',
  },
  {
    key: 'arch.northbank',
    legal_name: 'Northbank Architecture Studio',
    roles: ['architect'],
    state: 'MN',
    sam: 'none',
  },
  {
    key: 'insp.clearline',
    legal_name: 'Clearline Inspection Services LLC',
    roles: ['inspector'],
    state: 'OR',
    business_types: ['8W'],
    sam: 'uei',
  },
  {
    key: 'insp.benchmark',
    legal_name: 'Benchmark Construction Consultants, Inc.',
    roles: ['inspector'],
    state: 'TX',
    business_types: ['QF'],
    sam: 'uei',
  },
  {
    key: 'insp.truenorth',
    legal_name: 'TrueNorth Draw Inspections LLC',
    roles: ['inspector'],
    state: 'MN',
    sam: 'uei',
  },
];

/** The three lender organizations; each is also a governed entity with the `lender` role. */
export const LENDERS: readonly RosterEntity[] = [
  { key: 'lender.granite', legal_name: 'Granite Peak Bank', roles: ['lender'], state: 'OR', sam: 'none' },
  {
    key: 'lender.cascade',
    legal_name: 'Cascade Commercial Capital',
    roles: ['lender'],
    state: 'TX',
    sam: 'none',
  },
  {
    key: 'lender.bluebonnet',
    legal_name: 'Bluebonnet Federal Savings',
    roles: ['lender'],
    state: 'LA',
    sam: 'none',
  },
];

export const ROSTER: readonly RosterEntity[] = [
  ...LENDERS,
  ...GENERAL_CONTRACTORS,
  ...SUBCONTRACTORS,
  ...SUPPLIERS,
  ...OWNERS,
  ...DESIGN_AND_INSPECTION,
];
