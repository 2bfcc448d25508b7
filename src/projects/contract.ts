/**
 * Request schemas for the ingestion API (SPEC §5) and the path/query parameters of its GET twins.
 * Every object is strict (unknown fields → 400 INVALID_REQUEST, SPEC §2). Referential rules that
 * need projected state (known SOV line, same-project document, chain role, known entity) are the
 * decider's; here only what a body says about itself.
 */
import { z } from 'zod';
import { nameText } from '../platform/http/validate.js';
import { COVERAGE_TYPES, WAIVER_TYPES } from './facts.js';
import { US_JURISDICTIONS } from './jurisdictions.js';
import { PROFILE_NAMES, SIGNER_ROLES } from './profiles.js';
import {
  cents,
  checkDateOrder,
  checkExactTotal,
  checkUnique,
  entityId,
  isoDate,
  lineNo,
  longText,
  percent,
  prefixedId,
  shortText,
  signedCents,
} from './contract-primitives.js';

export * from './contract-primitives.js';
export * from './contract-observations.js';
export * from './responses.js';

// ---------------------------------------------------------------------------------------------
// POST /api/projects
// ---------------------------------------------------------------------------------------------

export const SovLineBody = z.strictObject({
  line: lineNo,
  description: shortText,
  scheduled_value: cents,
  trade: shortText,
  subcontractor: entityId.optional(),
});

export const RequiredCoverageBody = z.strictObject({
  type: z.enum(COVERAGE_TYPES),
  min_limit: cents,
});

export const MilestoneBody = z.strictObject({
  name: shortText,
  due_on: isoDate,
  completed_on: isoDate.optional(),
});

/** Upper bound on SOV lines: a G703 with more rows is a data error, not a project. */
export const MAX_SOV_LINES = 500;

export const RegisterProjectBody = z
  .strictObject({
    name: shortText,
    profile: z.enum(PROFILE_NAMES).optional(),
    borrower: entityId,
    general_contractor: entityId,
    architect: entityId.optional(),
    inspector: entityId.optional(),
    jurisdiction: z.enum(US_JURISDICTIONS),
    loan_amount: cents,
    equity: cents,
    contract_sum: cents,
    /** Beyond SPEC §5's list (additive): DOMAIN §4 cashflow needs the contingency; default 0. */
    contingency: cents.optional(),
    retainage_pct: percent,
    interest_rate_pct: percent,
    start_date: isoDate,
    completion_date: isoDate,
    maturity_date: isoDate,
    sov: z.array(SovLineBody).min(1).max(MAX_SOV_LINES),
    required_coverages: z.array(RequiredCoverageBody).max(COVERAGE_TYPES.length),
    milestones: z.array(MilestoneBody).max(200).optional(),
  })
  .superRefine((body, ctx) => {
    checkUnique(ctx, body.sov, (l) => l.line, 'sov', 'line');
    checkExactTotal(
      ctx,
      body.sov.map((l) => l.scheduled_value),
      ['sov'],
      'the schedule of values',
    );
    checkExactTotal(
      ctx,
      [body.loan_amount, body.equity, body.contingency ?? 0],
      ['loan_amount'],
      'loan, equity and contingency',
    );
    checkUnique(ctx, body.required_coverages, (c) => c.type, 'required_coverages', 'type');
    checkUnique(ctx, body.milestones ?? [], (m) => m.name, 'milestones', 'name');
    checkDateOrder(ctx, body.start_date, body.completion_date, ['completion_date'], 'start_date');
    checkDateOrder(ctx, body.start_date, body.maturity_date, ['maturity_date'], 'start_date');
  });
export type RegisterProjectBody = z.infer<typeof RegisterProjectBody>;

// ---------------------------------------------------------------------------------------------
// POST /api/projects/:id/change-orders
// ---------------------------------------------------------------------------------------------

export const ChangeOrderLineBody = z.strictObject({ line: lineNo, delta: signedCents });

