/**
 * Capital adequacy (DOMAIN §4): six members, each an integer 0–100 with a grade, and their
 * weighted overall. Pure: the GC's credit score and the rail composite arrive as inputs from
 * their capabilities; `now` dates the schedule.
 *
 * How the money is read (DOMAIN names the quantities, not their arithmetic):
 * - Disbursed = Σ `funded_amount` of FUNDED draws. Disbursements are applied equity first, then
 *   loan, then contingency (the usual construction-loan order: the borrower's equity goes in
 *   before the lender's money). So undisbursed loan = loan − the part of disbursed beyond equity,
 *   unspent equity = equity − disbursed (floor 0), remaining contingency = whatever is left.
 * - Contract sum to date = contract sum + Σ amounts of change orders executed by `now`.
 * - Cost to complete = contract sum to date − disbursed (floor 0). It includes retainage: held
 *   retainage is unpaid, so it is still inside "contract − paid"; the draw under review is too.
 *   Soft costs and interest are not facts here and are not counted.
 * - Sources = undisbursed loan + unspent equity + remaining contingency; uses = cost to complete.
 *   In balance ⇔ sources ≥ uses. With nothing left to pay, ratios are null and both lender and
 *   cashflow score 100.
 * - Work complete % = Σ G ÷ Σ C of the latest active draw (0 before any draw); time elapsed % =
 *   days since start ÷ days from start to completion, clamped to 0–100 (an overdue project is
 *   the SCHEDULE rail's business, §8); budget overrun % = growth of the contract sum to date over
 *   the original contract sum (0 when it shrank).
 */
import type { Cents, ChangeOrder, Draw, Project } from '../projects/facts.js';
import type { Finding } from './findings.js';
import type { Grade } from './constants.js';
import {
  ADEQUACY_WEIGHTS_PCT,
  CASHFLOW_FULL_RATIO,
  CASHFLOW_ZERO_RATIO,
  COMPLIANCE_BLOCKING_PENALTY,
  COMPLIANCE_WARNING_PENALTY,
  IN_BALANCE_MIN_RATIO,
  LENDER_FULL_RATIO,
  LENDER_OUT_OF_BALANCE_PENALTY,
  LENDER_ZERO_RATIO,
  NEUTRAL_PRIOR_SCORE,
  PROJECT_OVERRUN_WEIGHT,
  PROJECT_PACE_LAG_WEIGHT,
  gradeFor,
} from './constants.js';
import { isoDate } from '../platform/clock.js';
import { daysBetween, percentOf, round2, sum } from './units.js';

export interface AdequacyInput {
  project: Project;
  /** Every draw of the project, any status. */
  draws: Draw[];
  change_orders: ChangeOrder[];
  /** The project's open findings. */
  findings: Finding[];
  /** The GC's composite credit score (§5); null → `NEUTRAL_PRIOR_SCORE`. */
  contractor_score: number | null;
  /** Whether the registry has an active exclusion of the GC (§4 compliance → 0). */
  gc_excluded: boolean;
  /** The project's rail composite (§8); null → `NEUTRAL_PRIOR_SCORE`. */
  rail_composite: number | null;
}

export const ADEQUACY_MEMBERS = [
  'lender',
  'contractor',
  'project',
  'cashflow',
  'compliance',
  'risk',
] as const;
export type AdequacyMember = (typeof ADEQUACY_MEMBERS)[number];

export interface GradedScore {
  score: number;
  grade: Grade;
}

export interface AdequacyFigures {
  disbursed: number;
  undisbursed_loan: number;
  unspent_equity: number;
  remaining_contingency: number;
  contract_sum_to_date: number;
  cost_to_complete: number;
  sources: number;
  uses: number;
  /** sources ÷ uses, 4 decimals; null when nothing is left to pay. */
  in_balance_ratio: number | null;
  /** undisbursed loan ÷ cost to complete, 4 decimals; null when nothing is left to pay. */
  lender_coverage_ratio: number | null;
  time_elapsed_pct: number;
  work_complete_pct: number;
  budget_overrun_pct: number;
}

export interface Adequacy {
  overall: GradedScore;
  vector: Record<AdequacyMember, GradedScore>;
  in_balance: boolean;
  figures: AdequacyFigures;
}

export function assessAdequacy(input: AdequacyInput, now: Date): Adequacy {
  const figures = adequacyFigures(input, now);
  const inBalance = figures.sources >= figures.uses * IN_BALANCE_MIN_RATIO;
  const scores: Record<AdequacyMember, number> = {
    lender: lenderScore(figures, inBalance),
    contractor: clampScore(input.contractor_score ?? NEUTRAL_PRIOR_SCORE),
    project: projectScore(figures),
    cashflow:
      figures.in_balance_ratio === null
        ? 100
        : linearScore(figures.in_balance_ratio, CASHFLOW_ZERO_RATIO, CASHFLOW_FULL_RATIO),
    compliance: complianceScore(input),
    risk: clampScore(input.rail_composite ?? NEUTRAL_PRIOR_SCORE),
  };
  const overall = Math.round(sum(ADEQUACY_MEMBERS.map((m) => ADEQUACY_WEIGHTS_PCT[m] * scores[m])) / 100);
  const graded = (score: number): GradedScore => ({ score, grade: gradeFor(score) });
  return {
    overall: graded(overall),
    vector: {
      lender: graded(scores.lender),
      contractor: graded(scores.contractor),
      project: graded(scores.project),
      cashflow: graded(scores.cashflow),
      compliance: graded(scores.compliance),
      risk: graded(scores.risk),
    },
    in_balance: inBalance,
    figures,
  };
}

