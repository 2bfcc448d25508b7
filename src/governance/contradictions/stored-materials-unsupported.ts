/**
 * STORED_MATERIALS_UNSUPPORTED (DOMAIN §2, BLOCKING): stored materials billed on a line without a
 * bill of sale covering the amount, or not insured.
 *
 * Interpretations:
 * - Bills of sale that count for a draw: those naming it, and those naming no draw. One naming
 *   another draw supports that draw only (otherwise the same materials would cover two draws).
 * - A line is covered when Σ amounts of the *insured* bills' lines for it ≥ column F; uninsured
 *   bills are reported but do not cover.
 * - One finding per line (subject `line:<n>`), curable by documents (a bill of sale, insurance).
 */
import type { BillOfSale, Draw } from '../../projects/facts.js';
import type { FindingDraft } from '../findings.js';
import type { ScanEngine, ScanInput } from '../scan-input.js';
import {
  activeDraws,
  documentEvidence,
  documentsOfType,
  drawEvidence,
  findingsOf,
  lineEvidence,
} from '../scan-input.js';
import { sum, usd } from '../units.js';

export const storedMaterialsUnsupported: ScanEngine = (input, now) =>
  findingsOf(
    input,
    now,
    activeDraws(input).flatMap((d) => drawDrafts(input, d)),
  );

function drawDrafts(input: ScanInput, draw: Draw): FindingDraft[] {
  const bills = documentsOfType(input, 'BILL_OF_SALE').filter(
    (b) => b.draw_id === null || b.draw_id === draw.id,
  );
  const drafts: FindingDraft[] = [];
  for (const line of draw.lines) {
    if (line.stored_materials <= 0) continue;
    const onLine = bills.filter((b) => b.lines.some((l) => l.line === line.line));
    const amountOn = (b: BillOfSale): number =>
      sum(b.lines.filter((l) => l.line === line.line).map((l) => l.amount));
    const insured = sum(onLine.filter((b) => b.insured).map(amountOn));
    if (insured >= line.stored_materials) continue;
    const uninsured = sum(onLine.filter((b) => !b.insured).map(amountOn));
    drafts.push({
      code: 'STORED_MATERIALS_UNSUPPORTED',
      severity: 'BLOCKING',
      draw_id: draw.id,
      entity_id: input.project.general_contractor,
      subject: `line:${line.line}`,
      title: `Application ${draw.application_no}, line ${line.line}: stored materials not supported`,
      detail:
        `Stored ${usd(line.stored_materials)}; insured bills of sale cover ${usd(insured)}` +
        (uninsured > 0 ? `, uninsured bills a further ${usd(uninsured)}.` : '.'),
      evidence: [drawEvidence(draw), lineEvidence(line.line), ...onLine.map(documentEvidence)],
      curable_by_documents: true,
    });
  }
  return drafts;
}
