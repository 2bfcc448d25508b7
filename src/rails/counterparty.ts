/**
 * COUNTERPARTY rail (DOMAIN §8): concentration of the org's committed exposure (loan commitments)
 * by general contractor, and GCs on several distressed projects. Always computed over the whole
 * org portfolio; a narrowed view keeps the findings about its own project's GC.
 */
import type { Cents, EntityId, IsoDate } from '../projects/facts.js';
import { dayOf } from './dates.js';
import { finding, type RailFinding } from './findings.js';
import { groupBy } from './observations.js';
import { RAIL_PATHS, type PortfolioProject, type Rail, type RailFacts } from './rail.js';
import { evaluateWith, type FactCheck } from './coverage.js';

/** DOMAIN §8: one GC holding more than 25 % of the org's committed exposure. */
export const COUNTERPARTY_GC_SHARE_PCT = 25;
/** DOMAIN §8: Herfindahl–Hirschman index over GC shares (in %, so 0–10,000) above 2,500. */
export const COUNTERPARTY_HHI_LIMIT = 2500;
/** DOMAIN §8: a GC on at least 3 distressed projects. */
export const COUNTERPARTY_DISTRESSED_PROJECTS = 3;

export interface GcExposure {
  general_contractor: EntityId;
  project_ids: string[];
  exposure: Cents;
  /** Share of the org's committed exposure, 0–100. */
  share_pct: number;
}

/** Exposure per GC, largest first (ties by GC id); shares are 0 when nothing is committed. */
export function exposureByGc(projects: readonly PortfolioProject[]): GcExposure[] {
  const total = projects.reduce((sum, p) => sum + p.loan_amount, 0);
  return [...groupBy(projects, (p) => p.general_contractor).entries()]
    .map(([gc, own]) => {
      const exposure = own.reduce((sum, p) => sum + p.loan_amount, 0);
      return {
        general_contractor: gc,
        project_ids: own.map((p) => p.id).sort(),
        exposure,
        share_pct: total > 0 ? (exposure * 100) / total : 0,
      };
    })
    .sort((a, b) => b.exposure - a.exposure || (a.general_contractor < b.general_contractor ? -1 : 1));
}

/** HHI = Σ share² with shares in percent. */
export function herfindahl(exposures: readonly GcExposure[]): number {
  return exposures.reduce((sum, e) => sum + e.share_pct ** 2, 0);
}

/**
 * The limits are decided on the exposures in integer cents, not on the shares: a share is a
 * rounded quotient and the HHI a sum of their rounded squares, so a portfolio exactly at the limit
 * could read over it (five GCs lending $49M, 37, 19, 18 and 13 make an HHI of exactly 2,500, but
 * their squared shares add up to 2,500.0000000000005), and totals past 2^53 cents are not exact as
 * doubles at all. BigInt keeps every product exact.
 */
function totalCents(exposures: readonly GcExposure[]): bigint {
  return exposures.reduce((sum, e) => sum + BigInt(e.exposure), 0n);
}

/** Whether the GC's share of `total` is above COUNTERPARTY_GC_SHARE_PCT (at it is not). */
function shareExceeds(e: GcExposure, total: bigint): boolean {
  return total > 0n && BigInt(e.exposure) * 100n > BigInt(COUNTERPARTY_GC_SHARE_PCT) * total;
}

/** Whether Σ (100 · exposure / total)² is above COUNTERPARTY_HHI_LIMIT (at it is not). */
export function herfindahlExceeds(exposures: readonly GcExposure[]): boolean {
  const total = totalCents(exposures);
  if (total === 0n) return false;
  const squares = exposures.reduce((sum, e) => sum + BigInt(e.exposure) ** 2n, 0n);
  return squares * 10_000n > BigInt(COUNTERPARTY_HHI_LIMIT) * total * total;
}

function gcFindings(
  e: GcExposure,
  total: bigint,
  distressed: ReadonlySet<string>,
  today: IsoDate,
): RailFinding[] {
  const out: RailFinding[] = [];
  const common = {
    project_id: null,
    entity_id: e.general_contractor,
    evidence: e.project_ids.map((id) => ({ kind: 'project' as const, id })),
    observed_on: today,
  };
  if (shareExceeds(e, total)) {
    const detail = `GC holds ${e.share_pct.toFixed(1)} % of committed exposure across ${e.project_ids.length} project(s) (limit ${COUNTERPARTY_GC_SHARE_PCT} %).`;
    out.push(
      finding('COUNTERPARTY_GC_CONCENTRATION', 'WARNING', {
        ...common,
        title: 'Exposure concentrated on one GC',
        detail,
      }),
    );
  }
  const troubled = e.project_ids.filter((id) => distressed.has(id));
  if (troubled.length >= COUNTERPARTY_DISTRESSED_PROJECTS) {
    const detail = `GC is on ${troubled.length} distressed projects (limit ${COUNTERPARTY_DISTRESSED_PROJECTS}): ${troubled.join(', ')}.`;
    const evidence = troubled.map((id) => ({ kind: 'project' as const, id }));
    out.push(
      finding('COUNTERPARTY_DISTRESSED_GC', 'CRITICAL', {
        ...common,
        evidence,
        title: 'GC on several distressed projects',
        detail,
      }),
    );
  }
  return out;
}

/** HHI concerns no single GC, so it belongs to the org view only. */
function hhiFindings(exposures: readonly GcExposure[], today: IsoDate): RailFinding[] {
  if (!herfindahlExceeds(exposures)) return [];
  const hhi = herfindahl(exposures);
  return [
    finding('COUNTERPARTY_HHI', 'WARNING', {
      project_id: null,
      entity_id: null,
      title: 'Portfolio concentrated across GCs',
      detail: `HHI ${Math.round(hhi)} over ${exposures.length} GC(s) (limit ${COUNTERPARTY_HHI_LIMIT}).`,
      evidence: exposures.map((e) => ({ kind: 'entity', id: e.general_contractor })),
      observed_on: today,
    }),
  ];
}

export function counterpartyFindings(facts: RailFacts, now: Date): RailFinding[] {
  const today = dayOf(now);
  const exposures = exposureByGc(facts.portfolio.projects);
  const distressed = new Set(facts.portfolio.distressed_project_ids);
  const inView = new Set(facts.projects.map((p) => p.general_contractor));
  const gcs =
    facts.project_id === null ? exposures : exposures.filter((e) => inView.has(e.general_contractor));
  return [
    ...gcs.flatMap((e) => gcFindings(e, totalCents(exposures), distressed, today)),
    ...(facts.project_id === null ? hhiFindings(exposures, today) : []),
  ];
}

/** The facts the COUNTERPARTY rail reads (DOMAIN §8 table): none of them → INSUFFICIENT_DATA. */
export const COUNTERPARTY_FACTS: readonly FactCheck[] = [
  {
    name: 'loan_commitments',
    present: (facts) => facts.portfolio.projects.some((p) => p.loan_amount > 0),
  },
];

export const COUNTERPARTY_RAIL: Rail = {
  name: 'COUNTERPARTY',
  path: RAIL_PATHS.COUNTERPARTY,
  evaluate: evaluateWith('COUNTERPARTY', COUNTERPARTY_FACTS, counterpartyFindings),
};