/** The money and schedule figures every member reads (see the module comment). */
export function adequacyFigures(input: AdequacyInput, now: Date): AdequacyFigures {
  const { project } = input;
  const today = isoDate(now);
  const active = input.draws
    .filter((d) => d.status !== 'REJECTED')
    .sort((a, b) => a.recorded_seq - b.recorded_seq);
  const { disbursed, undisbursed_loan: undisbursed, sources, ...left } = fundsLeft(project, input.draws);
  const executed = input.change_orders.filter((co) => co.executed_on !== null && co.executed_on <= today);
  const contractToDate = project.contract_sum + sum(executed.map((co) => co.amount));
  const costToComplete = Math.max(0, contractToDate - disbursed);
  const latest = active.at(-1);
  return {
    disbursed,
    undisbursed_loan: undisbursed,
    unspent_equity: left.unspent_equity,
    remaining_contingency: left.remaining_contingency,
    contract_sum_to_date: contractToDate,
    cost_to_complete: costToComplete,
    sources,
    uses: costToComplete,
    in_balance_ratio: ratio(sources, costToComplete),
    lender_coverage_ratio: ratio(undisbursed, costToComplete),
    time_elapsed_pct: timeElapsedPct(project, today),
    work_complete_pct: latest
      ? percentOf(latest.summary.total_completed_and_stored, latest.summary.contract_sum_to_date)
      : 0,
    budget_overrun_pct: Math.max(0, percentOf(contractToDate - project.contract_sum, project.contract_sum)),
  };
}

/** What the project's sources have left to disburse (see the module comment for the order). */
export interface FundsLeft {
  /** Σ `funded_amount` of the project's FUNDED draws. */
  disbursed: Cents;
  undisbursed_loan: Cents;
  unspent_equity: Cents;
  remaining_contingency: Cents;
  /** undisbursed loan + unspent equity + remaining contingency: the most any payment may draw. */
  sources: Cents;
}

/** Disbursed so far and what is left of each source, disbursements applied equity, loan, contingency. */
export function fundsLeft(
  project: Pick<Project, 'loan_amount' | 'equity' | 'contingency'>,
  draws: readonly Draw[],
): FundsLeft {
  const disbursed = sum(draws.filter((d) => d.status === 'FUNDED').map((d) => d.funded_amount ?? 0));
  const equitySpent = Math.min(project.equity, disbursed);
  const loanSpent = Math.min(project.loan_amount, disbursed - equitySpent);
  const contingencySpent = Math.min(project.contingency, disbursed - equitySpent - loanSpent);
  const undisbursed_loan = project.loan_amount - loanSpent;
  const unspent_equity = project.equity - equitySpent;
  const remaining_contingency = project.contingency - contingencySpent;
  return {
    disbursed,
    undisbursed_loan,
    unspent_equity,
    remaining_contingency,
    sources: undisbursed_loan + unspent_equity + remaining_contingency,
  };
}

function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : Math.round((numerator / denominator) * 10_000) / 10_000;
}

function timeElapsedPct(project: Project, today: string): number {
  const span = daysBetween(project.start_date, project.completion_date);
  if (span <= 0) return today >= project.completion_date ? 100 : 0;
  return round2(Math.min(100, Math.max(0, (daysBetween(project.start_date, today) * 100) / span)));
}

/** DOMAIN §4 lender: coverage ≥ 1.0 → 100, linear to 0 at 0.5; −20 out of balance. */
function lenderScore(figures: AdequacyFigures, inBalance: boolean): number {
  const coverage = figures.lender_coverage_ratio;
  const base = coverage === null ? 100 : linearScore(coverage, LENDER_ZERO_RATIO, LENDER_FULL_RATIO);
  return clampScore(base - (inBalance ? 0 : LENDER_OUT_OF_BALANCE_PENALTY));
}

/** DOMAIN §4 project: 100 − 2 × max(0, time elapsed % − work complete %) − 1 × budget overrun %. */
function projectScore(figures: AdequacyFigures): number {
  const lag = Math.max(0, figures.time_elapsed_pct - figures.work_complete_pct);
  return clampScore(
    100 - PROJECT_PACE_LAG_WEIGHT * lag - PROJECT_OVERRUN_WEIGHT * figures.budget_overrun_pct,
  );
}

/** DOMAIN §4 compliance: 100 − 25 × open BLOCKING − 8 × open WARNING (floor 0); GC excluded → 0. */
function complianceScore(input: AdequacyInput): number {
  if (input.gc_excluded) return 0;
  const blocking = input.findings.filter((f) => f.severity === 'BLOCKING').length;
  const warning = input.findings.filter((f) => f.severity === 'WARNING').length;
  return clampScore(100 - COMPLIANCE_BLOCKING_PENALTY * blocking - COMPLIANCE_WARNING_PENALTY * warning);
}

/** 0 at or below `zeroAt`, 100 at or above `fullAt`, linear between, rounded to an integer. */
export function linearScore(value: number, zeroAt: number, fullAt: number): number {
  return clampScore(((value - zeroAt) / (fullAt - zeroAt)) * 100);
}

/** An integer 0–100. */
export function clampScore(value: number): number {
  return Math.min(100, Math.max(0, Math.round(value)));
}
