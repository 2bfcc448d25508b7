/**
 * A project model becomes dated requests (SPEC §5 bodies): registration, certificates, change
 * orders, each application's package (invoices before it; bills of sale, waivers, signatures,
 * inspection and title date-down after it; the review and payment hook; the unconditional waivers
 * after payment), rail observations, the final review and the scenario's extra steps.
 */
import { drawSignatureStep, emitSigners, waiverSignatureStep } from './duties.js';
import { finalSteps, reviewSteps } from './governance.js';
import type { DrawModel, ProjectModel, WaiverModel } from './model.js';
import type { Json, Timeline } from './steps.js';
import { ref } from './steps.js';

const documents = (m: ProjectModel): string => `/api/projects/${ref(m.ref)}/documents`;

function registration(m: ProjectModel): Json {
  const s = m.scenario;
  return {
    name: s.name,
    profile: s.profile,
    borrower: ref(s.owner),
    general_contractor: ref(s.gc),
    architect: ref(s.architect),
    inspector: ref(s.inspector),
    jurisdiction: s.jurisdiction,
    loan_amount: m.loan_amount,
    equity: m.equity,
    contract_sum: m.contract_sum,
    contingency: m.contingency,
    retainage_pct: s.retainagePct,
    interest_rate_pct: m.interest_rate_pct,
    start_date: m.start_date,
    completion_date: m.completion_date,
    maturity_date: m.maturity_date,
    sov: m.sov.map((l) => ({
      line: l.line,
      description: l.description,
      scheduled_value: l.scheduled,
      trade: l.trade,
      ...(l.sub ? { subcontractor: ref(l.sub) } : {}),
    })),
    required_coverages: m.required,
    milestones: m.milestones.map((ms) => ({ name: ms.name, due_on: ms.due_on })),
  };
}

function waiverBody(w: WaiverModel, d: DrawModel): Json {
  return {
    type: 'LIEN_WAIVER',
    claimant: ref(w.claimant),
    draw_id: ref(d.ref),
    waiver_type: w.waiver_type,
    amount: w.amount,
    through_date: w.through_date,
    signed_on: w.signed_on,
    executed: true,
    ...(w.exceptions.length > 0 ? { exceptions: w.exceptions } : {}),
  };
}

function drawBody(d: DrawModel): Json {
  return {
    application_no: d.application_no,
    period_from: d.period_from,
    period_to: d.period_to,
    submitted_on: d.submitted_on,
    lines: d.lines.map((l) => ({ ...l })),
    retainage_pct: d.retainage_pct,
    retainage_withheld: d.retainage_withheld,
    previous_certificates_total: d.previous_certificates_total,
    invoices: d.invoices.map((i) => ref(i.ref)),
    requested_amount: d.requested_amount,
  };
}

/** Invoices first, then the application, then bills of sale for what it stores. */
function emitSubmission(m: ProjectModel, d: DrawModel, t: Timeline): void {
  const L = m.scenario.lender;
  for (const inv of d.invoices) {
    const body = {
      type: 'INVOICE',
      vendor: ref(inv.vendor),
      number: inv.number,
      amount: inv.amount,
      line: inv.line,
    };
    t.ingest(inv.recorded_on, L, documents(m), body, `${d.ref}: invoice ${inv.number}`, inv.ref);
  }
  t.ingest(
    d.submitted_on,
    L,
    `/api/projects/${ref(m.ref)}/draws`,
    drawBody(d),
    `${d.ref}: application ${d.application_no}`,
    d.ref,
  );
  for (const b of d.bills_of_sale) {
    const body = {
      type: 'BILL_OF_SALE',
      vendor: ref(b.vendor),
      draw_id: ref(d.ref),
      lines: [{ line: b.line, description: b.description, amount: b.amount }],
      amount: b.amount,
      insured: b.insured,
    };
    t.ingest(d.submitted_on, L, documents(m), body, `${d.ref}: bill of sale, line ${b.line}`);
  }
}

