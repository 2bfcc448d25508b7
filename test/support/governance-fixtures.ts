/**
 * Governance fixtures: a builder of one project's facts (the `projects` read-model shapes, with
 * G702/G703 columns derived by the projects capability's own arithmetic) and `cleanWorld()`, a
 * project whose scan on `NOW` is CLEAN — each governance spec changes one fact and watches one rule.
 * Fixed ids, dates and sequence numbers; never the wall clock.
 */
import type {
  BillOfSale,
  ChangeOrder,
  Document,
  Draw,
  DrawStatus,
  FindingResolution,
  InspectionReport,
  InsuranceCertificate,
  Invoice,
  LienWaiver,
  Project,
  ProjectsState,
  TitleDateDown,
} from '../../src/projects/facts.js';
import {
  changeOrderDeltas,
  deriveDrawLines,
  retainageOn,
  summarize,
} from '../../src/projects/pay-application.js';
import type { ScanInput } from '../../src/governance/scan-input.js';
import type { Finding, FindingCode } from '../../src/governance/findings.js';
import { FINDING_ENGINES } from '../../src/governance/scan.js';

export const ORG = 'org_test000000000001';
export const PROJECT_ID = 'prj_test000000000001';
export const GC = 'ent_gc00000000000001';
export const OWNER = 'ent_owner00000000001';
export const ELECTRICIAN = 'ent_elec000000000001';
export const SUPPLIER = 'ent_supplier00000001';

/** The pinned scan instant. */
export const NOW = new Date('2026-04-15T12:00:00.000Z');
export const TODAY = '2026-04-15';

/** `now` at noon UTC on a day. */
export const on = (day: string): Date => new Date(`${day}T12:00:00.000Z`);

const recorded = (seq: number) => ({
  org_id: ORG,
  recorded_at: `2026-01-01T00:00:00.000Z`,
  recorded_seq: seq,
});

export function baseProject(): Project {
  return {
    ...recorded(1),
    id: PROJECT_ID,
    name: 'Harbor Lofts',
    profile: 'construction',
    borrower: OWNER,
    general_contractor: GC,
    architect: null,
    inspector: null,
    jurisdiction: 'CA',
    loan_amount: 240_000_000,
    equity: 60_000_000,
    contract_sum: 300_000_000,
    contingency: 15_000_000,
    retainage_pct: 10,
    interest_rate_pct: 8,
    start_date: '2026-01-01',
    completion_date: '2026-12-31',
    maturity_date: '2027-06-30',
    sov: [
      {
        line: 1,
        description: 'Sitework',
        scheduled_value: 100_000_000,
        trade: 'sitework',
        subcontractor: null,
      },
      {
        line: 2,
        description: 'Electrical',
        scheduled_value: 50_000_000,
        trade: 'electrical',
        subcontractor: ELECTRICIAN,
      },
      {
        line: 3,
        description: 'Framing',
        scheduled_value: 150_000_000,
        trade: 'framing',
        subcontractor: null,
      },
    ],
    required_coverages: [
      { type: 'GL', min_limit: 100_000_000 },
      { type: 'BUILDERS_RISK', min_limit: 300_000_000 },
    ],
    milestones: [],
    registered_at: '2026-01-01T00:00:00.000Z',
    registered_seq: 1,
    last_fact_seq: 1,
  };
}

/** Stated G703 columns for one line; `previous` defaults to the prior funded draw's G. */
export interface LineSpec {
  previous?: number;
  this_period: number;
  stored_materials?: number;
}

export interface DrawSpec {
  id: string;
  application_no: number;
  period_from: string;
  period_to: string;
  submitted_on: string;
  lines: Record<number, LineSpec>;
  status?: DrawStatus;
  funded_on?: string;
  funded_amount?: number;
  retainage_pct?: number;
  retainage_withheld?: number;
  previous_certificates_total?: number;
  requested_amount?: number;
  invoices?: string[];
}

