/**
 * The fifteen scripted projects, in plan-table order (dataset.ts prints the table). Each row is a
 * real-looking job with one story: clean, or carrying the deliberate problems listed in `story`.
 * Fields not given take the clean defaults of `job()`.
 */
import type { Scenario } from './model.js';
import { extraProjectName } from './names.js';
import type { Rng } from './prng.js';
import { refusedPaymentPush } from './governance.js';
import { cleanChangeOrder, changeOrderPrecedence, contractSumMismatch } from './problems-changes.js';
import {
  curedWaiver,
  insuranceExpiring,
  insuranceLapsed,
  insuranceShort,
  lienWaiverWarnings,
  missingUnconditional,
  noInspection,
  noTitle,
  staleInspection,
  staleTitleAndException,
  storedMaterialsSupported,
  storedMaterialsUnsupported,
  titleLien,
  unconditionalBeforePayment,
  waiverShortThrough,
} from './problems-docs.js';
import {
  duplicateInvoice,
  inspectionVariance,
  overlappingPeriod,
  retainageMiscalculated,
  rollForward,
  supplementalApplication,
  unsupportedCost,
} from './problems-draws.js';
import {
  coldPourAndSteel,
  environmentalTroubles,
  equipmentTroubles,
  procurementTroubles,
  safetyTroubles,
  scheduleSlip,
  staleEquipmentData,
  weatherTroubles,
  workforceTroubles,
} from './problems-rails.js';
import { BUILDING, DATA_CENTER, INDUSTRIAL, RENOVATION, RESTORATION, WATER_PLANT } from './templates.js';

type Identity = Pick<
  Scenario,
  'code' | 'name' | 'profile' | 'lender' | 'gc' | 'owner' | 'architect' | 'inspector'
>;

function job(fields: Identity & Partial<Scenario>): Scenario {
  return {
    jurisdiction: 'OR',
    sov: BUILDING,
    contract: [10_000_000, 14_000_000],
    draws: 4,
    preMonths: 1,
    durationMonths: 14,
    pace: 1,
    stalledMonths: 0,
    retainagePct: 10,
    fundHistory: true,
    story: 'Clean.',
    problems: [],
    ...fields,
  };
}

