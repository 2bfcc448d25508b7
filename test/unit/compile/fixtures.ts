/**
 * Fixed facts for the compile, simulation and payment specs: one construction project with two
 * SOV lines and a second pay application (G702/G703 columns derived by hand below).
 */
import type {
  Cents,
  Document,
  Draw,
  DrawLine,
  InspectionReport,
  LienWaiver,
  Project,
  WaiverType,
} from '../../../src/projects/facts.js';
import type { Finding, FindingCode, Severity } from '../../../src/governance/findings.js';

export const GC = 'ent_gcgcgcgcgcgcgcgc';
export const SUB = 'ent_subsubsubsubsubs';

export function aProject(overrides: Partial<Project> = {}): Project {
  return {
    org_id: 'org_test',
    recorded_at: '2026-01-05T00:00:00.000Z',
    recorded_seq: 1,
    id: 'prj_harborloftsaaaaa',
    name: 'Harbor Lofts',
    profile: 'construction',
    borrower: 'ent_borrowerborrowe',
    general_contractor: GC,
    architect: null,
    inspector: null,
    jurisdiction: 'CA',
    loan_amount: 800_000_00,
    equity: 200_000_00,
    contract_sum: 1_000_000_00,
    contingency: 0,
    retainage_pct: 10,
    interest_rate_pct: 7.5,
    start_date: '2026-01-01',
    completion_date: '2026-12-31',
    maturity_date: '2027-06-30',
    sov: [
      { line: 1, description: 'Sitework', scheduled_value: 400_000_00, trade: 'site', subcontractor: SUB },
      { line: 2, description: 'Framing', scheduled_value: 600_000_00, trade: 'framing', subcontractor: null },
    ],
    required_coverages: [],
    milestones: [],
    registered_at: '2026-01-05T00:00:00.000Z',
    registered_seq: 1,
    last_fact_seq: 20,
    ...overrides,
  };
}

/** A G703 row with the derived columns computed as the projection does. */
export function drawLine(line: number, c: Cents, d: Cents, e: Cents, f: Cents, retainagePct = 10): DrawLine {
  const g = d + e + f;
  return {
    line,
    description: `line ${line}`,
    original_scheduled_value: c,
    change_order_delta: 0,
    scheduled_value: c,
    previous: d,
    this_period: e,
    stored_materials: f,
    completed_and_stored: g,
    percent_complete: c === 0 ? 0 : Math.round((g / c) * 10000) / 100,
    balance_to_finish: c - g,
    retainage: Math.round((g * retainagePct) / 100),
  };
}

/**
 * Application 2: line 1 at 50 % (200k of 400k), line 2 at 10 % (60k of 600k). Σ G 260k, retainage
 * 26k, previous certificates 90k (draw 1: 100k less 10k) → current payment due 144k.
 */
export function aDraw(overrides: Partial<Draw> = {}): Draw {
  return {
    org_id: 'org_test',
    recorded_at: '2026-03-02T00:00:00.000Z',
    recorded_seq: 15,
    id: 'DRW-secondsecondseco',
    project_id: 'prj_harborloftsaaaaa',
    application_no: 2,
    period_from: '2026-02-01',
    period_to: '2026-02-28',
    submitted_on: '2026-03-02',
    lines: [drawLine(1, 400_000_00, 100_000_00, 100_000_00, 0), drawLine(2, 600_000_00, 0, 60_000_00, 0)],
    retainage_pct: 10,
    retainage_withheld: 26_000_00,
    retainage_expected: 26_000_00,
    previous_certificates_total: 90_000_00,
    previous_funded_total: 90_000_00,
    requested_amount: 144_000_00,
    invoices: [],
    summary: {
      original_contract_sum: 1_000_000_00,
      net_change_orders: 0,
      contract_sum_to_date: 1_000_000_00,
      total_completed_and_stored: 260_000_00,
      retainage: 26_000_00,
      total_earned_less_retainage: 234_000_00,
      previous_certificates: 90_000_00,
      current_payment_due: 144_000_00,
      balance_to_finish_including_retainage: 766_000_00,
    },
    signatures: [],
    status: 'COMPILED',
    compiled_seq: null,
    funded_on: null,
    funded_amount: null,
    payment_id: null,
    payment_rail: null,
    last_fact_seq: 18,
    ...overrides,
  };
}

/** Application 1, funded: line 1 at 25 % (100k), nothing on line 2; paid 90k. */
export function aFundedFirstDraw(overrides: Partial<Draw> = {}): Draw {
  return aDraw({
    id: 'DRW-firstfirstfirstf',
    application_no: 1,
    period_from: '2026-01-01',
    period_to: '2026-01-31',
    submitted_on: '2026-02-02',
    recorded_seq: 5,
    lines: [drawLine(1, 400_000_00, 0, 100_000_00, 0), drawLine(2, 600_000_00, 0, 0, 0)],
    retainage_withheld: 10_000_00,
    retainage_expected: 10_000_00,
    previous_certificates_total: 0,
    previous_funded_total: 0,
    requested_amount: 90_000_00,
    status: 'FUNDED',
    funded_on: '2026-02-10',
    funded_amount: 90_000_00,
    payment_id: 'PAY-firstfirstfirstf',
    payment_rail: 'ACH',
    last_fact_seq: 9,
    ...overrides,
  });
}

export function aWaiver(
  id: string,
  claimant: string,
  draw_id: string,
  waiver_type: WaiverType,
  overrides: Partial<LienWaiver> = {},
): LienWaiver {
  return {
    org_id: 'org_test',
    recorded_at: '2026-03-03T00:00:00.000Z',
    recorded_seq: 16,
    id,
    project_id: 'prj_harborloftsaaaaa',
    type: 'LIEN_WAIVER',
    claimant,
    draw_id,
    waiver_type,
    amount: 50_000_00,
    through_date: '2026-02-28',
    signed_on: '2026-03-03',
    executed: true,
    exceptions: [],
    ...overrides,
  };
}

export function anInspection(
  lines: { line: number; percent_complete: number }[],
  overrides: Partial<InspectionReport> = {},
): InspectionReport {
  return {
    org_id: 'org_test',
    recorded_at: '2026-03-04T00:00:00.000Z',
    recorded_seq: 17,
    id: 'INSP-secondsecondsec',
    project_id: 'prj_harborloftsaaaaa',
    type: 'INSPECTION_REPORT',
    draw_id: 'DRW-secondsecondseco',
    inspector: 'ent_inspectorinspec',
    inspected_on: '2026-03-04',
    lines,
    stored_materials_verified: true,
    ...overrides,
  };
}

export function aFinding(code: FindingCode, severity: Severity, overrides: Partial<Finding> = {}): Finding {
  return {
    id: `FND-${code.toLowerCase()}-${severity.toLowerCase()}`,
    code,
    category: 'contradiction',
    severity,
    project_id: 'prj_harborloftsaaaaa',
    draw_id: 'DRW-secondsecondseco',
    entity_id: GC,
    title: code,
    detail: `${code} ${severity}`,
    evidence: [],
    detected_on: '2026-03-05',
    arose_on: '2026-03-05',
    curable_by_documents: true,
    ...overrides,
  };
}

export type { Document };
