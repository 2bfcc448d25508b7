/**
 * Layer 6 `draw_verdict` (DOMAIN §9): what the lender may do with the draw.
 *
 * Order of the rules, and why:
 * 1. NOT_FUNDABLE on exclusion, PRAL DENY or out of balance — no document cures these.
 * 2. No BLOCKING finding → FUNDABLE, or FUNDABLE_WITH_CONDITIONS when WARNINGs are open.
 * 3. Only INSPECTION_VARIANCE is BLOCKING → REDUCED: fundable at the inspected amounts.
 * 4. The other BLOCKING findings are all curable by documents → HOLD until they arrive.
 * 5. Otherwise NOT_FUNDABLE: a BLOCKING finding no document can cure (a duplicate invoice, a
 *    broken pay-period sequence) means the application itself must be revised and resubmitted;
 *    holding it for documents would never clear it. (Interpretation: §9 lists exclusion, DENY
 *    and out of balance; these are the same kind of defect.)
 */
import type { Cents, Document, Draw, InspectionReport } from '../../projects/facts.js';
import type { Finding } from '../findings.js';
import { fired, need, type Engine } from './engine.js';
import type {
  DrawCompileInput,
  DrawEvidence,
  DrawVerdict,
  DrawVerdictEvidence,
  PralVerdict,
} from './evidence.js';
import { ALL_FINDING_EVIDENCE, openFindingsForDraw } from './open-findings.js';

export interface VerdictFacts {
  draw: Draw;
  documents: readonly Document[];
  /** Findings open for this draw (see open-findings.ts). */
  open: readonly Finding[];
  pral: PralVerdict;
  in_balance: boolean;
}

export function decideDrawVerdict(facts: VerdictFacts): DrawVerdictEvidence {
  const { draw, open, pral, in_balance } = facts;
  const blocking = open.filter((f) => f.severity === 'BLOCKING');
  const warnings = open.length - blocking.length;
  const verdict = (
    draw_verdict: DrawVerdict,
    reasons: string[],
    fundable_amount: Cents,
  ): DrawVerdictEvidence => ({
    draw_verdict,
    reasons,
    open_blocking: blocking.length,
    open_warning: warnings,
    requested_amount: draw.requested_amount,
    fundable_amount,
  });

  const unfundable = [
    pral.excluded ? 'GC has an active registry exclusion' : pral.pral === 'DENY' ? 'PRAL is DENY' : '',
    in_balance ? '' : 'project is out of balance',
  ].filter((r) => r !== '');
  if (unfundable.length > 0) return verdict('NOT_FUNDABLE', unfundable, 0);

  if (blocking.length === 0) {
    // What a payment pays (docs/payments.md): G702 line 8, never the figure the application requested.
    const due = Math.max(0, draw.summary.current_payment_due);
    if (warnings === 0) return verdict('FUNDABLE', [], due);
    return verdict('FUNDABLE_WITH_CONDITIONS', codes('WARNING', open), due);
  }
  const others = blocking.filter((f) => f.code !== 'INSPECTION_VARIANCE');
  if (others.length === 0) {
    const amount = reducedAmount(draw, facts.documents, blocking);
    return verdict(
      'REDUCED',
      [`fundable at inspected amounts: ${amount} of ${draw.summary.current_payment_due}`],
      amount,
    );
  }
  const incurable = others.filter((f) => !f.curable_by_documents);
  if (incurable.length === 0) return verdict('HOLD', codes('BLOCKING', others), 0);
  return verdict('NOT_FUNDABLE', codes('BLOCKING (no document cures)', incurable), 0);
}

function codes(label: string, findings: readonly Finding[]): string[] {
  return [...new Set(findings.map((f) => f.code))].map((code) => `${label}: ${code}`);
}

/**
 * The REDUCED amount (DOMAIN §9 "fundable at the inspected amounts"): on every line an open
 * BLOCKING INSPECTION_VARIANCE names, completed work is cut to the inspected % × C of the report
 * that finding was measured on (its evidence); the cut, net of the draw's retainage, comes off
 * G702 line 8 (current payment due: what a payment pays, docs/payments.md) — never off the
 * requested figure, which the application states freely: a request above line 8 must not lift
 * what is paid. Lines without such a finding keep their claim: within tolerance, only a WARNING,
 * or explicitly resolved. The cut follows the findings rather than measuring the variance again,
 * so it never disagrees with them — it did, twice: a site report after the period (the latest
 * inspection, which raised the finding) was passed over for an earlier report naming the draw
 * that saw no variance, so a REDUCED draw's amount was its whole line 8; and a line inspected
 * 10.004 points short (a WARNING in hundredths) was cut beside the BLOCKING one. Rounding: each
 * line's inspected value and the retainage on the cut are rounded half-up to whole cents.
 */
export function reducedAmount(draw: Draw, documents: readonly Document[], open: readonly Finding[]): Cents {
  const due = draw.summary.current_payment_due;
  let cut = 0;
  for (const finding of open) {
    if (finding.code !== 'INSPECTION_VARIANCE' || finding.severity !== 'BLOCKING') continue;
    const lineNo = Number(finding.evidence.find((e) => e.kind === 'sov_line')?.id);
    const reportId = finding.evidence.find((e) => e.kind === 'document')?.id;
    const report = documents.find(
      (d): d is InspectionReport => d.type === 'INSPECTION_REPORT' && d.id === reportId,
    );
    const inspected = report?.lines.find((l) => l.line === lineNo);
    const line = draw.lines.find((l) => l.line === lineNo);
    if (inspected === undefined || line === undefined) continue;
    const allowed = Math.round((inspected.percent_complete * line.scheduled_value) / 100);
    cut += Math.max(0, line.completed_and_stored - allowed);
  }
  const netCut = cut - Math.round((cut * draw.retainage_pct) / 100);
  return Math.max(0, due - netCut);
}

export const drawVerdictEngine: Engine<DrawCompileInput<unknown, unknown>, DrawEvidence> = {
  name: 'draw_verdict',
  inputs: [...ALL_FINDING_EVIDENCE, 'pral_verdict', 'adequacy_vector', 'in_balance'],
  outputs: ['draw_verdict', 'provenance'],
  run({ input, evidence }) {
    const open = openFindingsForDraw(input, evidence);
    const verdict = decideDrawVerdict({
      draw: input.draw,
      documents: input.documents,
      open,
      pral: need(evidence, 'pral_verdict'),
      in_balance: need(evidence, 'in_balance'),
    });
    const provenance = {
      draw_id: input.draw.id,
      project_id: input.project.id,
      draw_last_fact_seq: input.draw.last_fact_seq,
      project_last_fact_seq: input.project.last_fact_seq,
      finding_ids: open.map((f) => f.id),
    };
    return fired({ draw_verdict: verdict, provenance }, verdict.draw_verdict);
  },
};
