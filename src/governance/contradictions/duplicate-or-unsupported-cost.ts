/**
 * DUPLICATE_OR_UNSUPPORTED_COST (DOMAIN §2): a cost billed twice, or a request invoices do not
 * support. The same vendor + invoice number billed in an earlier draw → BLOCKING; Σ invoices
 * < 90 % of the amount requested this period → WARNING.
 *
 * Interpretations:
 * - "billed in a draw" = listed in the draw's `invoices`. Earlier = an active draw recorded before
 *   (a REJECTED draw billed nothing). Invoice numbers compare trimmed and case-insensitively
 *   ("inv-7" and "INV-7 " are one invoice). A repeat within the same draw is not "an earlier
 *   draw" and is left to the support test, which counts it once. One BLOCKING finding per
 *   duplicated invoice document, attributed to its vendor; not curable by documents (the draw
 *   must drop the cost).
 * - "amount requested this period" = the draw's `requested_amount`; support = Σ amounts of the
 *   draw's invoices that are on file and not duplicates, each vendor + number once. Exactly 90 %
 *   passes. Curable by documents (more invoices). Attributed to the GC.
 * - A request the application's own G702 does not support (issue 14): `requested_amount` ≠ line 8
 *   (current payment due) → WARNING, attributed to the GC, not curable by documents (the
 *   application must be corrected). The payment push never pays the requested figure anyway: it
 *   pays line 8 (or a REDUCED amount), so this tells the lender the two disagree.
 */
import type { Draw, Invoice } from '../../projects/facts.js';
import type { FindingDraft } from '../findings.js';
import { INVOICE_SUPPORT_MIN_PCT } from '../constants.js';
import type { ScanEngine, ScanInput } from '../scan-input.js';
import {
  activeDraws,
  documentEvidence,
  documentsOfType,
  drawEvidence,
  drawsBefore,
  findingsOf,
} from '../scan-input.js';
import { sum, usd } from '../units.js';

export const duplicateOrUnsupportedCost: ScanEngine = (input, now) =>
  findingsOf(
    input,
    now,
    activeDraws(input).flatMap((d) => drawDrafts(input, d)),
  );

const invoiceKey = (i: Invoice): string => `${i.vendor}|${i.number.trim().toUpperCase()}`;

function invoicesOf(input: ScanInput, draw: Draw): Invoice[] {
  const byId = new Map(documentsOfType(input, 'INVOICE').map((i) => [i.id, i]));
  return draw.invoices.map((id) => byId.get(id)).filter((i): i is Invoice => i !== undefined);
}

function drawDrafts(input: ScanInput, draw: Draw): (FindingDraft | null)[] {
  const earlier = new Map<string, Draw>();
  for (const d of drawsBefore(input, draw)) {
    for (const i of invoicesOf(input, d)) if (!earlier.has(invoiceKey(i))) earlier.set(invoiceKey(i), d);
  }
  const invoices = invoicesOf(input, draw);
  const duplicates = invoices.filter((i) => earlier.has(invoiceKey(i)));
  // Each vendor invoice supports the request once: the same number uploaded twice and listed twice
  // in this draw is one invoice, not two.
  const supporting = new Map<string, Invoice>();
  for (const i of invoices)
    if (!earlier.has(invoiceKey(i)) && !supporting.has(invoiceKey(i))) supporting.set(invoiceKey(i), i);
  const support = sum([...supporting.values()].map((i) => i.amount));
  return [
    ...duplicates.map((i) => duplicateDraft(draw, i, earlier.get(invoiceKey(i))!)),
    supportDraft(input, draw, support),
    lineEightDraft(input, draw),
  ];
}

function lineEightDraft(input: ScanInput, draw: Draw): FindingDraft | null {
  const due = draw.summary.current_payment_due;
  if (draw.requested_amount === due) return null;
  return {
    code: 'DUPLICATE_OR_UNSUPPORTED_COST',
    severity: 'WARNING',
    draw_id: draw.id,
    entity_id: input.project.general_contractor,
    subject: 'line8',
    title: `Application ${draw.application_no}: the request disagrees with G702 line 8`,
    detail: `Requested ${usd(draw.requested_amount)}; line 8 (current payment due) is ${usd(due)}, which is what a payment pays.`,
    evidence: [drawEvidence(draw)],
    curable_by_documents: false,
  };
}

function duplicateDraft(draw: Draw, invoice: Invoice, first: Draw): FindingDraft {
  return {
    code: 'DUPLICATE_OR_UNSUPPORTED_COST',
    severity: 'BLOCKING',
    draw_id: draw.id,
    entity_id: invoice.vendor,
    subject: `duplicate:${invoice.id}`,
    title: `Application ${draw.application_no}: invoice ${invoice.number} was already billed`,
    detail: `Invoice ${invoice.number} (${usd(invoice.amount)}) of this vendor was billed in application ${first.application_no}.`,
    evidence: [drawEvidence(draw), documentEvidence(invoice), drawEvidence(first)],
    curable_by_documents: false,
  };
}

function supportDraft(input: ScanInput, draw: Draw, support: number): FindingDraft | null {
  if (support * 100 >= INVOICE_SUPPORT_MIN_PCT * draw.requested_amount) return null;
  return {
    code: 'DUPLICATE_OR_UNSUPPORTED_COST',
    severity: 'WARNING',
    draw_id: draw.id,
    entity_id: input.project.general_contractor,
    subject: 'support',
    title: `Application ${draw.application_no}: invoices do not support the request`,
    detail: `Invoices ${usd(support)} are below ${INVOICE_SUPPORT_MIN_PCT}% of the ${usd(draw.requested_amount)} requested.`,
    evidence: [drawEvidence(draw), ...invoicesOf(input, draw).map(documentEvidence)],
    curable_by_documents: true,
  };
}
