/**
 * The live SAM.gov registry check at the edge (issue 20): before a `verify` or `score` decides,
 * ask SAM.gov's Entity Management and Exclusions APIs what they say about the entity — unless an
 * answer recorded less than SAM_ANSWER_TTL_MS ago can be reused — and hand what was learned to the
 * decision on the command. The decision stays pure and runs at the head; the RegistryVerified event
 * it records carries the answer, so the check replays from the ledger and the next call reuses it.
 *
 * SAM.gov failing (timeout, network, 429, 5xx, a refused key, a body that is not what SAM
 * documents) never fails the call: the imported extract answers and the report says so.
 */
import { credit as creditProjection } from '../../projections/credit.js';
import type { Service } from '../platform/http/service.js';
import type { SamApiSource, SamError } from '../registry/index.js';
import type { EntityRecord } from '../registry/state.js';
import { reusableSamAnswer, type RegistryFallback, type SamApiAnswer } from '../credit/index.js';

/** What the edge learned before deciding: SAM's answer (fresh or reused), or why it has none. */
export type LiveRegistry =
  { kind: 'answer'; answer: SamApiAnswer; fresh: boolean } | { kind: 'fallback'; fallback: RegistryFallback };

const WHY: Record<SamError['code'], string> = {
  timeout: 'SAM.gov did not answer in time',
  network: 'SAM.gov could not be reached',
  unauthorized: 'SAM.gov refused the configured SAM_API_KEY',
  rate_limited: 'SAM.gov rate limit reached (429)',
  http_error: 'SAM.gov answered with an error',
  bad_response: 'SAM.gov answered with a body that is not its documented shape',
};

/** The report's words for a failed live check; SAM's own text never reaches the ledger. */
export function fallbackOf(error: SamError): RegistryFallback {
  return {
    reason: error.code,
    status: error.status ?? null,
    detail: `${WHY[error.code]}; the imported SAM extract answered instead.`,
  };
}

/**
 * SAM's answer for the entity: reused from the ledger when recorded less than SAM_ANSWER_TTL_MS
 * ago, else asked now; null when no SAM_API_KEY is configured (the extract alone answers).
 */
export async function liveRegistryFor(
  s: Service,
  sam: SamApiSource | null,
  entity: EntityRecord,
): Promise<LiveRegistry | null> {
  if (sam === null) return null;
  const cached = reusableSamAnswer(s.runtime.state(creditProjection), entity.entity_id, s.clock.now());
  if (cached) return { kind: 'answer', answer: cached, fresh: false };
  const subject = {
    legal_name: entity.legal_name,
    aliases: entity.aliases,
    uei: entity.uei,
    cage: entity.cage,
  };
  const answered = await sam.lookupSubject(subject);
  if (!answered.ok) {
    s.logger.warn('SAM.gov live check failed; the imported extract answers', {
      entity_id: entity.entity_id,
      reason: answered.error.code,
      status: answered.error.status ?? null,
    });
    return { kind: 'fallback', fallback: fallbackOf(answered.error) };
  }
  const { registrations, exclusions } = answered.value;
  return {
    kind: 'answer',
    fresh: true,
    answer: {
      fetched_at: s.clock.now().toISOString(),
      registrations: registrations.map(({ uei, cage, legal_name, status, expires_on }) => ({
        uei,
        cage,
        legal_name,
        status,
        expires_on,
      })),
      exclusions: exclusions.map(({ program, type, agency, active_on, terminates_on }) => ({
        program,
        type,
        agency,
        active_on,
        terminates_on,
      })),
    },
  };
}