export const RecordChangeOrderBody = z
  .strictObject({
    number: nameText(64),
    /** Signed: a deductive change order lowers the contract sum. */
    amount: signedCents,
    lines: z.array(ChangeOrderLineBody).min(1).max(MAX_SOV_LINES),
    description: longText,
    executed_on: isoDate.optional(),
    lender_approved_on: isoDate.optional(),
    work_started_on: isoDate.optional(),
  })
  .superRefine((body, ctx) => checkUnique(ctx, body.lines, (l) => l.line, 'lines', 'line'));
export type RecordChangeOrderBody = z.infer<typeof RecordChangeOrderBody>;

// ---------------------------------------------------------------------------------------------
// POST /api/projects/:id/documents (a union on `type`, DOMAIN §1)
// ---------------------------------------------------------------------------------------------

export const WaiverExceptionBody = z.strictObject({ description: longText, amount: cents.optional() });

export const LienWaiverBody = z
  .strictObject({
    type: z.literal('LIEN_WAIVER'),
    claimant: entityId,
    draw_id: prefixedId('DRW-'),
    waiver_type: z.enum(WAIVER_TYPES),
    amount: cents,
    through_date: isoDate,
    signed_on: isoDate.optional(),
    executed: z.boolean(),
    exceptions: z.array(WaiverExceptionBody).max(50).optional(),
  })
  .superRefine((body, ctx) => {
    // An executed waiver is a signed one; the signing date feeds DOMAIN §3 WAIVER_SEQUENCE.
    if (body.executed && body.signed_on === undefined) {
      ctx.addIssue({ code: 'custom', path: ['signed_on'], message: 'an executed waiver needs signed_on' });
    }
  });

export const InsuranceCertificateBody = z
  .strictObject({
    type: z.literal('INSURANCE_CERTIFICATE'),
    insured: entityId,
    coverage_type: z.enum(COVERAGE_TYPES),
    limit: cents,
    effective_on: isoDate,
    expires_on: isoDate,
    additional_insured: z.boolean(),
  })
  .superRefine((b, ctx) => checkDateOrder(ctx, b.effective_on, b.expires_on, ['expires_on'], 'effective_on'));

export const InspectionLineBody = z.strictObject({ line: lineNo, percent_complete: percent });

export const InspectionReportBody = z
  .strictObject({
    type: z.literal('INSPECTION_REPORT'),
    draw_id: prefixedId('DRW-').optional(),
    inspector: entityId,
    inspected_on: isoDate,
    lines: z.array(InspectionLineBody).max(MAX_SOV_LINES),
    stored_materials_verified: z.boolean(),
  })
  .superRefine((b, ctx) => checkUnique(ctx, b.lines, (l) => l.line, 'lines', 'line'));

export const TitleLienBody = z.strictObject({
  claimant_name: shortText,
  claimant: entityId.optional(),
  amount: cents,
  recorded_on: isoDate,
});

export const TitleDateDownBody = z.strictObject({
  type: z.literal('TITLE_DATE_DOWN'),
  effective_on: isoDate,
  new_liens: z.array(TitleLienBody).max(100),
});

export const InvoiceBody = z.strictObject({
  type: z.literal('INVOICE'),
  vendor: entityId,
  number: nameText(64),
  amount: cents,
  line: lineNo,
  draw_id: prefixedId('DRW-').optional(),
});

export const BillOfSaleLineBody = z.strictObject({ line: lineNo, description: shortText, amount: cents });

export const BillOfSaleBody = z
  .strictObject({
    type: z.literal('BILL_OF_SALE'),
    vendor: entityId.optional(),
    draw_id: prefixedId('DRW-').optional(),
    lines: z.array(BillOfSaleLineBody).min(1).max(MAX_SOV_LINES),
    amount: cents,
    insured: z.boolean(),
  })
  .superRefine((b, ctx) => {
    checkUnique(ctx, b.lines, (l) => l.line, 'lines', 'line');
    // The per-line split is what DOMAIN §2 STORED_MATERIALS_UNSUPPORTED matches; a total that
    // disagrees with it would make "covering the amount" undecidable.
    const sum = b.lines.reduce((s, l) => s + l.amount, 0);
    if (sum !== b.amount) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: `amount ${b.amount} ≠ Σ lines ${sum}` });
    }
  });

