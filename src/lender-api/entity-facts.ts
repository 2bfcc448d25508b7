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
import type { Service } from '../platform/http/service.js';
import type { FindingRecord } from '../governance/findings.js';
import type { CreditView } from '../governance/head.js';
import {
  verifyContractorRegistry,
  type RegistryCheck,
  type RegistrySource,
} from '../registry/registry-check.js';
import type { EntityRecord, RegistryState } from '../registry/state.js';
import { factsMemoOf } from './facts-memo.js';
import {
  planBehavior,
  pralFor,
  scoreEntity,
  type EntityFacts,
  type RegistryStatus,
} from '../credit/index.js';

export type FullRegistryCheck = RegistryCheck & { source: RegistrySource };

export function registryCheckOf(state: RegistryState, entity: EntityRecord, now: Date): FullRegistryCheck {
  return verifyContractorRegistry(
    state,
    { legal_name: entity.legal_name, aliases: entity.aliases, uei: entity.uei, cage: entity.cage },
    isoDate(now),
  );
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
  return {
    registration: check.registration,
    exclusions: check.exclusions,
    exclusion_active_since:
      check.exclusions === 'excluded' ? earliest(inEffect.map((r) => r.active_on)) : null,
    exclusion_terminated_on: latest(ended.map((r) => r.terminates_on)),
    checked_at: now.toISOString(),
    source,
  };
}

export function entityFacts(s: Service, entity: EntityRecord, now: Date): EntityFacts {
  const g = s.runtime.state(governance);
  const findings: FindingRecord[] = (g.findings_by_entity[entity.entity_id] ?? [])
    .map((id) => g.findings[id]!)
    .filter(Boolean);
  return {
    entity_id: entity.entity_id,
    projects: s.runtime.state(projectsProjection),
    observations: s.runtime.state(observationsProjection),
    findings,
    registry: registryStatusOf(registryCheckOf(s.runtime.state(registryProjection), entity, now), now),
    memo: factsMemoOf(s.runtime).for(entity.entity_id),
  };
}

export function creditView(s: Service): CreditView {
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
