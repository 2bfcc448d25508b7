/**
 * payment_integrity (DOMAIN §5, weight 25): waivers delivered and matching payments, days from
 * funding to unconditional waiver, lien claims.
 *
 * Score = 100 − PI01 − PI02 − PI03, clamped to 0–100, where
 * - PI01 = 40 × weighted mean over funded draws it billed on of
 *          clamp((days from funding to its unconditional waiver − 15) / 45, 0, 1);
 *          a waiver still missing counts as late as it is so far (fully late past 60 days);
 * - PI02 = 30 × weighted share of its unconditional waivers that release less than was paid (GC)
 *          or carry exceptions;
 * - PI03 = Σ weight × 15 per lien claim recorded on a project it is GC of.
 */
import type { IsoDate, LienWaiver, Project } from '../../projects/facts.js';
import { LIEN_CLAIM_POINTS, WAIVER_FULLY_LATE_DAYS, WAIVER_ON_TIME_DAYS } from '../constants.js';
import { addDays, clamp, daysBetween } from '../dates.js';
import { billedOn, type Participation } from '../participation.js';
import { documentsOf, fundedDraws, makeSignal, type Signal, type SignalContext } from '../signals.js';

/** Adverse share of a waiver delivered `days` after funding. */
export function waiverLateShare(days: number): number {
  return clamp((days - WAIVER_ON_TIME_DAYS) / (WAIVER_FULLY_LATE_DAYS - WAIVER_ON_TIME_DAYS), 0, 1);
}

function isUnconditional(w: LienWaiver): boolean {
  return w.waiver_type === 'UNCONDITIONAL_PROGRESS' || w.waiver_type === 'UNCONDITIONAL_FINAL';
}

/**
 * The entity's executed unconditional waivers on a project, signed by today: of its own documents
 * there (a waiver is the entity's when it is the claimant), not every document of the project.
 */
function deliveredWaivers(ctx: SignalContext, p: Participation): (LienWaiver & { signed_on: IsoDate })[] {
  return p.documents.filter(
    (d): d is LienWaiver & { signed_on: IsoDate } =>
      d.type === 'LIEN_WAIVER' &&
      d.claimant === ctx.facts.entity_id &&
      isUnconditional(d) &&
      d.executed &&
      d.signed_on !== null &&
      d.signed_on <= ctx.today,
  );
}

function timelinessSignals(ctx: SignalContext, p: Participation): Signal[] {
  const { project } = p;
  const waivers = deliveredWaivers(ctx, p);
  const out: Signal[] = [];
  for (const draw of fundedDraws(ctx.facts.projects, project)) {
    if (draw.funded_on > ctx.today) continue;
    const mine = waivers
      .filter((w) => w.draw_id === draw.id)
      .sort((a, b) => a.signed_on.localeCompare(b.signed_on));
    const first = mine[0];
    const drawEvidence = { kind: 'draw', id: draw.id };
    if (first !== undefined) {
      const share = waiverLateShare(daysBetween(draw.funded_on, first.signed_on));
      const evidence = [drawEvidence, { kind: 'document', id: first.id }];
      out.push(makeSignal(ctx, 'PI01', 'share', share, first.signed_on, project.id, evidence));
      continue;
    }
    const overdue = daysBetween(draw.funded_on, ctx.today);
    if (!billedOn(project, draw, ctx.facts.entity_id) || overdue <= WAIVER_ON_TIME_DAYS) continue;
    const share = waiverLateShare(overdue);
    const on = share === 1 ? addDays(draw.funded_on, WAIVER_FULLY_LATE_DAYS) : ctx.today;
    out.push(makeSignal(ctx, 'PI01', 'share', share, on, project.id, [drawEvidence]));
  }
  return out;
}

function matchingSignals(ctx: SignalContext, p: Participation): Signal[] {
  const { project } = p;
  const isGc = project.general_contractor === ctx.facts.entity_id;
  const out: Signal[] = [];
  for (const waiver of deliveredWaivers(ctx, p)) {
    const draw = ctx.facts.projects.draws[waiver.draw_id];
    if (draw === undefined || draw.status !== 'FUNDED' || draw.funded_amount === null) continue;
    const short = isGc && waiver.amount < draw.funded_amount;
    const share = short || waiver.exceptions.length > 0 ? 1 : 0;
    const evidence = [
      { kind: 'document', id: waiver.id },
      { kind: 'draw', id: draw.id },
    ];
    out.push(makeSignal(ctx, 'PI02', 'share', share, waiver.signed_on, project.id, evidence));
  }
  return out;
}

/** Liens on the GC's projects, each once however many date-downs repeat it. */
function lienSignals(ctx: SignalContext, project: Project): Signal[] {
  const seen = new Set<string>();
  const out: Signal[] = [];
  for (const doc of documentsOf(ctx.facts.projects, project.id, 'TITLE_DATE_DOWN')) {
    if (doc.effective_on > ctx.today) continue;
    for (const lien of doc.new_liens) {
      const key = `${lien.claimant_name}|${lien.amount}|${lien.recorded_on}`;
      if (lien.claimant === ctx.facts.entity_id || lien.recorded_on > ctx.today || seen.has(key)) continue;
      seen.add(key);
      const evidence = [{ kind: 'document', id: doc.id }];
      out.push(makeSignal(ctx, 'PI03', 'points', LIEN_CLAIM_POINTS, lien.recorded_on, project.id, evidence));
    }
  }
  return out;
}

export function paymentIntegritySignals(ctx: SignalContext): Signal[] {
  return [
    ...ctx.participation.flatMap((p) => timelinessSignals(ctx, p)),
    ...ctx.participation.flatMap((p) => matchingSignals(ctx, p)),
    ...ctx.gc.flatMap((project) => lienSignals(ctx, project)),
  ];
}