export const RecordDocumentBody = z.discriminatedUnion('type', [
  LienWaiverBody,
  InsuranceCertificateBody,
  InspectionReportBody,
  TitleDateDownBody,
  InvoiceBody,
  BillOfSaleBody,
]);
export type RecordDocumentBody = z.infer<typeof RecordDocumentBody>;

// ---------------------------------------------------------------------------------------------
// POST /api/projects/:id/draws (AIA G702/G703)
// ---------------------------------------------------------------------------------------------

export const DrawLineBody = z.strictObject({
  line: lineNo,
  previous: cents,
  this_period: cents,
  stored_materials: cents,
});

export const SubmitDrawBody = z
  .strictObject({
    application_no: z.int().min(1).max(10_000),
    period_from: isoDate,
    period_to: isoDate,
    /** Beyond SPEC §5's list (additive): defaults to the day the ledger records the submission. */
    submitted_on: isoDate.optional(),
    lines: z.array(DrawLineBody).min(1).max(MAX_SOV_LINES),
    retainage_pct: percent,
    /** G702 line 5 as the contractor states it (additive); derived when absent. */
    retainage_withheld: cents.optional(),
    /** G702 line 7 as the contractor states it (additive); derived when absent. */
    previous_certificates_total: cents.optional(),
    invoices: z.array(prefixedId('INV-')).max(1000),
    requested_amount: cents,
  })
  .superRefine((b, ctx) => {
    checkUnique(ctx, b.lines, (l) => l.line, 'lines', 'line');
    checkUnique(ctx, b.invoices, (id) => id, 'invoices', null);
    checkDateOrder(ctx, b.period_from, b.period_to, ['period_to'], 'period_from');
  });
export type SubmitDrawBody = z.infer<typeof SubmitDrawBody>;

// ---------------------------------------------------------------------------------------------
// POST /api/draws/:id/signatures, POST /api/findings/:id/resolve
// ---------------------------------------------------------------------------------------------

/** A standard padded base64 Ed25519 signature (64 bytes). */
const ed25519Signature = z.string().regex(/^[A-Za-z0-9+/]{86}==$/, 'a base64 Ed25519 signature (64 bytes)');
const signerIdRef = z.string().regex(/^sgn_[a-z2-7]{16}$/, 'a signer id (sgn_…)');

/**
 * A signature by an enrolled signer over the draw's application (docs/duties.md), or the seed's
 * unsigned shape `{role, signer_name, signed_on}`, recorded as SELF_ATTESTED (never passes the gate).
 */
export const SignDrawBody = z.union([
  z.strictObject({
    /** Must also be in the project's profile chain (checked by the decider). */
    role: z.enum(SIGNER_ROLES),
    signer_id: signerIdRef,
    signature: ed25519Signature,
    signed_on: isoDate.optional(),
  }),
  z.strictObject({
    role: z.enum(SIGNER_ROLES),
    signer_name: shortText,
    signed_on: isoDate,
  }),
]);
export type SignDrawBody = z.infer<typeof SignDrawBody>;

/** A claimant's signer executing a lien waiver: Ed25519 over the waiver's signing bytes. */
export const SignDocumentBody = z.strictObject({
  signer_id: signerIdRef,
  signature: ed25519Signature,
  signed_on: isoDate.optional(),
});
export type SignDocumentBody = z.infer<typeof SignDocumentBody>;

export const ResolveFindingBody = z.strictObject({
  resolution: longText,
  resolved_on: isoDate,
  evidence_document_id: z
    .string()
    .regex(/^(WAIV|COI|INSP|TTL|INV|BOS)-[a-z2-7]{16}$/, 'expected a document id')
    .optional(),
});
export type ResolveFindingBody = z.infer<typeof ResolveFindingBody>;
