/**
 * INSPECTION_VARIANCE (DOMAIN §2): the contractor claims more progress on a line than the
 * inspector saw. Claimed H − inspected % > 5 points → WARNING, > 10 points → BLOCKING.
 *
 * Interpretations:
 * - Each line is compared with the latest inspection (by inspection date) that belongs to the
 *   draw (`inspectionsOf`: reports naming it, and site reports after its period end and before the
 *   next draw's) and covers that line — newer eyes on that line win. A later report that does not
 *   cover a line says nothing about it, so what an earlier report saw there stands: taking the
 *   latest report whole let a visit reporting line 2 alone erase line 1's BLOCKING variance, and
 *   the draw, REDUCED to $81,000, was paid its whole $135,000. No inspection → no variance finding
 *   (INSPECTION_FRESHNESS reports the missing inspection); a line no report covers is not
 *   compared.
 * - Only over-claims count (H above the inspector); under-claiming is not a contradiction.
 * - Compared in hundredths of a point, H being rounded to 2 decimals: 5.00 does not fire, 5.01 does.
 * - One finding per line (subject `line:<n>`), so its severity follows that line alone; a newer
 *   inspection that agrees resolves it on re-scan (curable by documents).
 * - Attributed to the GC, who certifies the application's percentages.
 */
import type { Draw, InspectionReport } from '../../projects/facts.js';
import type { FindingDraft, Severity } from '../findings.js';
import { INSPECTION_VARIANCE_BLOCKING_POINTS, INSPECTION_VARIANCE_WARNING_POINTS } from '../constants.js';
import type { ScanEngine, ScanInput } from '../scan-input.js';
import {
  activeDraws,
  documentEvidence,
  drawEvidence,
  findingsOf,
  inspectionsOf,
  lineEvidence,
} from '../scan-input.js';

export const inspectionVariance: ScanEngine = (input, now) =>
  findingsOf(
    input,
    now,
    activeDraws(input).flatMap((d) => drawDrafts(input, d)),
  );

/** Variance in hundredths of a point → severity, or null within tolerance. */
export function varianceSeverity(hundredths: number): Severity | null {
  if (hundredths > INSPECTION_VARIANCE_BLOCKING_POINTS * 100) return 'BLOCKING';
  if (hundredths > INSPECTION_VARIANCE_WARNING_POINTS * 100) return 'WARNING';
  return null;
}

function drawDrafts(input: ScanInput, draw: Draw): FindingDraft[] {
  const reports = inspectionsOf(input, draw);
  const drafts: FindingDraft[] = [];
  for (const line of draw.lines) {
    const report = reports.find((r) => r.lines.some((l) => l.line === line.line));
    const seen = report?.lines.find((l) => l.line === line.line)?.percent_complete;
    if (report === undefined || seen === undefined) continue;
    const hundredths = Math.round(line.percent_complete * 100) - Math.round(seen * 100);
    const severity = varianceSeverity(hundredths);
    if (severity !== null)
      drafts.push(lineDraft(input, draw, report, line.line, severity, line.percent_complete, seen));
  }
  return drafts;
}

function lineDraft(
  input: ScanInput,
  draw: Draw,
  report: InspectionReport,
  line: number,
  severity: Severity,
  claimed: number,
  seen: number,
): FindingDraft {
  const points = (Math.round(claimed * 100) - Math.round(seen * 100)) / 100;
  return {
    code: 'INSPECTION_VARIANCE',
    severity,
    draw_id: draw.id,
    entity_id: input.project.general_contractor,
    subject: `line:${line}`,
    title: `Application ${draw.application_no}, line ${line}: claimed progress exceeds the inspection`,
    detail: `Claimed ${claimed}% vs inspected ${seen}% on ${report.inspected_on} (${points} points).`,
    evidence: [drawEvidence(draw), documentEvidence(report), lineEvidence(line)],
    curable_by_documents: true,
  };
}
