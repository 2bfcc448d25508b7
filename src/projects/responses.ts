/**
 * Response schemas of the ingestion API and its GET twins (SPEC §5), for OpenAPI and for tests.
 * They mirror facts.ts exactly; the assertions at the end fail to compile if the two drift.
 */
import { z } from 'zod';
import type * as F from './facts.js';
import { COVERAGE_TYPES, DRAW_STATUSES, OSHA_CITATION_TYPES, WAIVER_TYPES } from './facts.js';
import { US_JURISDICTIONS } from './jurisdictions.js';
import { PROFILE_NAMES, PUSH_RAILS, SIGNER_ROLES } from './profiles.js';

const int = z.int();
const num = z.number();
const str = z.string();
const date = z.string();
const nullable = <T extends z.ZodType>(t: T) => t.nullable();
const recorded = { org_id: str, recorded_at: str, recorded_seq: int };

/** `201 {id, ledger: {seq, hash}}` for every append (SPEC §5). */
export const CreatedResponse = z.strictObject({
  id: str,
  ledger: z.strictObject({ seq: int, hash: str }),
});
export type CreatedResponse = z.infer<typeof CreatedResponse>;

/** `{data, next_cursor}` (SPEC §2 pagination). */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.strictObject({ data: z.array(item), next_cursor: nullable(str) });

export const ProjectResponse = z.strictObject({
  ...recorded,
  id: str,
  name: str,
  profile: z.enum(PROFILE_NAMES),
  borrower: str,
  general_contractor: str,
  architect: nullable(str),
  inspector: nullable(str),
  jurisdiction: z.enum(US_JURISDICTIONS),
  loan_amount: int,
  equity: int,
  contract_sum: int,
  contingency: int,
  retainage_pct: num,
  interest_rate_pct: num,
  start_date: date,
  completion_date: date,
  maturity_date: date,
  sov: z.array(
    z.strictObject({
      line: int,
      description: str,
      scheduled_value: int,
      trade: str,
      subcontractor: nullable(str),
    }),
  ),
  required_coverages: z.array(z.strictObject({ type: z.enum(COVERAGE_TYPES), min_limit: int })),
  milestones: z.array(z.strictObject({ name: str, due_on: date, completed_on: nullable(date) })),
  registered_at: str,
  registered_seq: int,
  last_fact_seq: int,
});

export const ChangeOrderResponse = z.strictObject({
  ...recorded,
  id: str,
  project_id: str,
  number: str,
  amount: int,
  lines: z.array(z.strictObject({ line: int, delta: int })),
  description: str,
  executed_on: nullable(date),
  lender_approved_on: nullable(date),
  work_started_on: nullable(date),
});

const docBase = { ...recorded, id: str, project_id: str };

export const DocumentResponse = z.discriminatedUnion('type', [
  z.strictObject({
    ...docBase,
    type: z.literal('LIEN_WAIVER'),
    claimant: str,
    draw_id: str,
    waiver_type: z.enum(WAIVER_TYPES),
    amount: int,
    through_date: date,
    signed_on: nullable(date),
    executed: z.boolean(),
    exceptions: z.array(z.strictObject({ description: str, amount: nullable(int) })),
  }),
  z.strictObject({
    ...docBase,
    type: z.literal('INSURANCE_CERTIFICATE'),
    insured: str,
    coverage_type: z.enum(COVERAGE_TYPES),
    limit: int,
    effective_on: date,
    expires_on: date,
    additional_insured: z.boolean(),
  }),
  z.strictObject({
    ...docBase,
    type: z.literal('INSPECTION_REPORT'),
    draw_id: nullable(str),
    inspector: str,
    inspected_on: date,
    lines: z.array(z.strictObject({ line: int, percent_complete: num })),
    stored_materials_verified: z.boolean(),
  }),
  z.strictObject({
    ...docBase,
    type: z.literal('TITLE_DATE_DOWN'),
    effective_on: date,
    new_liens: z.array(
      z.strictObject({ claimant_name: str, claimant: nullable(str), amount: int, recorded_on: date }),
    ),
  }),
  z.strictObject({
    ...docBase,
    type: z.literal('INVOICE'),
    vendor: str,
    number: str,
    amount: int,
    line: int,
    draw_id: nullable(str),
  }),
  z.strictObject({
    ...docBase,
    type: z.literal('BILL_OF_SALE'),
    vendor: nullable(str),
    draw_id: nullable(str),
    lines: z.array(z.strictObject({ line: int, description: str, amount: int })),
    amount: int,
    insured: z.boolean(),
  }),
]);

