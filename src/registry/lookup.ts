/**
 * Entity reference resolution (SPEC §4): an `ent_…` id, an EIN (`NN-NNNNNNN` or 9 digits), a UEI
 * (12 characters), or a legal name / alias / DBA matched after normalization. An exact identifier
 * always wins over names. One name match → found; several → ambiguous (409 listing each candidate
 * with its identifiers, so a lender whose lookup a look-alike registration made ambiguous can pick
 * its firm by EIN or UEI); none → not found (404 with up to 5 candidates by name similarity).
 */
import { UEI_PATTERN } from './contract.js';
import {
  canonicalCode,
  canonicalEin,
  keyOfNormalized,
  nameSimilarity,
  normalizeName,
  trigrams,
} from './normalize.js';
import { listed, own, type EntityRecord, type RegistryState } from './state.js';
import { valuesOf } from '../platform/projections/index.js';

/** Candidates a 404 lists (SPEC §2). */
export const MAX_CANDIDATES = 5;
/**
 * Trigram Jaccard below this is noise (two unrelated two-word names typically share < 0.1), so a
 * not-found answer lists no candidate rather than a random one.
 */
export const MIN_CANDIDATE_SIMILARITY = 0.15;

const ENTITY_ID = /^ent_[a-z2-7]{16}$/;

export interface EntityCandidate {
  entity: string;
  entity_id: string;
  ein: string | null;
  uei: string | null;
  cage: string | null;
}

export type EntityLookup =
  | { kind: 'found'; entity: EntityRecord }
  | { kind: 'ambiguous'; candidates: EntityCandidate[] }
  | { kind: 'not_found'; candidates: EntityCandidate[] };

function candidate(entity: EntityRecord): EntityCandidate {
  return {
    entity: entity.legal_name,
    entity_id: entity.entity_id,
    ein: entity.ein,
    uei: entity.uei,
    cage: entity.cage,
  };
}

function byNameThenId(a: EntityCandidate, b: EntityCandidate): number {
  return a.entity.localeCompare(b.entity, 'en') || a.entity_id.localeCompare(b.entity_id, 'en');
}

function resolved(state: RegistryState, ids: readonly string[]): EntityLookup {
  const entities = ids.map((id) => own(state.entities, id)).filter((e) => e !== undefined);
  if (entities.length === 1) return { kind: 'found', entity: entities[0]! };
  if (entities.length > 1)
    return { kind: 'ambiguous', candidates: entities.map(candidate).sort(byNameThenId) };
  return { kind: 'not_found', candidates: [] };
}

/**
 * The registered entities whose names (legal name or any alias) are most similar to `normalized`,
 * best first, each entity scored by its best name; ties by name then id so the answer is stable.
 */
export function similarEntities(
  state: RegistryState,
  normalized: string,
  limit = MAX_CANDIDATES,
): EntityCandidate[] {
  const wanted = trigrams(normalized);
  const scored: { score: number; candidate: EntityCandidate }[] = [];
  for (const entity of valuesOf(state.entities)) {
    const names = [entity.legal_name, ...entity.aliases];
    const score = Math.max(...names.map((n) => nameSimilarity(wanted, trigrams(normalizeName(n)))));
    if (score >= MIN_CANDIDATE_SIMILARITY) scored.push({ score, candidate: candidate(entity) });
  }
  scored.sort((a, b) => b.score - a.score || byNameThenId(a.candidate, b.candidate));
  return scored.slice(0, limit).map((s) => s.candidate);
}

export function lookupEntity(state: RegistryState, ref: string): EntityLookup {
  const text = ref.trim();
  if (ENTITY_ID.test(text)) return resolved(state, [text]);
  const ein = canonicalEin(text);
  if (ein !== undefined) {
    const id = own(state.entity_by_ein, ein);
    return resolved(state, id === undefined ? [] : [id]);
  }
  const uei = canonicalCode(text);
  if (uei !== null && UEI_PATTERN.test(uei)) {
    const id = own(state.entity_by_uei, uei);
    if (id !== undefined) return resolved(state, [id]);
  }
  // `nameKey` is the normalized name without its spaces: normalized once for both.
  const normalized = normalizeName(text);
  const match = resolved(state, listed(state.entity_names, keyOfNormalized(normalized)));
  if (match.kind !== 'not_found' || normalized === '') return match;
  return { kind: 'not_found', candidates: similarEntities(state, normalized) };
}
