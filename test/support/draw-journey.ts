/**
 * One draw on its way to payment, as the API specs about the payment gate drive it: a lender, the
 * Harbor View Lofts project (projectBody) with its GC, two invoices and application 1 ($135,000),
 * plus the steps that make it payable — documents, signatures, notarization — so each spec states
 * only the fact it changes.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import type { IssuedKey } from '../../src/orgs/keys.js';
import { D, firstDrawBody, projectBody } from './api-fixtures.js';
import { startService, type TestService } from './service.js';
import type { SubmitDrawBody } from '../../src/projects/contract.js';
import { drawStream, projectsEvent } from '../../src/projects/events.js';
import { idFromUuid } from '../../src/platform/ids.js';
import { signingDigestHex } from '../../src/sdk/duties.js';
import {
  enrolledSigner,
  notarialSignature,
  signDrawAs,
  signWaiverAs,
  type EnrolledSigner,
} from './signers.js';

export interface DrawJourney {
  svc: TestService;
  lender: IssuedKey;
  projectId: string;
  drawId: string;
  gc: string;
  architect: string;
  /** Account ids: the lender's disbursement and escrow accounts, the GC's payee account. */
  accounts: { disbursement: string; escrow: string; gc: string };
  /** The three enrolled signers (invited and enrolled on first use): the GC's, the architect's, the lender's. */
  signers(): Promise<{ Contractor: EnrolledSigner; Architect: EnrolledSigner; Lender: EnrolledSigner }>;
  post(path: string, body: unknown, key?: IssuedKey): request.Test;
  /** POSTs and expects 201; answers the new id. */
  created(path: string, body: unknown): Promise<string>;
  /** Inspection, title date-down and the GC's conditional waiver, executed by the GC's signer (the waiver's id). */
  fixDocuments(opts?: {
    waiverAmount?: number;
    inspectedLine1Pct?: number;
    /** The inspection report's lines instead of line 1 at `inspectedLine1Pct` and line 2 at 8.33 %. */
    inspectedLines?: { line: number; percent_complete: number }[];
    unsigned?: boolean;
  }): Promise<string>;
  /** A new `draws:approve` key of the lender's org accepts the draw with `reason`; expected 201, the answer. */
  accept(reason: string): Promise<request.Response>;
  /** A second inspection of the draw (another inspector, 2026-06-03): line 1 at `line1Pct`, line 2 at 8.33 %. */
  reinspect(line1Pct: number): Promise<void>;
  /**
   * Application 2 (June), submitted on 1 July (the clock moves there) on its own documents: the GC's
   * invoices `[number, line, amount]`, the draw (`firstDrawBody` with `draw` over it), an inspection
   * of lines 1 and 2 at `inspected`, a title date-down and the GC's conditional waiver for
   * `waiverAmount`, not yet signed.
   */
  secondApplication(opts: {
    invoices: [number: string, line: number, amount: number][];
    draw?: Record<string, unknown>;
    inspected: [line1Pct: number, line2Pct: number];
    waiverAmount: number;
  }): Promise<{ drawId: string; waiver: string }>;
  signAll(): Promise<void>;
  /** The lender org's notary (commissioned in CA until 2027-12-31), enrolled on first use. */
  notary(): Promise<EnrolledSigner>;
  /** A notarial act (acknowledgment, the GC's signer appearing) over the document, in CA, dated 2026-06-03 unless `actDate`; the response. */
  notarialAct(
    documentId: string,
    opts?: { notary?: EnrolledSigner; jurisdiction?: string; actDate?: string },
  ): Promise<request.Response>;
  /** `notarialAct`, expected 201. */
  notarize(documentId: string): Promise<void>;
  compile(): Promise<request.Response>;
  /** A title date-down effective on submission day that shows a new $42,000 lien. */
  recordLien(): Promise<void>;
  /** The GC's GL certificate ($2M, from 2026-01-01) expiring on `expiresOn`. */
  insureGc(expiresOn: string): Promise<void>;
  /** Documents, compile (expected FUNDABLE), signatures and notarization: a draw ready to pay. */
  readyToPay(): Promise<void>;
}