export const DrawResponse = z.strictObject({
  ...recorded,
  id: str,
  project_id: str,
  application_no: int,
  period_from: date,
  period_to: date,
  submitted_on: date,
  lines: z.array(
    z.strictObject({
      line: int,
      description: str,
      original_scheduled_value: int,
      change_order_delta: int,
      scheduled_value: int,
      previous: int,
      this_period: int,
      stored_materials: int,
      completed_and_stored: int,
      percent_complete: num,
      balance_to_finish: int,
      retainage: int,
    }),
  ),
  retainage_pct: num,
  retainage_withheld: int,
  retainage_expected: int,
  previous_certificates_total: int,
  previous_funded_total: int,
  requested_amount: int,
  invoices: z.array(str),
  summary: z.strictObject({
    original_contract_sum: int,
    net_change_orders: int,
    contract_sum_to_date: int,
    total_completed_and_stored: int,
    retainage: int,
    total_earned_less_retainage: int,
    previous_certificates: int,
    current_payment_due: int,
    balance_to_finish_including_retainage: int,
  }),
  signatures: z.array(
    z.strictObject({
      role: z.enum(SIGNER_ROLES),
      signer_name: str,
      signed_on: date,
      attestation: z.enum(['ED25519', 'SELF_ATTESTED']),
      signer_id: nullable(str),
      key_id: nullable(str),
      application_sha256: nullable(str),
      signature: nullable(str),
      recorded_at: str,
      recorded_seq: int,
    }),
  ),
  status: z.enum(DRAW_STATUSES),
  compiled_seq: nullable(int),
  funded_on: nullable(date),
  funded_amount: nullable(int),
  payment_id: nullable(str),
  payment_rail: nullable(z.enum(PUSH_RAILS)),
  last_fact_seq: int,
});

const obsBase = {
  ...recorded,
  id: str,
  project_id: nullable(str),
  entity_id: nullable(str),
  observed_on: date,
};

export const ObservationResponse = z.discriminatedUnion('kind', [
  z.strictObject({
    ...obsBase,
    kind: z.literal('certified_payroll'),
    period_from: date,
    period_to: date,
    headcount: int,
    prevailing_wage_ok: z.boolean(),
  }),
  z.strictObject({ ...obsBase, kind: z.literal('milestone'), name: str, completed_on: date }),
  z.strictObject({
    ...obsBase,
    kind: z.literal('osha_citation'),
    activity_nr: str,
    type: z.enum(OSHA_CITATION_TYPES),
    penalty: int,
    abate_by: date,
    abated_on: nullable(date),
  }),
  z.strictObject({
    ...obsBase,
    kind: z.literal('incident'),
    recordable: z.boolean(),
    lost_time: z.boolean(),
  }),
  z.strictObject({ ...obsBase, kind: z.literal('hours_worked'), hours: num }),
  z.strictObject({ ...obsBase, kind: z.literal('emissions_report'), tco2e: num, budget_tco2e: num }),
  z.strictObject({
    ...obsBase,
    kind: z.literal('environmental_inspection'),
    passed: z.boolean(),
    violations: int,
  }),
  z.strictObject({
    ...obsBase,
    kind: z.literal('material_delivery'),
    material: str,
    needed_by: date,
    delivered_on: nullable(date),
    quantity: num,
    critical: z.boolean(),
    line: nullable(int),
  }),
  z.strictObject({
    ...obsBase,
    kind: z.literal('equipment_log'),
    asset: str,
    hours: num,
    utilization_pct: num,
    last_maintenance_on: date,
    interval_hours: num,
  }),
  z.strictObject({
    ...obsBase,
    kind: z.literal('weather_forecast'),
    date,
    precip_mm: num,
    wind_kph: num,
    heat_index_c: num,
  }),
  z.strictObject({ ...obsBase, kind: z.literal('thermal_scan'), temp_c: num, concrete_pour: z.boolean() }),
  z.strictObject({ ...obsBase, kind: z.literal('cost_index'), material: str, index: num, baseline: num }),
]);

export const FindingResolutionResponse = z.strictObject({
  ...recorded,
  finding_id: str,
  resolution: str,
  resolved_on: date,
  evidence_document_id: nullable(str),
});

export const ProjectPage = pageOf(ProjectResponse);
export const ChangeOrderPage = pageOf(ChangeOrderResponse);
export const DocumentPage = pageOf(DocumentResponse);
export const DrawPage = pageOf(DrawResponse);
export const ObservationPage = pageOf(ObservationResponse);
export const FindingResolutionPage = pageOf(FindingResolutionResponse);

// Compile-time proof that each schema describes exactly its fact type.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const RESPONSES_MATCH_FACTS: [
  Same<z.infer<typeof ProjectResponse>, F.Project>,
  Same<z.infer<typeof ChangeOrderResponse>, F.ChangeOrder>,
  Same<z.infer<typeof DocumentResponse>, F.Document>,
  Same<z.infer<typeof DrawResponse>, F.Draw>,
  Same<z.infer<typeof ObservationResponse>, F.Observation>,
  Same<z.infer<typeof FindingResolutionResponse>, F.FindingResolution>,
] = [true, true, true, true, true, true];
