/**
 * Draw simulation (DOMAIN §10, SPEC §6 `simulate`): three scenarios for one draw — fund it now,
 * fund it in 30 days, or refuse it — with their capital position and risk, and a recommendation.
 * Pure: every input is plain data, `today` is the only notion of time.
 *
 * Money is read as the kernel's adequacy reads it (src/governance/adequacy.ts): disbursements go
 * equity first, then loan, then contingency; sources = undisbursed loan + unspent equity +
 * remaining contingency; cost to complete = contract sum to date − disbursed, retainage included.
 * The contract sum to date is the draw's own (G702 line 3, frozen at submission).
 */
import type { Cents, Draw, IsoDate, Project } from '../projects/facts.js';
import type { AdequacyVector, DrawVerdict } from './compile/index.js';
import {
  COMPLIANCE_BLOCKING_PENALTY,
  COMPLIANCE_WARNING_PENALTY,
  ADEQUACY_WEIGHTS_PCT,
  PROJECT_PACE_LAG_WEIGHT,
  gradeFor,
  type Grade,
} from './constants.js';
import type { Finding } from './findings.js';
import { addDays, daysBetween } from './units.js';

/** The delay DOMAIN §10 names ("Delay 30 Days"); Reject is looked at over the same horizon. */
export const SIMULATION_HORIZON_DAYS = 30;

/** Probability of default by grade, in basis points (DOMAIN §10: A 0.5 %, B 1 %, C 3 %, D 8 %, F 20 %). */
export const PD_BASIS_POINTS: Readonly<Record<Grade, number>> = { A: 50, B: 100, C: 300, D: 800, F: 2000 };

/** Posture thresholds, the rail ones (DOMAIN §8): NOMINAL ≥ 80, CRITICAL < 50. */
export const POSTURE_NOMINAL_MIN = 80;
export const POSTURE_CRITICAL_BELOW = 50;

export const SCENARIO_NAMES = ['Approve Now', 'Delay 30 Days', 'Reject'] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];
export type Posture = 'NOMINAL' | 'ELEVATED' | 'CRITICAL';
export type Recommendation = 'APPROVE' | 'DELAY' | 'REVIEW';

export interface SimulationInput {
  project: Project;
  draw: Draw;
  /** Σ funded_amount of the project's FUNDED draws (see `fundedBasis`). */
  disbursed: Cents;
  /** Retainage withheld on the latest funded draw: what the lender holds today. */
  retainage_held: Cents;
  /** Findings open for the draw (the compile's `findings`). */
  open_findings: readonly Finding[];
  /**
   * The project's open findings, every draw's (the compile's `project_findings`): what adequacy's
   * compliance member counted, so what a scenario recounts it on.
   */
  project_findings: readonly Finding[];
  adequacy: AdequacyVector;
  /** The draw's latest compile verdict. */
  draw_verdict: DrawVerdict;
  gc_excluded: boolean;
  today: IsoDate;
}

export interface ScenarioCapital {
  /** Loan funds out after the scenario. */
  disbursed_after: Cents;
  undisbursed_after: Cents;
  cost_to_complete: Cents;
  /** How far uses (cost to complete + interest carry) exceed sources; 0 when in balance. */
  in_balance_gap: Cents;
  interest_carry: Cents;
  retainage_held: Cents;
}

export interface ScenarioRisk {
  score: number;
  posture: Posture;
  open_blocking: number;
  /** PD(grade of score) × loan exposure after the scenario. */
  expected_loss: Cents;
}

export interface Scenario {
  name: ScenarioName;
  capital: ScenarioCapital;
  risk: ScenarioRisk;
}

export interface Simulation {
  recommendation: Recommendation;
  scenarios: Scenario[];
}

/** The funded basis of a draw's project: Σ funded and the retainage of the latest funded draw. */
export function fundedBasis(
  draws: readonly Draw[],
  project_id: string,
): { disbursed: Cents; retainage_held: Cents } {
  const funded = draws.filter((d) => d.project_id === project_id && d.status === 'FUNDED');
  const latest = funded.reduce<Draw | null>(
    (best, d) => (best === null || d.application_no > best.application_no ? d : best),
    null,
  );
  return {
    disbursed: funded.reduce((n, d) => n + (d.funded_amount ?? 0), 0),
    retainage_held: latest?.retainage_withheld ?? 0,
  };
}