// Rows stay one field group per line, like a table (prettier would explode them).
// prettier-ignore
export const SCENARIOS: readonly Scenario[] = [
  job({
    code: 'P01', name: 'Riverside Commons Apartments', profile: 'construction', lender: 0,
    gc: 'gc.keystone', owner: 'owner.riverside', architect: 'arch.lumen', inspector: 'insp.clearline',
    jurisdiction: 'OR', contract: [18_000_000, 24_000_000], durationMonths: 16,
    story: 'Clean: 3 funded applications + 1 under review; an approved change order; stored materials insured and delivered.',
    problems: [cleanChangeOrder, storedMaterialsSupported],
  }),
  job({
    code: 'P02', name: 'Harbor Point Medical Office', profile: 'construction', lender: 0,
    gc: 'gc.harborline', owner: 'owner.harborpoint', architect: 'arch.lumen', inspector: 'insp.clearline',
    jurisdiction: 'WA', contract: [12_000_000, 16_000_000], durationMonths: 13,
    story: 'INSPECTION_VARIANCE: 12 points on the most advanced line (BLOCKING), 7 on the next (WARNING); a refused payment push.',
    problems: [inspectionVariance, refusedPaymentPush],
  }),
  job({
    code: 'P03', name: 'Cedar Ridge Elementary School', profile: 'government', lender: 1,
    gc: 'gc.bedrock', owner: 'owner.cedarridge', architect: 'arch.northbank', inspector: 'insp.truenorth',
    jurisdiction: 'MT', contract: [5_600_000, 6_200_000], preMonths: 2, durationMonths: 8,
    story: 'CHANGE_ORDER_PRECEDENCE: $85k CO billed unapproved, $18k CO billed unexecuted (BLOCKING), CO executed after work began (WARNING, resolved); MARKET CO velocity and steel +14 %; WEATHER cold pour.',
    problems: [changeOrderPrecedence, coldPourAndSteel],
  }),
  job({
    code: 'P04', name: 'Northgate Logistics Center', profile: 'supply_chain', lender: 1,
    gc: 'gc.tristate', owner: 'owner.northgate', architect: 'arch.hartwell', inspector: 'insp.benchmark',
    jurisdiction: 'OH', sov: INDUSTRIAL, contract: [16_000_000, 20_000_000], durationMonths: 12,
    story: 'STORED_MATERIALS_UNSUPPORTED on lines 3–4; TITLE_DATE_DOWN missing since submission (BLOCKING); PROCUREMENT CRITICAL (racking billed, not delivered).',
    problems: [storedMaterialsUnsupported, noTitle, procurementTroubles],
  }),
  job({
    code: 'P05', name: 'Lakeshore Senior Living', profile: 'construction', lender: 0,
    gc: 'gc.lakeview', owner: 'owner.lakeshore', architect: 'arch.northbank', inspector: 'insp.truenorth',
    jurisdiction: 'IL', contract: [14_000_000, 18_000_000], draws: 3,
    story: 'INSURANCE_EXPIRY WARNING ×3: GL, workers’ comp and auto expire in 20 days (INSURANCE rail ELEVATED).',
    problems: [insuranceExpiring],
  }),
  job({
    code: 'P06', name: 'Summit Ridge Townhomes', profile: 'construction', lender: 2,
    gc: 'gc.redline', owner: 'owner.summitridge', architect: 'arch.fieldstone', inspector: 'insp.benchmark',
    jurisdiction: 'CO', contract: [6_000_000, 8_000_000], draws: 5, durationMonths: 6, pace: 0.86,
    story: 'INSURANCE_EXPIRY BLOCKING (builder’s risk lapsed); DUPLICATE invoice re-billed (BLOCKING); no unconditional waiver for the last payment; SCHEDULE overdue (CRITICAL).',
    problems: [insuranceLapsed, duplicateInvoice, missingUnconditional],
  }),
  job({
    code: 'P07', name: 'Alder Pharmaceuticals HQ Renovation', profile: 'treasury', lender: 2,
    gc: 'gc.coastal', owner: 'owner.alder', architect: 'arch.fieldstone', inspector: 'insp.benchmark',
    jurisdiction: 'FL', sov: RENOVATION, contract: [9_000_000, 11_000_000], durationMonths: 10, retainagePct: 5,
    story: 'PAY_PERIOD_SEQUENCE: application 5 follows 3 (BLOCKING), two in one month (WARNING); WAIVER_SEQUENCE: unconditional waiver before payment; stale equipment data.',
    problems: [supplementalApplication, unconditionalBeforePayment, staleEquipmentData],
  }),
  job({
    code: 'P08', name: 'Mesa Verde Water Treatment Plant', profile: 'government', lender: 1,
    gc: 'gc.bedrock', owner: 'owner.mesaverde', architect: 'arch.hartwell', inspector: 'insp.benchmark',
    jurisdiction: 'NM', sov: WATER_PLANT, contract: [22_000_000, 28_000_000], durationMonths: 18,
    story: 'RETAINAGE_MISCALCULATED: rate halved before 95 % (BLOCKING) and $2,500 short (WARNING); WORKFORCE: payroll gap, wage violation, headcount swing.',
    problems: [retainageMiscalculated, workforceTroubles],
  }),
  job({
    code: 'P09', name: 'Oakmont Corporate Campus', profile: 'construction', lender: 0,
    gc: 'gc.pinnacle', owner: 'owner.oakmont', architect: 'arch.fieldstone', inspector: 'insp.benchmark',
    jurisdiction: 'GA', contract: [26_000_000, 32_000_000],
    story: 'LIEN_WAIVER_MISMATCH WARNING ×3 (exception, short sub waiver, early final waiver); WAIVER_SEQUENCE through-date; SAFETY CRITICAL (willful citation unabated, TRIR).',
    problems: [lienWaiverWarnings, waiverShortThrough, safetyTroubles],
  }),
  job({
    code: 'P10', name: 'Pinecrest Storm Restoration', profile: 'insurance', lender: 2,
    gc: 'gc.apex', owner: 'owner.prairie', architect: 'arch.fieldstone', inspector: 'insp.benchmark',
    jurisdiction: 'LA', sov: RESTORATION, contract: [2_400_000, 3_200_000], draws: 2, durationMonths: 8,
    fundHistory: false,
    story: 'GC SAM-excluded (registry hook); INSPECTION_FRESHNESS none after the period (BLOCKING); TITLE lien $48,200; invoices < 90 %; GL under limit, no umbrella.',
    problems: [noInspection, titleLien, unsupportedCost, insuranceShort],
  }),
  job({
    code: 'P11', name: 'Lone Star Data Center', profile: 'construction', lender: 1,
    gc: 'gc.bedrock', owner: 'owner.lonestar', architect: 'arch.hartwell', inspector: 'insp.benchmark',
    jurisdiction: 'TX', sov: DATA_CENTER, contract: [36_000_000, 44_000_000],
    story: 'CONTRACT_SUM_MISMATCH (CO amount ≠ deltas; back-dated CO missing from C); ROLL_FORWARD $15,000 on line 2; periods overlap (BLOCKING); EQUIPMENT and WEATHER findings.',
    problems: [contractSumMismatch, rollForward, overlappingPeriod, equipmentTroubles, weatherTroubles],
  }),
  job({
    code: 'P12', name: 'Northwind Campus Expansion', profile: 'treasury', lender: 0,
    gc: 'gc.meridian', owner: 'owner.northwind', architect: 'arch.northbank', inspector: 'insp.truenorth',
    jurisdiction: 'MN', contract: [11_000_000, 14_000_000], durationMonths: 12, pace: 0.6, stalledMonths: 1,
    story: 'Stalled job, WARNINGs only: INSPECTION_FRESHNESS 44 days, TITLE_DATE_DOWN 14 days, waiver exception; SCHEDULE slippage + pace lag; ENVIRONMENTAL over budget + violation.',
    problems: [staleInspection, staleTitleAndException, scheduleSlip, environmentalTroubles],
  }),
  job({
    code: 'P13', name: 'Juniper Street Duplexes', profile: 'construction', lender: 2,
    gc: 'gc.northstar', owner: 'owner.juniper', architect: 'arch.fieldstone', inspector: 'insp.clearline',
    jurisdiction: 'NC', contract: [1_800_000, 2_400_000], draws: 1, durationMonths: 9,
    story: 'Clean, new GC, first application under review.',
  }),
  job({
    code: 'P14', name: 'Ironwood Cold Storage Facility', profile: 'supply_chain', lender: 0,
    gc: 'gc.keystone', owner: 'owner.ironwood', architect: 'arch.lumen', inspector: 'insp.clearline',
    jurisdiction: 'OR', sov: INDUSTRIAL, contract: [14_000_000, 18_000_000], draws: 3, durationMonths: 12,
    story: 'Clean (Keystone’s second job).',
  }),
  job({
    code: 'P15', name: 'Canyon View Wildfire Rebuild', profile: 'insurance', lender: 1,
    gc: 'gc.sierra', owner: 'owner.canyon', architect: 'arch.hartwell', inspector: 'insp.benchmark',
    jurisdiction: 'AZ', sov: RESTORATION, contract: [3_000_000, 4_000_000], draws: 2, durationMonths: 8,
    story: 'Clean today: a short waiver on application 1 was corrected the next day (finding opened and cured).',
    problems: [curedWaiver],
  }),
];

