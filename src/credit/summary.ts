/**
 * One entity's line in the lender `portfolio` action (SPEC §4): the same score, assessed behavioral
 * state, conflicts and remediation the full report carries, without building the report.
 */
import type { Grade } from './constants.js';
import { conflictsOf, type ConflictStatus } from './conflicts.js';
import { dayOf } from './dates.js';
import { planBehavior } from './decide.js';
import { attributedFindings, type EntityFacts } from './inputs.js';
import type { CreditState } from './read-model.js';
import { remediationVelocity, type RemediationVelocity } from './remediation.js';
import { scoreEntity } from './score.js';
import type { BehavioralState } from './state-machine.js';

export interface PortfolioRow {
  entity: string;
  entity_id: string;
  composite_score: number;
  grade: Grade;
  behavioral_state: BehavioralState;
  conflicts_status: ConflictStatus;
  remediation_velocity: RemediationVelocity;
  last_assessed: string;
}

export function portfolioRow(
  credit: CreditState,
  entity: string,
  facts: EntityFacts,
  now: Date,
): PortfolioRow {
  const score = scoreEntity(facts, now);
  const today = dayOf(now);
  return {
    entity,
    entity_id: facts.entity_id,
    composite_score: score.composite_score,
    grade: score.grade,
    behavioral_state: planBehavior(credit, facts, now, score.composite_score).record.state,
    conflicts_status: conflictsOf(facts, now).status,
    remediation_velocity: remediationVelocity(attributedFindings(facts, today), today).velocity,
    last_assessed: now.toISOString(),
  };
}