const verified = {
  method: 'callback',
  reference: 'call-back to the number on file',
  verified_on: '2026-05-01',
};
/** The lender's operating account at its bank (ABA 021000021, checksum-valid). */
export const LENDER_DISBURSEMENT = {
  purpose: 'DISBURSEMENT',
  holder_name: 'First Builders Bank',
  aba_routing: '021000021',
  account_number: '4000123456',
  bic: 'CHASUS33',
  verification: verified,
};
export const LENDER_ESCROW = { ...LENDER_DISBURSEMENT, purpose: 'ESCROW', account_number: '4000998877' };
/** The GC's operating account (ABA 121000358). */
export const gcAccount = (gc: string, account_number = '7765432109') => ({
  purpose: 'PAYEE',
  entity_id: gc,
  holder_name: 'Keystone Builders, Inc.',
  aba_routing: '121000358',
  account_number,
  verification: { method: 'micro_deposit', verified_on: '2026-05-01' },
});

/** A project override: the GC must hold $1M of GL cover (DOMAIN §3 INSURANCE_EXPIRY). */
export const GL_REQUIRED = { required_coverages: [{ type: 'GL', min_limit: D(1_000_000) }] };

/** The GL certificate the journey's GC holds unless a spec says otherwise (valid through mid-2027). */
export const GC_INSURED_THROUGH = '2027-06-30';

/**
 * The project requires GL cover and the GC holds a certificate through `insuredThrough` (default
 * GC_INSURED_THROUGH; null = no certificate, for specs that record their own): a project with no
 * insurance evidence at all is not payable (issue 14: no data is not good news).
 */