type DocumentSpec<D extends Document> = Omit<
  D,
  'org_id' | 'recorded_at' | 'recorded_seq' | 'project_id' | 'type'
>;

/** One project's facts, recorded in call order (each builder takes the next `recorded_seq`). */
export class GovernanceWorld {
  project: Project = baseProject();
  change_orders: ChangeOrder[] = [];
  documents: Document[] = [];
  draws: Draw[] = [];
  resolutions: Record<string, FindingResolution> = {};
  #seq = 10;

  next(): number {
    this.#seq += 1;
    return this.#seq;
  }

  changeOrder(spec: Partial<ChangeOrder> & Pick<ChangeOrder, 'id' | 'lines'>): ChangeOrder {
    const co: ChangeOrder = {
      ...recorded(this.next()),
      project_id: PROJECT_ID,
      number: spec.id,
      amount: spec.lines.reduce((a, l) => a + l.delta, 0),
      description: 'change',
      executed_on: null,
      lender_approved_on: null,
      work_started_on: null,
      ...spec,
    };
    this.change_orders.push(co);
    return co;
  }

  draw(spec: DrawSpec): Draw {
    const seq = this.next();
    const pct = spec.retainage_pct ?? this.project.retainage_pct;
    const funded = this.draws.filter((d) => d.status === 'FUNDED');
    const priorG = new Map((funded.at(-1)?.lines ?? []).map((l) => [l.line, l.completed_and_stored]));
    const stated = this.project.sov.map((s) => {
      const l = spec.lines[s.line] ?? { this_period: 0 };
      return {
        line: s.line,
        previous: l.previous ?? priorG.get(s.line) ?? 0,
        this_period: l.this_period,
        stored_materials: l.stored_materials ?? 0,
      };
    });
    const counted = this.change_orders.filter((co) => co.recorded_seq < seq);
    const lines = deriveDrawLines(this.project.sov, changeOrderDeltas(counted, spec.period_to), stated, pct);
    const totalG = lines.reduce((a, l) => a + l.completed_and_stored, 0);
    const expected = retainageOn(totalG, pct);
    const previousFunded = funded.reduce((a, d) => a + (d.funded_amount ?? 0), 0);
    const withheld = spec.retainage_withheld ?? expected;
    const certificates = spec.previous_certificates_total ?? previousFunded;
    const summary = summarize(lines, withheld, certificates);
    const status = spec.status ?? 'SUBMITTED';
    const draw: Draw = {
      ...recorded(seq),
      id: spec.id,
      project_id: PROJECT_ID,
      application_no: spec.application_no,
      period_from: spec.period_from,
      period_to: spec.period_to,
      submitted_on: spec.submitted_on,
      lines,
      retainage_pct: pct,
      retainage_withheld: withheld,
      retainage_expected: expected,
      previous_certificates_total: certificates,
      previous_funded_total: previousFunded,
      requested_amount: spec.requested_amount ?? summary.current_payment_due,
      invoices: spec.invoices ?? [],
      summary,
      signatures: [],
      status,
      compiled_seq: null,
      funded_on: status === 'FUNDED' ? (spec.funded_on ?? spec.submitted_on) : null,
      funded_amount: status === 'FUNDED' ? (spec.funded_amount ?? summary.current_payment_due) : null,
      payment_id: null,
      payment_rail: null,
      last_fact_seq: seq,
    };
    this.draws.push(draw);
    return draw;
  }

