/**
 * compliance_standing (DOMAIN §5, weight 15): registry status, insurance continuity, temporal
 * findings; an active exclusion also caps the composite at 49 (applied in score.ts).
 *
 * Score = 100 − CS01 − CS02 − CS03 − CS04, clamped to 0–100, where
 * - CS01 = 20 when the federal registration is inactive (a status true today: weight 1);
 * - CS02 = 100 when an exclusion is active today (weight 1), which empties the dimension;
 * - CS03 = 40 × weighted mean over (project, required coverage) of the share of days, project start
 *          to today, without a valid certificate of the GC at the required limit;
 * - CS04 = Σ weight × (BLOCKING 10, WARNING 4) per temporal finding attributed to it (except
 *          INSURANCE_EXPIRY, which CS03 measures from the certificates themselves).
 */
import { EXCLUSION_POINTS, REGISTRATION_INACTIVE_POINTS, TEMPORAL_FINDING_POINTS } from '../constants.js';
import { coverageWindows } from '../insurance.js';
import { measuredFromFacts } from '../reason-codes.js';
import { makeSignal, type Signal, type SignalContext } from '../signals.js';

function registrySignals(ctx: SignalContext): Signal[] {
  const { registry } = ctx.facts;
  const evidence = [{ kind: 'registry_check', id: registry.checked_at }];
  const inactive = registry.registration === 'inactive' ? REGISTRATION_INACTIVE_POINTS : 0;
  const excluded = registry.exclusions === 'excluded' ? EXCLUSION_POINTS : 0;
  // A registry status is a condition true today, not a past event, so it does not decay.
  return [
    makeSignal(ctx, 'CS01', 'points', inactive, ctx.today, null, evidence),
    makeSignal(ctx, 'CS02', 'points', excluded, ctx.today, null, evidence),
  ];
}

function insuranceSignals(ctx: SignalContext): Signal[] {
  return coverageWindows(ctx.facts.projects, ctx.gc, ctx.facts.entity_id, ctx.today).map((w) => {
    const evidence = [
      { kind: 'project', id: w.project_id },
      { kind: 'coverage', id: w.coverage },
      ...w.certificate_ids.map((id) => ({ kind: 'document', id })),
    ];
    return makeSignal(ctx, 'CS03', 'share', w.uncovered_days / w.days, w.to, w.project_id, evidence);
  });
}

function temporalSignals(ctx: SignalContext): Signal[] {
  return ctx.findings
    .filter((f) => f.category === 'temporal' && !measuredFromFacts(f))
    .map((f) => {
      const points = TEMPORAL_FINDING_POINTS[f.severity];
      return makeSignal(ctx, 'CS04', 'points', points, f.opened_on, f.project_id, [
        { kind: 'finding', id: f.id },
      ]);
    });
}

export function complianceStandingSignals(ctx: SignalContext): Signal[] {
  return [...registrySignals(ctx), ...insuranceSignals(ctx), ...temporalSignals(ctx)];
}
