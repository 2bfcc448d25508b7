/**
 * Which of the compile's findings are open, decided once for layers 4–6. Open = found by a layer
 * 2–3 engine, one per id (a rule reaching one condition by two paths names it once, as the scan
 * does), and not explicitly resolved (DOMAIN §3). For the draw: its own findings plus
 * project-wide ones (draw_id null — an expired policy or a contract-sum error stops every draw).
 */
import {
  CONTRADICTION_CODES,
  TEMPORAL_CODES,
  resolutionCovers,
  type Finding,
  type FindingCode,
} from '../findings.js';
import type { EvidenceName } from './engine.js';
import { findingEvidence, type DrawCompileInput, type DrawEvidence } from './evidence.js';

export const ALL_FINDING_CODES: readonly FindingCode[] = [...CONTRADICTION_CODES, ...TEMPORAL_CODES];

/** Every layer 2–3 output, for engines that read the whole finding set. */
export const ALL_FINDING_EVIDENCE: readonly EvidenceName<DrawEvidence>[] =
  ALL_FINDING_CODES.map(findingEvidence);

type Scope = Pick<DrawCompileInput<unknown, unknown>, 'draw' | 'resolutions'>;

/** The project's open findings, every draw's (DOMAIN §4 adequacy is a project measure). */
export function openProjectFindings(input: Scope, evidence: Readonly<Partial<DrawEvidence>>): Finding[] {
  const seen = new Set<string>();
  return ALL_FINDING_CODES.flatMap((code) => evidence[findingEvidence(code)] ?? []).filter((f) => {
    if (resolutionCovers(input.resolutions[f.id], f) || seen.has(f.id)) return false;
    seen.add(f.id);
    return true;
  });
}

/** The open findings that bear on this draw. */
export function openFindingsForDraw(input: Scope, evidence: Readonly<Partial<DrawEvidence>>): Finding[] {
  return openProjectFindings(input, evidence).filter(
    (f) => f.draw_id === null || f.draw_id === input.draw.id,
  );
}
