/**
 * Which of the compile's findings bear on the draw. Layers 4–6 all read the same set, so it is
 * decided once: findings of this draw plus project-wide ones (draw_id null — an expired policy
 * or a contract-sum error stops every draw), minus explicit resolutions (DOMAIN §3).
 */
import { CONTRADICTION_CODES, TEMPORAL_CODES, type Finding, type FindingCode } from '../findings.js';
import type { EvidenceName } from './engine.js';
import { findingEvidence, type DrawCompileInput, type DrawEvidence } from './evidence.js';

export const ALL_FINDING_CODES: readonly FindingCode[] = [...CONTRADICTION_CODES, ...TEMPORAL_CODES];

/** Every layer 2–3 output, for engines that read the whole finding set. */
export const ALL_FINDING_EVIDENCE: readonly EvidenceName<DrawEvidence>[] =
  ALL_FINDING_CODES.map(findingEvidence);

export function openFindingsForDraw(
  input: Pick<DrawCompileInput<unknown, unknown>, 'draw' | 'resolved_finding_ids'>,
  evidence: Readonly<Partial<DrawEvidence>>,
): Finding[] {
  const resolved = new Set(input.resolved_finding_ids);
  return ALL_FINDING_CODES.flatMap((code) => evidence[findingEvidence(code)] ?? []).filter(
    (f) => (f.draw_id === null || f.draw_id === input.draw.id) && !resolved.has(f.id),
  );
}