export function simulateDraw(input: SimulationInput): Simulation {
  const approveNow = scenario('Approve Now', input);
  const scenarios = [approveNow, scenario('Delay 30 Days', input), scenario('Reject', input)];
  return { recommendation: recommend(input, approveNow), scenarios };
}

/**
 * DOMAIN §10. APPROVE: Approve Now is fundable (with conditions) and not CRITICAL. DELAY: the
 * draw is held (HOLD, or REDUCED awaiting re-inspection) only by BLOCKING findings that documents
 * cure — at least one, since with none a delay cures nothing. Everything else: REVIEW.
 */
export function recommend(input: SimulationInput, approveNow: Scenario): Recommendation {
  const fundable = input.draw_verdict === 'FUNDABLE' || input.draw_verdict === 'FUNDABLE_WITH_CONDITIONS';
  if (fundable && approveNow.risk.posture !== 'CRITICAL') return 'APPROVE';
  const blocking = input.open_findings.filter((f) => f.severity === 'BLOCKING');
  const held = input.draw_verdict === 'HOLD' || input.draw_verdict === 'REDUCED';
  if (held && blocking.length > 0 && blocking.every((f) => f.curable_by_documents)) return 'DELAY';
  return 'REVIEW';
}

function scenario(name: ScenarioName, input: SimulationInput): Scenario {
  const { draw } = input;
  const shape = scenarioShape(name, input);
  const disbursed = input.disbursed + shape.funds;
  const split = spend(input.project, disbursed);
  const interest = interestCarry(
    loanSpent(input.project, input.disbursed),
    input.project.interest_rate_pct,
    shape.idle_days,
  );
  const costToComplete = Math.max(0, draw.summary.contract_sum_to_date - disbursed);
  // What the sources have left, negative once the scenario pays out more than all of them: an
  // overdraw is a use no source covers. Floored (split.sources), a $36,045,000 Approve Now on a
  // project with $1,000,000 of sources showed no gap, no CRITICAL posture, and APPROVE.
  const left = split.sources - split.overdrawn;
  const gap = Math.max(0, costToComplete + interest - left);
  const score = clampScore(input.adequacy.overall.score + shape.score_delta);
  const open_blocking = shape.remaining.filter((f) => f.severity === 'BLOCKING').length;
  return {
    name,
    capital: {
      disbursed_after: split.loan_spent,
      undisbursed_after: input.project.loan_amount - split.loan_spent,
      cost_to_complete: costToComplete,
      in_balance_gap: gap,
      interest_carry: interest,
      retainage_held: shape.funds > 0 ? draw.retainage_withheld : input.retainage_held,
    },
    risk: {
      score,
      posture: posture(score, open_blocking, gap),
      open_blocking,
      expected_loss: expectedLoss(score, split.loan_spent),
    },
  };
}

interface Shape {
  /** Paid to the GC in the scenario. */
  funds: Cents;
  /** Days the outstanding loan accrues interest with no funded progress. */
  idle_days: number;
  /** Findings still open at the end of the scenario. */
  remaining: readonly Finding[];
  score_delta: number;
}

function scenarioShape(name: ScenarioName, input: SimulationInput): Shape {
  const all = input.open_findings;
  switch (name) {
    case 'Approve Now':
      return { funds: input.draw.requested_amount, idle_days: 0, remaining: all, score_delta: 0 };
    case 'Delay 30 Days': {
      // This draw's findings documents can cure are assumed cured in 30 days; the GC works unpaid,
      // the schedule slips. Compliance is recounted on the project's findings less those cured — the
      // same set adequacy counted — so another draw's open findings are not "cured" by leaving them out.
      const remaining = all.filter((f) => !f.curable_by_documents);
      const cured = new Set(all.filter((f) => f.curable_by_documents).map((f) => f.id));
      const stillOpen = input.project_findings.filter((f) => !cured.has(f.id));
      const delta = complianceGain(input, stillOpen) - paceLoss(input);
      return {
        funds: input.draw.requested_amount,
        idle_days: SIMULATION_HORIZON_DAYS,
        remaining,
        score_delta: delta,
      };
    }
    case 'Reject':
      // Nothing is paid; a GC left unpaid stops work, so the schedule slips the whole horizon.
      return { funds: 0, idle_days: SIMULATION_HORIZON_DAYS, remaining: all, score_delta: -paceLoss(input) };
    default: {
      const unhandled: never = name;
      throw new Error(`unknown scenario ${String(unhandled)}`);
    }
  }
}

