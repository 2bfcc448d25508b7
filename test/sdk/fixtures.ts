/** A small governed project, built through the SDK itself, for the SDK specs. */
import type { Plumbline } from '../../src/sdk/index.js';

export const D = (dollars: number): number => Math.round(dollars * 100);

export interface SdkFixture {
  owner: string;
  gc: string;
  projectId: string;
  drawId: string;
}

export async function governedProject(client: Plumbline): Promise<SdkFixture> {
  const owner = (await client.createEntity({ legal_name: 'Harbor View Owner LLC', roles: ['owner'] })).id;
  const gc = (
    await client.createEntity({
      legal_name: 'Keystone Builders, Inc.',
      ein: '12-3456789',
      roles: ['general_contractor'],
    })
  ).id;
  const project = await client.registerProject({
    name: 'Harbor View Lofts',
    borrower: owner,
    general_contractor: gc,
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
  });
  const draw = await client.submitDraw(project.id, {
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
  });
  return { owner, gc, projectId: project.id, drawId: draw.id };
}
