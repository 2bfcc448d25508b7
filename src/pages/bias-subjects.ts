/**
 * The population of the live bias analysis: every entity in the registry read model, scored as the
 * lender API scores it now, with its SAM business type codes attached only here — after scoring,
 * which never sees them.
 */
import { registryProjection } from '../../projections/registry.js';
import { scoreEntity, type BiasSubject } from '../credit/index.js';
import { entityFacts } from '../lender-api/entity-facts.js';
import type { Service } from '../platform/http/service.js';
import { valuesOf } from '../platform/projections/index.js';

export function governedSubjects(s: Service, now: Date): BiasSubject[] {
  const entities = valuesOf(s.runtime.state(registryProjection).entities).sort((a, b) => a.seq - b.seq);
  return entities.map((entity) => {
    const score = scoreEntity(entityFacts(s, entity, now), now);
    return {
      entity_id: entity.entity_id,
      business_types: entity.business_types,
      composite_score: score.composite_score,
      grade: score.grade,
    };
  });
}