/** Clean GCs that take the generated jobs beyond the scripted fifteen. */
const EXTRA_GCS = ['gc.keystone', 'gc.sierra', 'gc.northstar', 'gc.lakeview'] as const;
const EXTRA_SHAPES = [
  { profile: 'construction', sov: BUILDING },
  { profile: 'treasury', sov: RENOVATION },
  { profile: 'supply_chain', sov: INDUSTRIAL },
  { profile: 'government', sov: WATER_PLANT },
  { profile: 'insurance', sov: RESTORATION },
] as const;

/** Project number `n` (> 15): a clean job cycling through profiles, lenders and clean GCs. */
export function extraScenario(n: number, rng: Rng): Scenario {
  const i = n - SCENARIOS.length - 1;
  const shape = EXTRA_SHAPES[i % EXTRA_SHAPES.length]!;
  return job({
    code: `P${String(n).padStart(2, '0')}`,
    name: extraProjectName(rng, n),
    profile: shape.profile,
    sov: shape.sov,
    lender: i % 3,
    gc: EXTRA_GCS[i % EXTRA_GCS.length]!,
    owner: SCENARIOS[i % SCENARIOS.length]!.owner,
    architect: 'arch.lumen',
    inspector: 'insp.clearline',
    draws: 2 + (i % 3),
    durationMonths: 14,
    story: 'Clean (generated beyond the scripted fifteen).',
  });
}
