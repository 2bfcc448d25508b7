/**
 * Request bodies the API specs share: money helpers and a project with the same financials every
 * spec starts from ($1M contract, $800k loan + $200k equity — in balance — 10 % retainage), so a
 * spec states only what its case changes.
 */

/** Dollars → integer cents. */
export const D = (dollars: number): number => Math.round(dollars * 100);

export interface ProjectParties {
  borrower: string;
  general_contractor: string;
  architect?: string;
  inspector?: string;
}

/** The Harbor View Lofts registration: two SOV lines ($400k sitework, $600k framing), no coverages. */
export function projectBody(
  parties: ProjectParties,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: 'Harbor View Lofts',
    ...parties,
    jurisdiction: 'CA',
    loan_amount: D(800_000),
    equity: D(200_000),
    contract_sum: D(1_000_000),
    retainage_pct: 10,
    interest_rate_pct: 7.5,
    start_date: '2026-01-05',
    completion_date: '2026-12-18',
    maturity_date: '2027-06-30',
    sov: [
      { line: 1, description: 'Sitework', scheduled_value: D(400_000), trade: 'sitework' },
      { line: 2, description: 'Framing', scheduled_value: D(600_000), trade: 'carpentry' },
    ],
    required_coverages: [],
    ...overrides,
  };
}

/** One SOV line of $1M, for specs about the entity rather than the draw arithmetic. */
export const ONE_LINE_SOV = [
  { line: 1, description: 'General conditions', scheduled_value: D(1_000_000), trade: 'general' },
];

/** Application 1 for May 2026 on projectBody's SOV: $150k of work, $15k retainage, $135k requested. */
export function firstDrawBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    application_no: 1,
    period_from: '2026-05-01',
    period_to: '2026-05-31',
    retainage_pct: 10,
    lines: [
      { line: 1, previous: 0, this_period: D(100_000), stored_materials: 0 },
      { line: 2, previous: 0, this_period: D(50_000), stored_materials: 0 },
    ],
    invoices: [],
    requested_amount: D(135_000),
    ...overrides,
  };
}