/** Overall points gained when §4 compliance is recomputed on the project's findings that remain. */
function complianceGain(input: SimulationInput, remaining: readonly Finding[]): number {
  const blocking = remaining.filter((f) => f.severity === 'BLOCKING').length;
  const warning = remaining.length - blocking;
  const after = input.gc_excluded
    ? 0
    : clampScore(100 - COMPLIANCE_BLOCKING_PENALTY * blocking - COMPLIANCE_WARNING_PENALTY * warning);
  return ((after - input.adequacy.vector.compliance.score) * ADEQUACY_WEIGHTS_PCT.compliance) / 100;
}

/**
 * Overall points lost to schedule slip from pace (DOMAIN §4 project member): the horizon passes
 * with no work added, so time elapsed grows while work complete (this draw's Σ G ÷ Σ C) stays.
 */
function paceLoss(input: SimulationInput): number {
  const { project, draw, today } = input;
  const span = daysBetween(project.start_date, project.completion_date);
  if (span <= 0) return 0;
  const elapsed = (day: IsoDate) =>
    Math.min(100, Math.max(0, (daysBetween(project.start_date, day) * 100) / span));
  const done =
    draw.summary.contract_sum_to_date === 0
      ? 0
      : (draw.summary.total_completed_and_stored * 100) / draw.summary.contract_sum_to_date;
  const lag = (day: IsoDate) => Math.max(0, elapsed(day) - done);
  const lost = PROJECT_PACE_LAG_WEIGHT * (lag(addDays(today, SIMULATION_HORIZON_DAYS)) - lag(today));
  return (Math.min(lost, input.adequacy.vector.project.score) * ADEQUACY_WEIGHTS_PCT.project) / 100;
}

/** CRITICAL below 50 or when the project cannot be funded to completion; ELEVATED below 80 or with BLOCKING open. */
function posture(score: number, openBlocking: number, gap: Cents): Posture {
  if (score < POSTURE_CRITICAL_BELOW || gap > 0) return 'CRITICAL';
  if (score < POSTURE_NOMINAL_MIN || openBlocking > 0) return 'ELEVATED';
  return 'NOMINAL';
}

/** PD(grade) × exposure, rounded half-up to a cent. */
export function expectedLoss(score: number, exposure: Cents): Cents {
  return Math.round((exposure * PD_BASIS_POINTS[gradeFor(score)]) / 10_000);
}

/**
 * Simple interest principal × rate × days / 365 in integer cents. The rate is taken to a
 * hundredth of a percent and the product computed exactly (BigInt), then rounded half-up once.
 */
export function interestCarry(principal: Cents, ratePct: number, days: number): Cents {
  const rateHundredths = BigInt(Math.round(ratePct * 100));
  const numerator = BigInt(principal) * rateHundredths * BigInt(days);
  const denominator = 10_000n * 365n;
  return Number((numerator * 2n + denominator) / (denominator * 2n));
}

/** Disbursed applied equity, loan, contingency; `overdrawn` is what no source covers. */
function spend(project: Project, disbursed: Cents): { loan_spent: Cents; sources: Cents; overdrawn: Cents } {
  const equity = Math.min(project.equity, disbursed);
  const loan = Math.min(project.loan_amount, disbursed - equity);
  const contingency = Math.min(project.contingency, disbursed - equity - loan);
  return {
    loan_spent: loan,
    sources: project.loan_amount - loan + (project.equity - equity) + (project.contingency - contingency),
    overdrawn: disbursed - equity - loan - contingency,
  };
}

function loanSpent(project: Project, disbursed: Cents): Cents {
  return spend(project, disbursed).loan_spent;
}

function clampScore(value: number): number {
  return Math.min(100, Math.max(0, Math.round(value)));
}
