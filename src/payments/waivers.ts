/**
 * Which lien waivers a draw requires before its money moves (SPEC §6 gate "every lien waiver the
 * draw requires is executed"). DOMAIN names the waivers but not who must give them; here:
 * - a draw's claimants are the GC plus the subcontractor of every SOV line billed in it (this
 *   period or stored materials > 0) — whoever this payment pays, directly or through the GC;
 * - the draw requires a CONDITIONAL waiver (progress or final) from each of its own claimants,
 *   effective once paid, and an UNCONDITIONAL one from each claimant of the previous funded draw,
 *   proving that money reached them (DOMAIN §2 LIEN_WAIVER_MISMATCH reads the same pair).
 */
import type { Document, Draw, EntityId, LienWaiver, Project, WaiverType } from '../projects/facts.js';

export type WaiverKind = 'CONDITIONAL' | 'UNCONDITIONAL';

export interface WaiverRequirement {
  kind: WaiverKind;
  claimant: EntityId;
  /** The draw whose payment the waiver releases. */
  draw_id: string;
}

export interface WaiverCheck {
  requirement: WaiverRequirement;
  /** The executed waiver meeting it, else a recorded unexecuted one, else null (missing). */
  waiver: LienWaiver | null;
  /** Whether `waiver` is executed (signed by a signer of its claimant, docs/duties.md). */
  executed: boolean;
}

const KIND_OF: Readonly<Record<WaiverType, WaiverKind>> = {
  CONDITIONAL_PROGRESS: 'CONDITIONAL',
  CONDITIONAL_FINAL: 'CONDITIONAL',
  UNCONDITIONAL_PROGRESS: 'UNCONDITIONAL',
  UNCONDITIONAL_FINAL: 'UNCONDITIONAL',
};

/** The GC first, then subcontractors in SOV order, each once. */
export function claimantsOf(project: Project, draw: Draw): EntityId[] {
  const billed = new Set(draw.lines.filter((l) => l.this_period + l.stored_materials > 0).map((l) => l.line));
  const subs = project.sov.flatMap((l) =>
    billed.has(l.line) && l.subcontractor !== null ? [l.subcontractor] : [],
  );
  return [...new Set([project.general_contractor, ...subs])];
}

/** The latest FUNDED draw of the project with an earlier application number. */
export function previousFundedDraw(draw: Draw, draws: readonly Draw[]): Draw | null {
  return draws
    .filter(
      (d) =>
        d.project_id === draw.project_id && d.status === 'FUNDED' && d.application_no < draw.application_no,
    )
    .reduce<Draw | null>(
      (best, d) => (best === null || d.application_no > best.application_no ? d : best),
      null,
    );
}

export function requiredWaivers(project: Project, draw: Draw, draws: readonly Draw[]): WaiverRequirement[] {
  const previous = previousFundedDraw(draw, draws);
  const own = claimantsOf(project, draw).map((claimant) => ({
    kind: 'CONDITIONAL' as const,
    claimant,
    draw_id: draw.id,
  }));
  const released =
    previous === null
      ? []
      : claimantsOf(project, previous).map((claimant) => ({
          kind: 'UNCONDITIONAL' as const,
          claimant,
          draw_id: previous.id,
        }));
  return [...own, ...released];
}

/**
 * `executed` decides whether a recorded waiver is executed; the gate passes `isExecutedBySignature`
 * (src/payments/gates.ts) — the `executed` boolean an uploader states is never enough.
 *
 * Only the waivers that stand count, as DOMAIN §2 LIEN_WAIVER_MISMATCH reads them: the latest per
 * claimant, draw and waiver type (a corrected waiver supersedes the earlier one). For an
 * UNCONDITIONAL requirement the waiver the scan measures against the amount paid — the latest of
 * them stated executed — is the one that must be executed: counting any signed one let a release
 * of $10,000 the GC signed stand for a $135,000 payment while the scan read a later upload of
 * $135,000 nobody signed, and application 2 was paid.
 */
export function checkWaivers(
  requirements: readonly WaiverRequirement[],
  documents: readonly Document[],
  executed: (waiver: LienWaiver) => boolean,
): WaiverCheck[] {
  const waivers = documents
    .filter((d): d is LienWaiver => d.type === 'LIEN_WAIVER')
    .sort((a, b) => a.recorded_seq - b.recorded_seq);
  return requirements.map((requirement) => {
    const standing = new Map<WaiverType, LienWaiver>();
    for (const w of waivers)
      if (
        w.claimant === requirement.claimant &&
        w.draw_id === requirement.draw_id &&
        KIND_OF[w.waiver_type] === requirement.kind
      )
        standing.set(w.waiver_type, w);
    const candidates = [...standing.values()].sort((a, b) => a.recorded_seq - b.recorded_seq);
    if (requirement.kind === 'UNCONDITIONAL') {
      const relied = candidates.filter((w) => w.executed).at(-1) ?? candidates.at(-1) ?? null;
      return { requirement, waiver: relied, executed: relied !== null && executed(relied) };
    }
    const done = candidates.find(executed);
    return { requirement, waiver: done ?? candidates[0] ?? null, executed: done !== undefined };
  });
}
