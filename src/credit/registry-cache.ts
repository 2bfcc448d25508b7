/**
 * Reuse of SAM.gov's live answers. SAM's API quotas are small and daily (10 requests a day on a
 * basic key, 1,000 with an entity role; a 429 lasts until midnight UTC) and SAM republishes its
 * data once a day, so an answer is reused for SAM_ANSWER_TTL_MS from the moment SAM gave it
 * before the API is asked again. The cache is the credit read model itself: every live answer is
 * recorded on a RegistryVerified event, so it survives restarts and every node sees it.
 */
import type { IsoInstant } from '../projects/facts.js';
import type { SamApiAnswer } from './inputs.js';
import type { CreditState } from './read-model.js';

/** 24 hours: one live SAM.gov lookup per entity per day at most. */
export const SAM_ANSWER_TTL_MS = 24 * 60 * 60 * 1000;

/** When a SAM answer fetched at `fetchedAt` stops being reused. */
export function samAnswerExpiresAt(fetchedAt: IsoInstant): IsoInstant {
  return new Date(Date.parse(fetchedAt) + SAM_ANSWER_TTL_MS).toISOString();
}

/** The entity's latest recorded SAM.gov answer while it is younger than SAM_ANSWER_TTL_MS, else null. */
export function reusableSamAnswer(state: CreditState, entityId: string, now: Date): SamApiAnswer | null {
  const answer = state.entities[entityId]?.sam_answer;
  if (answer === undefined) return null;
  return now.getTime() < Date.parse(samAnswerExpiresAt(answer.fetched_at)) ? answer : null;
}
