/**
 * Request schema for `POST /api/observations` (SPEC §5): rail facts, a union on `kind` with
 * exactly the fields DOMAIN §8 lists per kind (plus the few noted in facts.ts that a §8 finding
 * cannot be decided without).
 */
import { z } from 'zod';
import { nameText } from '../platform/http/validate.js';
import { OSHA_CITATION_TYPES } from './facts.js';
import {
  cents,
  checkDateOrder,
  entityId,
  isoDate,
  lineNo,
  percent,
  prefixedId,
  shortText,
} from './contract-primitives.js';

/** Fields every observation shares; `entity` is an `ent_…` id (SPEC §5 `entity?`). */
const common = {
  project_id: prefixedId('prj_').optional(),
  entity: entityId.optional(),
  observed_on: isoDate,
};
const count = z.int().min(0);
const measure = z.number().min(0);
/** Plausible bounds keep typos (Kelvin, Fahrenheit) out of the weather rail. */
const celsius = z.number().min(-80).max(80);
/**
 * Hours worked in one report (the demo furnishes a site's month). TRIR divides by the hours, so an
 * unbounded figure (1e308) drove every rate a lender's facts feed to zero — in every lender's
 * safety_record. A million hours is ~6,000 full-time workers for a month on one report.
 */
export const MAX_REPORTED_HOURS = 1_000_000;
const reportedHours = z
  .number()
  .min(0)
  .max(MAX_REPORTED_HOURS, {
    error: `at most ${MAX_REPORTED_HOURS.toLocaleString('en-US')} hours per report`,
  });

export const CertifiedPayrollBody = z
  .strictObject({
    ...common,
    kind: z.literal('certified_payroll'),
    period_from: isoDate,
    period_to: isoDate,
    headcount: count,
    prevailing_wage_ok: z.boolean(),
  })
  .superRefine((b, ctx) => checkDateOrder(ctx, b.period_from, b.period_to, ['period_to'], 'period_from'));

export const MilestoneObservationBody = z.strictObject({
  ...common,
  kind: z.literal('milestone'),
  name: shortText,
  completed_on: isoDate,
});

export const OshaCitationBody = z.strictObject({
  ...common,
  kind: z.literal('osha_citation'),
  activity_nr: nameText(32),
  type: z.enum(OSHA_CITATION_TYPES),
  penalty: cents,
  abate_by: isoDate,
  abated_on: isoDate.optional(),
});

export const IncidentBody = z.strictObject({
  ...common,
  kind: z.literal('incident'),
  recordable: z.boolean(),
  lost_time: z.boolean(),
});

export const HoursWorkedBody = z.strictObject({
  ...common,
  kind: z.literal('hours_worked'),
  hours: reportedHours,
});

export const EmissionsReportBody = z.strictObject({
  ...common,
  kind: z.literal('emissions_report'),
  tco2e: measure,
  budget_tco2e: measure,
});

export const EnvironmentalInspectionBody = z.strictObject({
  ...common,
  kind: z.literal('environmental_inspection'),
  passed: z.boolean(),
  violations: count,
});

export const MaterialDeliveryBody = z.strictObject({
  ...common,
  kind: z.literal('material_delivery'),
  material: shortText,
  needed_by: isoDate,
  delivered_on: isoDate.optional(),
  quantity: measure,
  critical: z.boolean().optional(),
  line: lineNo.optional(),
});

export const EquipmentLogBody = z.strictObject({
  ...common,
  kind: z.literal('equipment_log'),
  asset: shortText,
  hours: measure,
  utilization_pct: percent,
  last_maintenance_on: isoDate,
  interval_hours: z.number().positive(),
});

export const WeatherForecastBody = z.strictObject({
  ...common,
  kind: z.literal('weather_forecast'),
  date: isoDate,
  precip_mm: measure,
  wind_kph: measure,
  heat_index_c: celsius,
});

export const ThermalScanBody = z.strictObject({
  ...common,
  kind: z.literal('thermal_scan'),
  temp_c: celsius,
  concrete_pour: z.boolean().optional(),
});

export const CostIndexBody = z.strictObject({
  ...common,
  kind: z.literal('cost_index'),
  material: shortText,
  index: z.number().positive(),
  baseline: z.number().positive(),
});

export const RecordObservationBody = z.discriminatedUnion('kind', [
  CertifiedPayrollBody,
  MilestoneObservationBody,
  OshaCitationBody,
  IncidentBody,
  HoursWorkedBody,
  EmissionsReportBody,
  EnvironmentalInspectionBody,
  MaterialDeliveryBody,
  EquipmentLogBody,
  WeatherForecastBody,
  ThermalScanBody,
  CostIndexBody,
]);
export type RecordObservationBody = z.infer<typeof RecordObservationBody>;