/** Waivers and signatures at submission, then the inspection and the title date-down. */
function emitPackage(m: ProjectModel, d: DrawModel, t: Timeline): void {
  const L = m.scenario.lender;
  d.waivers.forEach((w, i) => {
    t.ingest(
      w.recorded_on,
      L,
      documents(m),
      waiverBody(w, d),
      `${d.ref}: ${w.waiver_type} waiver by ${w.claimant}`,
      `${d.ref}.w${i}`,
    );
    // Executed by the claimant's enrolled signer (docs/duties.md), the day it is recorded.
    t.add(w.recorded_on, waiverSignatureStep(m, `${d.ref}.w${i}`, w.claimant, 'ingest'));
  });
  // Each chain role's enrolled signer signs the application as the service computed it.
  for (const s of d.signatures) t.add(s.signed_on, drawSignatureStep(m, d.ref, s.role));
  if (d.inspection) {
    const body = {
      type: 'INSPECTION_REPORT',
      draw_id: ref(d.ref),
      inspector: ref(m.scenario.inspector),
      inspected_on: d.inspection.inspected_on,
      lines: d.inspection.lines,
      stored_materials_verified: true,
    };
    t.ingest(
      d.inspection.recorded_on,
      L,
      documents(m),
      body,
      `${d.ref}: inspection of ${d.inspection.inspected_on}`,
    );
  }
  for (const title of d.titles) {
    const body = {
      type: 'TITLE_DATE_DOWN',
      effective_on: title.effective_on,
      new_liens: title.new_liens.map(({ claimant, ...lien }) =>
        claimant === null ? lien : { ...lien, claimant: ref(claimant) },
      ),
    };
    t.ingest(title.effective_on, L, documents(m), body, `${d.ref}: title date-down ${title.effective_on}`);
  }
}

/** The lender's review and payment (governance hook), then everyone's unconditional waivers. */
function emitReview(m: ProjectModel, d: DrawModel, previous: DrawModel | undefined, t: Timeline): void {
  for (const step of reviewSteps(m, d, previous)) t.add(step.date, step.draft);
  d.unconditional.forEach((w, i) => {
    t.add(w.recorded_on, {
      phase: 'after_funding',
      sender: m.scenario.lender,
      path: documents(m),
      body: waiverBody(w, d),
      label: `${d.ref}: unconditional waiver by ${w.claimant} after payment`,
      save: `${d.ref}.u${i}`,
    });
    t.add(w.recorded_on, waiverSignatureStep(m, `${d.ref}.u${i}`, w.claimant, 'after_funding'));
  });
}

export function emitProject(m: ProjectModel, t: Timeline, today: string, seed: string): void {
  const L = m.scenario.lender;
  t.ingest(
    m.registered_on,
    L,
    '/api/projects',
    registration(m),
    `${m.ref}: register ${m.scenario.name}`,
    m.ref,
  );
  emitSigners(m, t, seed);
  for (const c of m.certificates) {
    const body = {
      type: 'INSURANCE_CERTIFICATE',
      insured: ref(m.scenario.gc),
      coverage_type: c.coverage_type,
      limit: c.limit,
      effective_on: c.effective_on,
      expires_on: c.expires_on,
      additional_insured: true,
    };
    t.ingest(
      c.recorded_on,
      L,
      documents(m),
      body,
      `${m.ref}: ${c.coverage_type} certificate to ${c.expires_on}`,
    );
  }
  for (const co of m.change_orders) {
    const body = {
      number: co.number,
      amount: co.amount,
      lines: co.deltas,
      description: co.description,
      ...(co.executed_on ? { executed_on: co.executed_on } : {}),
      ...(co.lender_approved_on ? { lender_approved_on: co.lender_approved_on } : {}),
      ...(co.work_started_on ? { work_started_on: co.work_started_on } : {}),
    };
    t.ingest(
      co.recorded_on,
      L,
      `/api/projects/${ref(m.ref)}/change-orders`,
      body,
      `${m.ref}: ${co.number}`,
      co.ref,
    );
  }
  m.draws.forEach((d, i) => {
    emitSubmission(m, d, t);
    emitPackage(m, d, t);
    emitReview(m, d, m.draws[i - 1], t);
  });
  for (const o of m.observations) {
    const { entity, ...rest } = o.body;
    const body = {
      ...rest,
      project_id: ref(m.ref),
      ...(typeof entity === 'string' ? { entity: ref(entity) } : {}),
    };
    t.ingest(o.on, L, '/api/observations', body, `${m.ref}: ${o.body.kind} observation`);
  }
  for (const step of finalSteps(m, today)) t.add(step.date, step.draft);
  for (const step of m.extra) t.add(step.date, step.draft);
}