  #document<D extends Document>(type: D['type'], spec: object): D {
    const doc = { ...recorded(this.next()), project_id: PROJECT_ID, type, ...spec } as D;
    this.documents.push(doc);
    return doc;
  }

  waiver(
    spec: Partial<DocumentSpec<LienWaiver>> & Pick<LienWaiver, 'id' | 'draw_id' | 'amount'>,
  ): LienWaiver {
    return this.#document<LienWaiver>('LIEN_WAIVER', {
      claimant: GC,
      waiver_type: 'CONDITIONAL_PROGRESS',
      through_date: '2026-03-31',
      signed_on: null,
      executed: true,
      exceptions: [],
      ...spec,
    });
  }

  certificate(
    spec: Partial<DocumentSpec<InsuranceCertificate>> & Pick<InsuranceCertificate, 'id' | 'coverage_type'>,
  ): InsuranceCertificate {
    return this.#document<InsuranceCertificate>('INSURANCE_CERTIFICATE', {
      insured: GC,
      limit: 500_000_000,
      effective_on: '2026-01-01',
      expires_on: '2027-01-01',
      additional_insured: true,
      ...spec,
    });
  }

  inspection(
    spec: Partial<DocumentSpec<InspectionReport>> & Pick<InspectionReport, 'id' | 'inspected_on'>,
  ): InspectionReport {
    return this.#document<InspectionReport>('INSPECTION_REPORT', {
      draw_id: null,
      inspector: 'ent_inspector0000001',
      lines: [],
      stored_materials_verified: true,
      ...spec,
    });
  }

  /** An inspection of `draw` that agrees with every claimed percentage. */
  agreeingInspection(id: string, draw: Draw, inspected_on: string): InspectionReport {
    return this.inspection({
      id,
      draw_id: draw.id,
      inspected_on,
      lines: draw.lines.map((l) => ({ line: l.line, percent_complete: l.percent_complete })),
    });
  }

  titleDateDown(
    spec: Partial<DocumentSpec<TitleDateDown>> & Pick<TitleDateDown, 'id' | 'effective_on'>,
  ): TitleDateDown {
    return this.#document<TitleDateDown>('TITLE_DATE_DOWN', { new_liens: [], ...spec });
  }

  invoice(spec: Partial<DocumentSpec<Invoice>> & Pick<Invoice, 'id' | 'number' | 'amount'>): Invoice {
    return this.#document<Invoice>('INVOICE', { vendor: GC, line: 1, draw_id: null, ...spec });
  }

  billOfSale(spec: Partial<DocumentSpec<BillOfSale>> & Pick<BillOfSale, 'id' | 'lines'>): BillOfSale {
    return this.#document<BillOfSale>('BILL_OF_SALE', {
      vendor: SUPPLIER,
      draw_id: null,
      amount: spec.lines.reduce((a, l) => a + l.amount, 0),
      insured: true,
      ...spec,
    });
  }

  resolve(finding_id: string, resolved_on = TODAY): FindingResolution {
    const r: FindingResolution = {
      ...recorded(this.next()),
      finding_id,
      resolution: 'accepted by the lender',
      resolved_on,
      evidence_document_id: null,
    };
    this.resolutions[finding_id] = r;
    return r;
  }

  input(): ScanInput {
    return {
      project: this.project,
      change_orders: this.change_orders,
      documents: this.documents,
      draws: this.draws,
      resolutions: this.resolutions,
    };
  }

  /** The same facts as the `projects` read model holds them. */
  state(): ProjectsState {
    const byId = <T extends { id: string }>(xs: readonly T[]): Record<string, T> =>
      Object.fromEntries(xs.map((x) => [x.id, x]));
    return {
      projects: { [PROJECT_ID]: this.project },
      change_orders: byId(this.change_orders),
      documents: byId(this.documents),
      draws: byId(this.draws),
      resolutions: { ...this.resolutions },
      by_project: {
        [PROJECT_ID]: {
          change_order_ids: this.change_orders.map((c) => c.id),
          document_ids: this.documents.map((d) => d.id),
          draw_ids: this.draws.map((d) => d.id),
        },
      },
      project_ids_by_org: { [ORG]: [PROJECT_ID] },
      resolution_ids_by_org: { [ORG]: Object.keys(this.resolutions) },
    };
  }
}

