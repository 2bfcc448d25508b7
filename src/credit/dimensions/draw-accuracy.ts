/**
 * draw_accuracy (DOMAIN §5, weight 20): contradiction findings per draw, inspection variance,
 * duplicate costs.
 *
 * Score = 100 − DA01 − DA02 − DA03, clamped to 0–100, where
 * - DA01 = 40 × weighted mean over its draws of min(1, Σ contradiction findings on the draw
 *          attributed to it, BLOCKING 1 / WARNING 0.3); a clean draw counts 0, so accuracy is a rate;
 * - DA02 = 30 × weighted mean over inspected draws of clamp((max line variance − 5) / 10, 0, 1);
 * - DA03 = 40 × weighted share of the invoices it billed that were billed in an earlier draw.
 */
import type { FindingRecord } from '../../governance/findings.js';
import type { Draw, InspectionReport, Project } from '../../projects/facts.js';
import {
  FINDING_SEVERITY_SHARE,
  INSPECTION_VARIANCE_FREE_POINTS,
  INSPECTION_VARIANCE_FULL_POINTS,
} from '../constants.js';
import { clamp } from '../dates.js';
import { measuredFromFacts } from '../reason-codes.js';
import { documentsOf, drawsOf, makeSignal, type Signal, type SignalContext } from '../signals.js';

/** Adverse share of a draw's largest claimed-minus-inspected variance, in points. */
export function varianceShare(points: number): number {
  const span = INSPECTION_VARIANCE_FULL_POINTS - INSPECTION_VARIANCE_FREE_POINTS;
  return clamp((points - INSPECTION_VARIANCE_FREE_POINTS) / span, 0, 1);
}

function findingsShare(findings: readonly FindingRecord[]): number {
  return Math.min(
    1,
    findings.reduce((sum, f) => sum + FINDING_SEVERITY_SHARE[f.severity], 0),
  );
}

function contradictionSignals(ctx: SignalContext): Signal[] {
  const counted = ctx.findings.filter((f) => f.category === 'contradiction' && !measuredFromFacts(f));
  const byDraw = new Map<string, FindingRecord[]>();
  const out: Signal[] = [];
  for (const f of counted) {
    if (f.draw_id === null) {
      const evidence = [{ kind: 'finding', id: f.id }];
      out.push(makeSignal(ctx, 'DA01', 'share', findingsShare([f]), f.opened_on, f.project_id, evidence));
    } else byDraw.set(f.draw_id, [...(byDraw.get(f.draw_id) ?? []), f]);
  }
  const ownDraws = ctx.gc
    .flatMap((p) => drawsOf(ctx.facts.projects, p.id))
    .filter((d) => d.submitted_on <= ctx.today);
  const drawIds = new Set([...ownDraws.map((d) => d.id), ...byDraw.keys()]);
  for (const drawId of [...drawIds].sort()) {
    const findings = byDraw.get(drawId) ?? [];
    const draw: Draw | undefined = ctx.facts.projects.draws[drawId];
    const on = draw?.submitted_on ?? findings.map((f) => f.opened_on).sort()[0]!;
    const projectId = draw?.project_id ?? findings[0]!.project_id;
    const evidence = [{ kind: 'draw', id: drawId }, ...findings.map((f) => ({ kind: 'finding', id: f.id }))];
    out.push(makeSignal(ctx, 'DA01', 'share', findingsShare(findings), on, projectId, evidence));
  }
  return out;
}

/** The latest inspection of a draw known by today. */
function inspectionOf(ctx: SignalContext, project: Project, draw: Draw): InspectionReport | undefined {
  return documentsOf(ctx.facts.projects, project.id, 'INSPECTION_REPORT')
    .filter((d) => d.draw_id === draw.id)
    .filter((d) => d.inspected_on <= ctx.today)
    .sort((a, b) => b.inspected_on.localeCompare(a.inspected_on) || b.recorded_seq - a.recorded_seq)[0];
}

function varianceSignals(ctx: SignalContext, project: Project): Signal[] {
  const out: Signal[] = [];
  for (const draw of drawsOf(ctx.facts.projects, project.id)) {
    const inspection = inspectionOf(ctx, project, draw);
    if (inspection === undefined) continue;
    const inspected = new Map(inspection.lines.map((l) => [l.line, l.percent_complete]));
    const variances = draw.lines
      .filter((l) => inspected.has(l.line))
      .map((l) => l.percent_complete - inspected.get(l.line)!);
    if (variances.length === 0) continue;
    const evidence = [
      { kind: 'draw', id: draw.id },
      { kind: 'document', id: inspection.id },
    ];
    const share = varianceShare(Math.max(...variances));
    out.push(makeSignal(ctx, 'DA02', 'share', share, inspection.inspected_on, project.id, evidence));
  }
  return out;
}

/**
 * Invoices billed on the project's draws, in application order, flagged when billed before. A
 * duplicate is the same vendor and number, so what the entity answers for on a project it is not
 * GC of — its own invoices — is judged by its own invoices alone (`own`: their ids), and no other
 * vendor's invoice is read.
 */
function duplicateSignals(ctx: SignalContext, project: Project, own: ReadonlySet<string>): Signal[] {
  const isGc = project.general_contractor === ctx.facts.entity_id;
  const billedBefore = new Set<string>();
  const out: Signal[] = [];
  for (const draw of drawsOf(ctx.facts.projects, project.id)) {
    if (draw.submitted_on > ctx.today) continue;
    const keys: string[] = [];
    for (const invoiceId of [...new Set(draw.invoices)]) {
      if (!isGc && !own.has(invoiceId)) continue;
      const invoice = ctx.facts.projects.documents[invoiceId];
      if (invoice?.type !== 'INVOICE') continue;
      const key = `${invoice.vendor}|${invoice.number}`;
      keys.push(key);
      if (!isGc && invoice.vendor !== ctx.facts.entity_id) continue;
      const evidence = [
        { kind: 'document', id: invoice.id },
        { kind: 'draw', id: draw.id },
      ];
      const share = billedBefore.has(key) ? 1 : 0;
      out.push(makeSignal(ctx, 'DA03', 'share', share, draw.submitted_on, project.id, evidence));
    }
    for (const key of keys) billedBefore.add(key);
  }
  return out;
}

export function drawAccuracySignals(ctx: SignalContext): Signal[] {
  const own = new Set(
    ctx.participation.flatMap((p) => p.documents.filter((d) => d.type === 'INVOICE').map((d) => d.id)),
  );
  return [
    ...contradictionSignals(ctx),
    ...ctx.gc.flatMap((project) => varianceSignals(ctx, project)),
    ...ctx.participation.flatMap((p) => duplicateSignals(ctx, p.project, own)),
  ];
}
