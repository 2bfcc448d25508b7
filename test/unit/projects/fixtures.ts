/**
 * Fixed fixtures for the projects specs: orgs, registry entities, valid bodies (parsed through the
 * contract, so fixtures can never drift from it), a pinned context, and a History that records
 * given events by running real commands through the decider.
 */
import { idFromUuid } from '../../../src/platform/ids.js';
import type { GivenEvent } from '../../support/decider.js';
import { fold, sealGiven } from '../../support/decider.js';
import { projectsProjection } from '../../../projections/projects.js';
import {
  decide,
  RecordChangeOrderBody,
  RecordDocumentBody,
  RecordObservationBody,
  RegisterProjectBody,
  SignDrawBody,
  SubmitDrawBody,
  type DecideContext,
  type ProjectsCommand,
} from '../../../src/projects/index.js';

export const ORG_A = 'org_aaaaaaaaaaaaaaaa';
export const ORG_B = 'org_bbbbbbbbbbbbbbbb';

/** A deterministic UUID for the n-th event of a family. */
export const uuid = (n: number, family = 1): string =>
  `00000000-0000-4000-8000-${(family * 1_000_000 + n).toString(16).padStart(12, '0')}`;

export const ENT = {
  borrower: idFromUuid('ent_', uuid(1, 90)),
  gc: idFromUuid('ent_', uuid(2, 90)),
  architect: idFromUuid('ent_', uuid(3, 90)),
  inspector: idFromUuid('ent_', uuid(4, 90)),
  sub: idFromUuid('ent_', uuid(5, 90)),
  vendor: idFromUuid('ent_', uuid(6, 90)),
  /** Well-formed but not in the registry. */
  stranger: idFromUuid('ent_', uuid(7, 90)),
} as const;
const KNOWN = new Set<string>([ENT.borrower, ENT.gc, ENT.architect, ENT.inspector, ENT.sub, ENT.vendor]);

/** The command instant every spec uses. */
export const NOW = new Date('2026-03-15T12:00:00.000Z');

export function ctx(org_id: string, n: number, extra: Partial<DecideContext['lookups']> = {}): DecideContext {
  return {
    org_id,
    now: NOW,
    eventId: uuid(n, 5),
    lookups: {
      entityExists: (id) => KNOWN.has(id),
      findingAt: () => ({ opened_on: '2026-03-01', severity: 'WARNING', evidence: [] }),
      ...extra,
    },
  };
}

export const D = (dollars: number): number => Math.round(dollars * 100);

export function projectBody(over: Record<string, unknown> = {}): RegisterProjectBody {
  return RegisterProjectBody.parse({
    name: 'Harbor View Lofts',
    borrower: ENT.borrower,
    general_contractor: ENT.gc,
    architect: ENT.architect,
    inspector: ENT.inspector,
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
      { line: 1, description: 'Sitework', scheduled_value: D(200_000), trade: 'sitework' },
      {
        line: 2,
        description: 'Concrete',
        scheduled_value: D(300_000),
        trade: 'concrete',
        subcontractor: ENT.sub,
      },
      { line: 3, description: 'Framing', scheduled_value: D(500_000), trade: 'carpentry' },
    ],
    required_coverages: [{ type: 'GL', min_limit: D(1_000_000) }],
    milestones: [{ name: 'Foundation complete', due_on: '2026-04-30' }],
    ...over,
  });
}

export function changeOrderBody(over: Record<string, unknown> = {}): RecordChangeOrderBody {
  return RecordChangeOrderBody.parse({
    number: 'CO-001',
    amount: D(25_000),
    lines: [{ line: 2, delta: D(25_000) }],
    description: 'Deeper footings after geotech report',
    executed_on: '2026-02-10',
    ...over,
  });
}

export function drawBody(over: Record<string, unknown> = {}): SubmitDrawBody {
  return SubmitDrawBody.parse({
    application_no: 1,
    period_from: '2026-02-01',
    period_to: '2026-02-28',
    lines: [
      { line: 1, previous: 0, this_period: D(50_000), stored_materials: 0 },
      { line: 2, previous: 0, this_period: D(30_000), stored_materials: 1_234_567 },
      { line: 3, previous: 0, this_period: 0, stored_materials: 0 },
    ],
    retainage_pct: 10,
    invoices: [],
    requested_amount: D(83_111.1),
    ...over,
  });
}

export function invoiceBody(over: Record<string, unknown> = {}): RecordDocumentBody {
  return RecordDocumentBody.parse({
    type: 'INVOICE',
    vendor: ENT.vendor,
    number: 'A-100',
    amount: D(50_000),
    line: 1,
    ...over,
  });
}

export function waiverBody(draw_id: string, over: Record<string, unknown> = {}): RecordDocumentBody {
  return RecordDocumentBody.parse({
    type: 'LIEN_WAIVER',
    claimant: ENT.gc,
    draw_id,
    waiver_type: 'CONDITIONAL_PROGRESS',
    amount: D(83_111.1),
    through_date: '2026-02-28',
    executed: false,
    ...over,
  });
}

export const signBody = (role: string, over: Record<string, unknown> = {}): SignDrawBody =>
  SignDrawBody.parse({ role, signer_name: `${role} Signer`, signed_on: '2026-03-05', ...over });

export const observationBody = (raw: Record<string, unknown>): RecordObservationBody =>
  RecordObservationBody.parse({ observed_on: '2026-03-10', ...raw });

/** Given events produced by running real commands (so specs start from states the system can reach). */
export class History {
  readonly given: GivenEvent[] = [];
  #n = 0;

  run(org_id: string, command: ProjectsCommand): string {
    this.#n += 1;
    const outcome = decide(this.state(), command, ctx(org_id, 1000 + this.#n));
    if (!outcome.ok) throw new Error(`fixture command rejected: ${outcome.error.detail}`);
    this.given.push(...outcome.events.map((e) => ({ ...e, org_id })));
    return outcome.result.id;
  }

  /** Appends a governance event (another capability's) as the projection will see it. */
  governance(org_id: string, type: string, data: Record<string, unknown>): void {
    this.given.push({ stream: `draw-${String(data.draw_id)}`, type, data, org_id });
  }

  state() {
    return fold(projectsProjection, sealGiven(this.given));
  }
}

/** Org A with one registered project (and optionally more facts); returns the history and ids. */
export function projectHistory(): { h: History; project: string } {
  const h = new History();
  const project = h.run(ORG_A, { type: 'RegisterProject', body: projectBody() });
  return { h, project };
}