/** The clean project's two draws: application 1 funded, application 2 under review. */
export interface CleanWorld {
  w: GovernanceWorld;
  d1: Draw;
  d2: Draw;
  /** The GC's unconditional waiver for application 1 and conditional waiver for application 2. */
  unconditional1: LienWaiver;
  conditional2: LienWaiver;
  inspection2: InspectionReport;
  title2: TitleDateDown;
}

export interface CleanWorldOptions {
  /** Records extra facts (change orders, documents) after application 1 and before application 2. */
  beforeDraw2?: (w: GovernanceWorld) => void;
  /** Overrides application 2's stated figures (its invoice and conditional waiver follow its request). */
  draw2?: Partial<DrawSpec>;
}

/**
 * A project that scans CLEAN on `NOW` (2026-04-15): application 1 (February) funded 2026-03-10
 * for $360,000 with the GC's unconditional waiver; application 2 (March, $495,000 due unless overridden) submitted
 * 2026-04-03 with a conditional waiver, a full invoice, an agreeing inspection on 2026-04-01, a
 * clean title date-down effective 2026-04-10, and GL / builder's risk cover through 2027-01-01.
 */
export function cleanWorld(options: CleanWorldOptions = {}): CleanWorld {
  const w = new GovernanceWorld();
  w.certificate({ id: 'COI-gl', coverage_type: 'GL' });
  w.certificate({ id: 'COI-br', coverage_type: 'BUILDERS_RISK' });
  w.invoice({ id: 'INV-1', number: 'G-1', amount: 36_000_000 });
  const d1 = w.draw({
    id: 'DRW-1',
    application_no: 1,
    period_from: '2026-02-01',
    period_to: '2026-02-28',
    submitted_on: '2026-03-02',
    lines: { 1: { this_period: 20_000_000 }, 2: { this_period: 5_000_000 }, 3: { this_period: 15_000_000 } },
    invoices: ['INV-1'],
    status: 'FUNDED',
    funded_on: '2026-03-10',
  });
  w.agreeingInspection('INSP-1', d1, '2026-03-01');
  w.titleDateDown({ id: 'TTL-1', effective_on: '2026-03-05' });
  const unconditional1 = w.waiver({
    id: 'WAIV-u1',
    draw_id: d1.id,
    waiver_type: 'UNCONDITIONAL_PROGRESS',
    amount: 36_000_000,
    through_date: '2026-02-28',
    signed_on: '2026-03-12',
  });
  options.beforeDraw2?.(w);
  const d2 = w.draw({
    id: 'DRW-2',
    application_no: 2,
    period_from: '2026-03-01',
    period_to: '2026-03-31',
    submitted_on: '2026-04-03',
    lines: { 1: { this_period: 20_000_000 }, 2: { this_period: 5_000_000 }, 3: { this_period: 30_000_000 } },
    invoices: ['INV-2'],
    ...options.draw2,
  });
  w.invoice({ id: 'INV-2', number: 'G-2', amount: d2.requested_amount });
  const conditional2 = w.waiver({
    id: 'WAIV-c2',
    draw_id: d2.id,
    amount: d2.requested_amount,
    signed_on: '2026-04-03',
  });
  const inspection2 = w.agreeingInspection('INSP-2', d2, '2026-04-01');
  const title2 = w.titleDateDown({ id: 'TTL-2', effective_on: '2026-04-10' });
  return { w, d1, d2, unconditional1, conditional2, inspection2, title2 };
}

/** The findings one rule reports for the world's facts on `now`. */
export function findingsFor(w: GovernanceWorld, code: FindingCode, now: Date = NOW): Finding[] {
  return FINDING_ENGINES[code](w.input(), now);
}

/** The severities of some findings, in order. */
export const severities = (findings: readonly Finding[]): string[] => findings.map((f) => f.severity);

/** Removes a document from the world (a fact that was never recorded). */
export function without(w: GovernanceWorld, documentId: string): GovernanceWorld {
  w.documents = w.documents.filter((d) => d.id !== documentId);
  return w;
}
