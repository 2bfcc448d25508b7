/**
 * Fixed fixtures for the rail tests: one pinned `now`, one org, one GC, and builders that fill
 * every fact field with a plausible default so a case states only what it is about.
 */
import type {
  ChangeOrder,
  Draw,
  DrawLine,
  InsuranceCertificate,
  Project,
} from '../../../src/projects/facts.js';
import { expect } from 'chai';
import { GC, NOW, ORG, PRJ, RECORDED } from './fixtures.js';
import type { RailFinding, Severity } from '../../../src/rails/findings.js';
import {
  RAIL_NAMES,
  type PlatformFacts,
  type Posture,
  type Rail,
  type RailFacts,
  type RailName,
} from '../../../src/rails/rail.js';

export * from './fixtures.js';

/** A 2026 project: start Jan 1, completion Dec 31, $10M loan and contract. */
export function project(over: Partial<Project> = {}): Project {
  return {
    ...RECORDED,
    id: PRJ,
    name: 'Harbor Lofts',
    profile: 'construction',
    borrower: 'ent_borrower00000001',
    general_contractor: GC,
    architect: null,
    inspector: null,
    jurisdiction: 'CA',
    loan_amount: 1_000_000_000,
    equity: 300_000_000,
    contract_sum: 1_000_000_000,
    contingency: 0,
    retainage_pct: 10,
    interest_rate_pct: 8,
    start_date: '2026-01-01',
    completion_date: '2026-12-31',
    maturity_date: '2027-06-30',
    sov: [
      {
        line: 1,
        description: 'Sitework',
        scheduled_value: 1_000_000_000,
        trade: 'civil',
        subcontractor: null,
      },
    ],
    required_coverages: [],
    milestones: [],
    registered_at: RECORDED.recorded_at,
    registered_seq: 1,
    last_fact_seq: 1,
    ...over,
  };
}

export function drawLine(line: number, scheduled: number, completed: number, stored = 0): DrawLine {
  return {
    line,
    description: `line ${line}`,
    original_scheduled_value: scheduled,
    change_order_delta: 0,
    scheduled_value: scheduled,
    previous: completed - stored,
    this_period: 0,
    stored_materials: stored,
    completed_and_stored: completed,
    percent_complete: scheduled === 0 ? 0 : Math.round((completed / scheduled) * 10_000) / 100,
    balance_to_finish: scheduled - completed,
    retainage: Math.round(completed / 10),
  };
}

/** A draw claiming `pct` % of the $10M contract on line 1, with `stored` cents stored. */
export function draw(id: string, pct: number, over: Partial<Draw> = {}, stored = 0): Draw {
  const line = drawLine(1, 1_000_000_000, Math.round(1_000_000_000 * (pct / 100)), stored);
  const summary = {
    original_contract_sum: line.scheduled_value,
    net_change_orders: 0,
    contract_sum_to_date: line.scheduled_value,
    total_completed_and_stored: line.completed_and_stored,
    retainage: line.retainage,
    total_earned_less_retainage: line.completed_and_stored - line.retainage,
    previous_certificates: 0,
    current_payment_due: line.completed_and_stored - line.retainage,
    balance_to_finish_including_retainage: line.scheduled_value - line.completed_and_stored + line.retainage,
  };
  return {
    ...RECORDED,
    id,
    project_id: PRJ,
    application_no: 1,
    period_from: '2026-05-01',
    period_to: '2026-05-31',
    submitted_on: '2026-06-02',
    lines: [line],
    retainage_pct: 10,
    retainage_withheld: line.retainage,
    retainage_expected: line.retainage,
    previous_certificates_total: 0,
    previous_funded_total: 0,
    requested_amount: summary.current_payment_due,
    invoices: [],
    summary,
    signatures: [],
    status: 'SUBMITTED',
    compiled_seq: null,
    funded_on: null,
    funded_amount: null,
    payment_id: null,
    payment_rail: null,
    last_fact_seq: 1,
    ...over,
  };
}

export function changeOrder(
  id: string,
  amount: number,
  executed_on: string | null,
  over: Partial<ChangeOrder> = {},
): ChangeOrder {
  return {
    ...RECORDED,
    id,
    project_id: PRJ,
    number: id,
    amount,
    lines: [{ line: 1, delta: amount }],
    description: 'added scope',
    executed_on,
    lender_approved_on: executed_on,
    work_started_on: null,
    ...over,
  };
}

export function certificate(id: string, over: Partial<InsuranceCertificate> = {}): InsuranceCertificate {
  return {
    ...RECORDED,
    id,
    project_id: PRJ,
    type: 'INSURANCE_CERTIFICATE',
    insured: GC,
    coverage_type: 'GL',
    limit: 200_000_000,
    effective_on: '2026-01-01',
    expires_on: '2026-12-31',
    additional_insured: true,
    ...over,
  };
}

export { obs } from './observation-builders.js';

/** The ledger at seq 500, no rail fed yet. */
export function platform(over: Partial<PlatformFacts> = {}): PlatformFacts {
  const fresh = Object.fromEntries(RAIL_NAMES.map((n) => [n, null])) as Record<RailName, string | null>;
  return {
    ledger_head: { seq: 500, hash: 'a'.repeat(64) },
    rail_data_last_observed: fresh,
    ...over,
  };
}

/** Org-wide facts around one default project; the portfolio follows the projects given. */
export function facts(over: Partial<RailFacts> = {}): RailFacts {
  const projects = over.projects ?? [project()];
  return {
    org_id: ORG,
    project_id: null,
    projects,
    draws: [],
    change_orders: [],
    documents: [],
    observations: [],
    platform: platform(),
    portfolio: {
      projects: projects.map((p) => ({
        id: p.id,
        general_contractor: p.general_contractor,
        loan_amount: p.loan_amount,
      })),
      distressed_project_ids: [],
    },
    ...over,
  };
}

export const codesOf = (findings: readonly RailFinding[]): string[] => findings.map((f) => f.code);

export interface RailCase {
  given: string;
  facts: RailFacts;
  /** Finding codes expected, in the rail's deterministic order. */
  codes: string[];
  posture?: Posture;
  /** Severities expected, aligned with `codes`. */
  severities?: Severity[];
}

/** One `it` per case: given … when the rail evaluates, then it finds exactly `codes`. */
export function railTable(rail: Rail, cases: readonly RailCase[]): void {
  for (const c of cases) {
    const found = c.codes.length === 0 ? 'nothing' : c.codes.join(', ');
    const posture = c.posture === undefined ? '' : ` and is ${c.posture}`;
    it(`given ${c.given}, when ${rail.name} evaluates, then it finds ${found}${posture}`, () => {
      const result = rail.evaluate(c.facts, NOW);
      expect(codesOf(result.findings)).to.deep.equal(c.codes);
      if (c.posture !== undefined) expect(result.posture).to.equal(c.posture);
      if (c.severities !== undefined)
        expect(result.findings.map((f) => f.severity)).to.deep.equal(c.severities);
      for (const f of result.findings) expect(f.evidence, f.code).to.not.be.empty;
    });
  }
}