export async function startJourney(
  opts: {
    now?: string;
    project?: Record<string, unknown>;
    draw?: Record<string, unknown>;
    insuredThrough?: string | null;
    /**
     * Record the draw as a ledger written before submission checked it holds it: its
     * `DrawSubmitted` appended as is, without the submission decider (a draw a later check refuses).
     */
    recordedUnchecked?: boolean;
  } = {},
): Promise<DrawJourney> {
  const svc = await startService({ now: opts.now ?? '2026-06-03T15:00:00Z' });
  const lender = await svc.key('First Builders Bank');
  const post = (path: string, body: unknown, key: IssuedKey = lender) =>
    request(svc.app)
      .post(path)
      .set({ Authorization: `Bearer ${key.key}` })
      .send(body as object);
  const created = async (path: string, body: unknown): Promise<string> => {
    const res = await post(path, body);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(201);
    return String(res.body.id);
  };
  const owner = await created('/api/entities', { legal_name: 'Harbor View Owner LLC', roles: ['owner'] });
  const gc = await created('/api/entities', {
    legal_name: 'Keystone Builders, Inc.',
    roles: ['general_contractor'],
    ein: '12-3456789',
  });
  const architect = await created('/api/entities', {
    legal_name: 'Lumen Architecture PLLC',
    roles: ['architect'],
  });
  // The lender's disbursement and escrow accounts and the GC's account, registered and verified a
  // month before (older than the payee-account window, docs/duties.md).
  const now = svc.clock.now();
  svc.clock.set('2026-05-01T15:00:00Z');
  const accounts = {
    disbursement: await created('/api/accounts', LENDER_DISBURSEMENT),
    escrow: await created('/api/accounts', LENDER_ESCROW),
    gc: await created('/api/accounts', gcAccount(gc)),
  };
  svc.clock.set(now);
  const projectId = await created(
    '/api/projects',
    projectBody({ borrower: owner, general_contractor: gc, architect }, { ...GL_REQUIRED, ...opts.project }),
  );
  const invoice = (number: string, amount: number, line: number) =>
    created(`/api/projects/${projectId}/documents`, { type: 'INVOICE', vendor: gc, number, amount, line });
  const invoices = [await invoice('KB-1001', D(100_000), 1), await invoice('KB-1002', D(50_000), 2)];
  const drawBody = firstDrawBody({ invoices, ...opts.draw });
  const drawId = opts.recordedUnchecked
    ? await appendDrawUnchecked(svc, lender, projectId, drawBody)
    : await created(`/api/projects/${projectId}/draws`, drawBody);

  const insuredThrough = opts.insuredThrough === undefined ? GC_INSURED_THROUGH : opts.insuredThrough;
  let enrolled: Awaited<ReturnType<DrawJourney['signers']>> | null = null;
  let notary: EnrolledSigner | null = null;
  const journey: DrawJourney = {
    svc,
    lender,
    projectId,
    drawId,
    gc,
    architect,
    accounts,
    async signers() {
      enrolled ??= {
        Contractor: await enrolledSigner(svc.app, lender, {
          name: 'Dana Keystone',
          capacity: 'Contractor',
          entity_id: gc,
        }),
        Architect: await enrolledSigner(svc.app, lender, {
          name: 'Ari Lumen',
          capacity: 'Architect',
          entity_id: architect,
        }),
        Lender: await enrolledSigner(svc.app, lender, { name: 'Lee Banker', capacity: 'Lender' }),
      };
      return enrolled;
    },
    post,
    created,
    async reinspect(line1Pct: number) {
      const inspector = await created('/api/entities', {
        legal_name: 'Second Look Inspections LLC',
        roles: ['inspector'],
      });
      await created(`/api/projects/${projectId}/documents`, {
        type: 'INSPECTION_REPORT',
        draw_id: drawId,
        inspector,
        inspected_on: '2026-06-03',
        lines: [
          { line: 1, percent_complete: line1Pct },
          { line: 2, percent_complete: 8.33 },
        ],
        stored_materials_verified: true,
      });
    },
    async accept(reason) {
      const approver = await svc.key('First Builders Bank', ['draws:approve']);
      const accepted = await post(`/api/draws/${drawId}/accept`, { reason }, approver);
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(201);
      return accepted;
    },
    async secondApplication({ invoices, draw = {}, inspected, waiverAmount }) {
      const invoiceIds: string[] = [];
      for (const [number, line, amount] of invoices)
        invoiceIds.push(
          await created(`/api/projects/${projectId}/documents`, {
            type: 'INVOICE',
            vendor: gc,
            number,
            amount,
            line,
          }),
        );
      svc.clock.set('2026-07-01T15:00:00Z');
      const second = await created(
        `/api/projects/${projectId}/draws`,
        firstDrawBody({
          application_no: 2,
          period_from: '2026-06-01',
          period_to: '2026-06-30',
          invoices: invoiceIds,
          ...draw,
        }),
      );
      const inspector = await created('/api/entities', {
        legal_name: 'July Inspections LLC',
        roles: ['inspector'],
      });
      await created(`/api/projects/${projectId}/documents`, {
        type: 'INSPECTION_REPORT',
        draw_id: second,
        inspector,
        inspected_on: '2026-07-01',
        lines: [
          { line: 1, percent_complete: inspected[0] },
          { line: 2, percent_complete: inspected[1] },
        ],
        stored_materials_verified: true,
      });
      await created(`/api/projects/${projectId}/documents`, {
        type: 'TITLE_DATE_DOWN',
        effective_on: '2026-07-01',
        new_liens: [],
      });
      const waiver = await created(`/api/projects/${projectId}/documents`, {
        type: 'LIEN_WAIVER',
        claimant: gc,
        draw_id: second,
        waiver_type: 'CONDITIONAL_PROGRESS',
        amount: waiverAmount,
        through_date: '2026-06-30',
        signed_on: '2026-07-01',
        executed: true,
      });
      return { drawId: second, waiver };
    },
    async fixDocuments({
      waiverAmount = D(135_000),
      inspectedLine1Pct = 25,
      inspectedLines,
      unsigned = false,
    } = {}) {
      const inspector = await created('/api/entities', {
        legal_name: 'Clearline Inspections LLC',
        roles: ['inspector'],
      });
      await created(`/api/projects/${projectId}/documents`, {
        type: 'INSPECTION_REPORT',
        draw_id: drawId,
        inspector,
        inspected_on: '2026-06-02',
        lines: inspectedLines ?? [
          { line: 1, percent_complete: inspectedLine1Pct },
          { line: 2, percent_complete: 8.33 },
        ],
        stored_materials_verified: true,
      });
      await created(`/api/projects/${projectId}/documents`, {
        type: 'TITLE_DATE_DOWN',
        effective_on: '2026-06-03',
        new_liens: [],
      });
      const waiver = await created(`/api/projects/${projectId}/documents`, {
        type: 'LIEN_WAIVER',
        claimant: gc,
        draw_id: drawId,
        waiver_type: 'CONDITIONAL_PROGRESS',
        amount: waiverAmount,
        through_date: '2026-05-31',
        signed_on: '2026-06-03',
        executed: true,
      });
      if (!unsigned) {
        const signed = await signWaiverAs(svc.app, lender, waiver, (await journey.signers()).Contractor);
        expect(signed.status, JSON.stringify(signed.body)).to.equal(201);
      }
      return waiver;
    },
    async signAll() {
      const signers = await journey.signers();
      for (const role of ['Contractor', 'Architect', 'Lender'] as const) {
        const res = await signDrawAs(svc.app, lender, drawId, role, signers[role]);
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
      }
    },
    async notary() {
      notary ??= await enrolledSigner(svc.app, lender, {
        name: 'Nora Public',
        capacity: 'Notary',
        commission: { number: 'CA-2299001', state: 'CA', expires_on: '2027-12-31' },
      });
      return notary;
    },
    async notarialAct(documentId, opts = {}) {
      const by = opts.notary ?? (await journey.notary());
      const shown = await request(svc.app)
        .get(`/api/signers/${by.id}`)
        .set({ Authorization: `Bearer ${lender.key}` });
      // A signer without a commission signs empty commission terms (the service refuses the act).
      const commission = (shown.body.commission ?? { number: '', state: '', expires_on: '' }) as {
        number: string;
        state: string;
        expires_on: string;
      };
      const document = await request(svc.app)
        .get(`/api/documents/${documentId}`)
        .set({ Authorization: `Bearer ${lender.key}` });
      const appeared = (await journey.signers()).Contractor;
      const terms = {
        notary_signer_id: by.id,
        notary_name: String(shown.body.name),
        commission_number: commission.number,
        commission_state: commission.state,
        commission_expires_on: commission.expires_on,
        act_type: 'acknowledgment' as const,
        act_date: opts.actDate ?? '2026-06-03',
        appeared_signer_id: appeared.id,
        document_id: documentId,
        // multi_hash.sha256: SHA-256 of the recorded document's canonical JSON, as GET answers it.
        document_sha256: await signingDigestHex(document.body as Record<string, unknown>),
      };
      return post('/api/notarization', {
        action: 'notarize',
        document_type: 'LIEN_WAIVER',
        document_id: documentId,
        jurisdiction: opts.jurisdiction ?? 'CA',
        act: {
          notary_signer_id: by.id,
          act_type: terms.act_type,
          act_date: terms.act_date,
          appeared_signer_id: appeared.id,
          signature: await notarialSignature(by, terms),
        },
      });
    },
    async notarize(documentId) {
      const res = await journey.notarialAct(documentId);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.status).to.equal('NOTARIAL_ACT');
    },
    compile: () => post('/api/dependency-graph', { action: 'compile_for_draw', project_id: projectId }),
    async recordLien() {
      await created(`/api/projects/${projectId}/documents`, {
        type: 'TITLE_DATE_DOWN',
        effective_on: '2026-06-03',
        new_liens: [{ claimant_name: 'Bayside Concrete Co.', amount: D(42_000), recorded_on: '2026-06-02' }],
      });
    },
    async insureGc(expiresOn) {
      await created(`/api/projects/${projectId}/documents`, {
        type: 'INSURANCE_CERTIFICATE',
        insured: gc,
        coverage_type: 'GL',
        limit: D(2_000_000),
        effective_on: '2026-01-01',
        expires_on: expiresOn,
        additional_insured: true,
      });
    },
    async readyToPay() {
      const waiver = await journey.fixDocuments();
      const compiled = await journey.compile();
      expect(compiled.status, JSON.stringify(compiled.body)).to.equal(201);
      expect(compiled.body.compilation.draw_verdict, JSON.stringify(compiled.body)).to.equal('FUNDABLE');
      await journey.signAll();
      await journey.notarize(waiver);
    },
  };
  if (insuredThrough !== null) await journey.insureGc(insuredThrough);
  return journey;
}

/**
 * Appends a draw's `DrawSubmitted` straight to the ledger, as the submission decider would record
 * it but without its checks: the draw a ledger recorded before a check was added still holds.
 */
async function appendDrawUnchecked(
  svc: TestService,
  lender: IssuedKey,
  project_id: string,
  body: Record<string, unknown>,
): Promise<string> {
  const eventId = randomUUID();
  const draw_id = idFromUuid('DRW-', eventId);
  const b = body as unknown as SubmitDrawBody;
  const event = projectsEvent('DrawSubmitted', eventId, drawStream(draw_id), {
    draw_id,
    project_id,
    application_no: b.application_no,
    period_from: b.period_from,
    period_to: b.period_to,
    submitted_on: svc.clock.now().toISOString().slice(0, 10),
    lines: b.lines,
    retainage_pct: b.retainage_pct,
    retainage_withheld: b.retainage_withheld ?? null,
    previous_certificates_total: b.previous_certificates_total ?? null,
    requested_amount: b.requested_amount,
    invoices: b.invoices,
  });
  await svc.composed.deps.ledger.append([event], {
    org_id: lender.org_id,
    actor: lender.key_id,
    request_id: 'req_unchecked_draw',
  });
  return draw_id;
}
