/**
 * The demo's picture of one project before it becomes requests: its SOV, change orders, pay
 * applications with every G702/G703 figure, the documents around each application, insurance,
 * milestones and rail observations. Scenarios (scenarios.ts) describe a project; `buildFigures`
 * and `buildDocuments` (figures.ts, documents.ts) fill the model the clean way; problems
 * (problems*.ts) then bend exactly the facts their rule reads. Money is integer cents.
 */
import type { CoverageType, ObservationKind, WaiverType } from '../projects/facts.js';
import type { UsJurisdiction } from '../projects/jurisdictions.js';
import type { ProfileName } from '../projects/profiles.js';
import type { Rng } from './prng.js';
import type { Json, StepDraft } from './steps.js';

export interface LineTemplate {
  description: string;
  trade: string;
  /** Roster key of the subcontractor; null = self-performed by the GC. */
  sub: string | null;
  /** Who invoices the line when it is not a subcontractor (default the GC). */
  vendor?: string;
  /** Share of the contract sum before the seed's jitter. */
  weight: number;
}

export interface Scenario {
  /** `P01`…; also the reference prefix of everything the project creates. */
  code: string;
  name: string;
  profile: ProfileName;
  /** Index of the lender org (0 Granite Peak Bank, 1 Cascade Commercial Capital, 2 Bluebonnet). */
  lender: number;
  gc: string;
  owner: string;
  architect: string;
  inspector: string;
  jurisdiction: UsJurisdiction;
  sov: readonly LineTemplate[];
  /** Contract sum range, whole dollars. */
  contract: readonly [number, number];
  /** Monthly pay applications. */
  draws: number;
  /** Months of work before the first application's month (mobilization, early work). */
  preMonths: number;
  durationMonths: number;
  /** Actual progress ÷ planned progress (1 = on schedule). */
  pace: number;
  /** The latest application is this many months older than the last closed month (stalled job). */
  stalledMonths: number;
  retainagePct: number;
  /** Whether applications before the latest are funded (governance hook) — false for a job never paid. */
  fundHistory: boolean;
  /** The deliberate problem(s), one line: the plan table's last column. */
  story: string;
  problems: readonly Problem[];
}

export interface ProblemContext {
  today: string;
  rng: Rng;
}

/**
 * A deliberate problem, in up to three passes: `shape` before the figures are computed (change
 * orders, periods, rates), `tweak` after the documents, `observe` after the healthy rail
 * observations (to replace or add to them).
 */
export interface Problem {
  shape?(m: ProjectModel, ctx: ProblemContext): void;
  tweak?(m: ProjectModel, ctx: ProblemContext): void;
  observe?(m: ProjectModel, ctx: ProblemContext): void;
}

export interface SovLineModel {
  line: number;
  description: string;
  trade: string;
  sub: string | null;
  vendor: string;
  scheduled: number;
  /** Where in the schedule (0–1) this line's work starts. */
  starts_at: number;
}

export interface ChangeOrderModel {
  ref: string;
  number: string;
  amount: number;
  deltas: { line: number; delta: number }[];
  description: string;
  executed_on: string | null;
  lender_approved_on: string | null;
  work_started_on: string | null;
  recorded_on: string;
}

export interface InvoiceModel {
  ref: string;
  vendor: string;
  number: string;
  amount: number;
  line: number;
  recorded_on: string;
}

export interface WaiverModel {
  claimant: string;
  waiver_type: WaiverType;
  amount: number;
  through_date: string;
  signed_on: string;
  exceptions: { description: string; amount: number }[];
  recorded_on: string;
  /** Unconditional waivers follow a payment: they ride with the governance hook. */
  after_funding: boolean;
}

export interface InspectionModel {
  inspected_on: string;
  recorded_on: string;
  lines: { line: number; percent_complete: number }[];
}

export interface TitleModel {
  effective_on: string;
  new_liens: { claimant_name: string; claimant: string | null; amount: number; recorded_on: string }[];
}

export interface BillOfSaleModel {
  vendor: string;
  line: number;
  description: string;
  amount: number;
  insured: boolean;
}

export interface DrawLineFigures {
  line: number;
  previous: number;
  this_period: number;
  stored_materials: number;
}

export interface DrawModel {
  ref: string;
  application_no: number;
  /** The calendar month whose work it bills (drives progress). */
  month: string;
  period_from: string;
  period_to: string;
  submitted_on: string;
  /** The latest application: still under review on `today`. */
  pending: boolean;
  /** Funded through the governance hook (payment push) `funded_on`. */
  fund: boolean;
  review_on: string;
  funded_on: string;
  // Inputs problems may set before figures are computed:
  /** Stored materials as a share of the period's increment, per line. */
  stored_share: Record<number, number>;
  /** Cents billed beyond column C on a line (work of an unexecuted change order). */
  overbill: Record<number, number>;
  /** Cents added to a line's stated `previous` (and taken from this period): a roll-forward error. */
  previous_skew: Record<number, number>;
  /** Retainage rate the application states, when not the project's. */
  retainage_pct_stated: number | null;
  /** Cents added to the retainage the application withholds (arithmetic error). */
  withheld_skew: number;
  // Figures (figures.ts):
  scheduled: number[];
  completed: number[];
  lines: DrawLineFigures[];
  retainage_pct: number;
  retainage_withheld: number;
  previous_certificates_total: number;
  requested_amount: number;
  // Documents (documents.ts):
  invoices: InvoiceModel[];
  bills_of_sale: BillOfSaleModel[];
  waivers: WaiverModel[];
  inspection: InspectionModel | null;
  titles: TitleModel[];
  signatures: { role: string; signed_on: string }[];
  /** Unconditional waivers once funded: GC first, then subcontractors (empty while unpaid). */
  unconditional: WaiverModel[];
}

export interface CertificateModel {
  coverage_type: CoverageType;
  limit: number;
  effective_on: string;
  expires_on: string;
  recorded_on: string;
}

export interface MilestoneModel {
  name: string;
  due_on: string;
  /** Reached on this day (a `milestone` observation), or still open. */
  completed_on: string | null;
}

export interface ObservationModel {
  /** The day it is recorded (≥ observed_on). */
  on: string;
  /** The `POST /api/observations` body, with roster keys where entity ids go. */
  body: { kind: ObservationKind; observed_on: string; [key: string]: Json };
}

export interface ProjectModel {
  scenario: Scenario;
  ref: string;
  registered_on: string;
  start_date: string;
  completion_date: string;
  maturity_date: string;
  contract_sum: number;
  contingency: number;
  interest_rate_pct: number;
  equity: number;
  loan_amount: number;
  sov: SovLineModel[];
  required: { type: CoverageType; min_limit: number }[];
  certificates: CertificateModel[];
  milestones: MilestoneModel[];
  change_orders: ChangeOrderModel[];
  draws: DrawModel[];
  observations: ObservationModel[];
  /** Steps beyond the generic ones (finding resolutions, a refused payment push). */
  extra: { date: string; draft: StepDraft }[];
  /** Signers by certification-chain role. */
  signers: Record<string, string>;
}

export const cents = (dollars: number): number => Math.round(dollars * 100);

/** The latest application. */
export function latestDraw(m: ProjectModel): DrawModel {
  const d = m.draws.at(-1);
  if (!d) throw new Error(`${m.ref} has no draws`);
  return d;
}

/** The application before the latest (problems about the previous payment need one). */
export function previousDraw(m: ProjectModel): DrawModel {
  const d = m.draws.at(-2);
  if (!d) throw new Error(`${m.ref} needs two draws`);
  return d;
}
