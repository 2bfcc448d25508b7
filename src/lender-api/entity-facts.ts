/**
 * Assembles what the credit rules read about one entity from the read models: its projects,
 * observations, attributed findings and the registry check. Also the CreditView governance uses
 * (the GC's composite for adequacy and its PRAL for the compile DAG).
 */
import { credit as creditProjection } from '../../projections/credit.js';
import { governance } from '../../projections/governance.js';
import { observationsProjection } from '../../projections/observations.js';
import { projectsProjection } from '../../projections/projects.js';
import { registryProjection } from '../../projections/registry.js';
import { isoDate } from '../platform/clock.js';
import type { ProjectionRuntime } from '../platform/projections/runtime.js';
import type { FindingRecord } from '../governance/findings.js';
import type { CreditView } from '../governance/head.js';
import {
  verifyContractorRegistry,
  verifyFromSamAnswer,
  type RegistryCheck,
  type RegistrySource,
} from '../registry/registry-check.js';
import type { EntityRecord } from '../registry/state.js';
import { factsMemoOf } from './facts-memo.js';
import {
  planBehavior,
  pralFor,
  reusableSamAnswer,
  scoreEntity,
  type EntityFacts,
  type RegistryFallback,
  type RegistryStatus,
  type SamApiAnswer,
} from '../credit/index.js';
import type { LiveRegistry } from './sam-live.js';

/**
 * What the credit rules read the models through: a service's projection runtime, or anything
 * folding the same projections (the bench generator builds governance heads on its own folds).
 */
export interface CreditReadModels {
  runtime: Pick<ProjectionRuntime, 'state' | 'position' | 'onApplied'>;
}

export type FullRegistryCheck = RegistryCheck & {
  source: RegistrySource;
  sam_answer?: SamApiAnswer;
  fallback?: RegistryFallback;
};

/**
 * The contractor registry check of an entity as of `now` (pure over the read models and `live`):
 * from SAM.gov's answer when the edge learned one (`live`) or one recorded less than
 * SAM_ANSWER_TTL_MS ago is on the ledger; otherwise from the imported extracts, saying why when
 * the live check failed.
 */
export function registryCheckOf(
  s: CreditReadModels,
  entity: EntityRecord,
  now: Date,
  live: LiveRegistry | null = null,
): FullRegistryCheck {
  const subject = {
    legal_name: entity.legal_name,
    aliases: entity.aliases,
    uei: entity.uei,
    cage: entity.cage,
  };
  const answer =
    live === null
      ? reusableSamAnswer(s.runtime.state(creditProjection), entity.entity_id, now)
      : live.kind === 'answer'
        ? live.answer
        : null;
  if (answer !== null) return { ...verifyFromSamAnswer(subject, answer, isoDate(now)), sam_answer: answer };
  const extract = verifyContractorRegistry(s.runtime.state(registryProjection), subject, isoDate(now));
  return live?.kind === 'fallback' ? { ...extract, fallback: live.fallback } : extract;
}

export function registryStatusOf(check: FullRegistryCheck, now: Date): RegistryStatus {
  const inEffect = check.exclusion_records.filter((r) => r.in_effect);
  const ended = check.exclusion_records.filter(
    (r) => !r.in_effect && r.terminates_on !== null && r.terminates_on <= isoDate(now),
  );
  const earliest = (dates: (string | null)[]): string | null =>
    dates.filter((d): d is string => d !== null).sort()[0] ?? null;
  const latest = (dates: (string | null)[]): string | null =>
    dates
      .filter((d): d is string => d !== null)
      .sort()
      .at(-1) ?? null;
  const source: RegistryStatus['source'] = {
    kind: check.source.kind,
    as_of: check.source.as_of ?? isoDate(now),
  };
  if (check.source.file !== undefined) source.file = check.source.file;
  if (check.source.fetched_at !== undefined) source.fetched_at = check.source.fetched_at;
  return {
    ...(check.sam_answer ? { sam_answer: check.sam_answer } : {}),
    ...(check.fallback ? { fallback: check.fallback } : {}),
    registration: check.registration,
    exclusions: check.exclusions,
    exclusion_active_since:
      check.exclusions === 'excluded' ? earliest(inEffect.map((r) => r.active_on)) : null,
    exclusion_terminated_on: latest(ended.map((r) => r.terminates_on)),
    checked_at: now.toISOString(),
    source,
  };
}

/**
 * The facts the credit rules read about an entity. `live` is what the edge learned from SAM.gov
 * for this call (see sam-live.ts); without it a recent recorded SAM answer or the extract serves.
 */
export function entityFacts(
  s: CreditReadModels,
  entity: EntityRecord,
  now: Date,
  live: LiveRegistry | null = null,
  /** Remember what is derived for later calls (false: a pass over every entity; `FactsMemo.peek`). */
  remember = true,
): EntityFacts {
  const g = s.runtime.state(governance);
  const findings: FindingRecord[] = (g.findings_by_entity[entity.entity_id] ?? [])
    .map((id) => g.findings[id]!)
    .filter(Boolean);
  const registry = registryStatusOf(registryCheckOf(s, entity, now, live), now);
  // The registry outcome is part of the memo's key: a SAM answer recorded, or one aging out of
  // reuse, changes it without any fact event.
  const outcome = [
    registry.registration,
    registry.exclusions,
    registry.exclusion_active_since,
    registry.exclusion_terminated_on,
  ].join('|');
  return {
    entity_id: entity.entity_id,
    projects: s.runtime.state(projectsProjection),
    observations: s.runtime.state(observationsProjection),
    findings,
    registry,
    memo: remember
      ? factsMemoOf(s.runtime).for(entity.entity_id, outcome)
      : factsMemoOf(s.runtime).peek(entity.entity_id, outcome),
  };
}

export function creditView(s: CreditReadModels): CreditView {
  const facts = (entity_id: string, now: Date): EntityFacts | null => {
    const entity = s.runtime.state(registryProjection).entities[entity_id];
    return entity ? entityFacts(s, entity, now) : null;
  };
  return {
    score(entity_id, now) {
      const f = facts(entity_id, now);
      return f ? scoreEntity(f, now).composite_score : null;
    },
    pral(entity_id, now) {
      const f = facts(entity_id, now);
      if (!f) return 'HOLD';
      const score = scoreEntity(f, now);
      const state = planBehavior(s.runtime.state(creditProjection), f, now, score.composite_score).record
        .state;
      return pralFor(score.grade, state, f.registry.exclusions === 'excluded').pral;
    },
  };
}
