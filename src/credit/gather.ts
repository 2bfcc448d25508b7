/**
 * Gathers every signal about one entity from the facts, dimension by dimension (DOMAIN §5), as of
 * `now`. Facts dated after `now` are not yet known and never become signals.
 */
import { DIMENSIONS, type Dimension } from './constants.js';
import { dayOf } from './dates.js';
import { complianceStandingSignals } from './dimensions/compliance-standing.js';
import { drawAccuracySignals } from './dimensions/draw-accuracy.js';
import { paymentIntegritySignals } from './dimensions/payment-integrity.js';
import { remediationResponsivenessSignals } from './dimensions/remediation-responsiveness.js';
import { safetyRecordSignals } from './dimensions/safety-record.js';
import { schedulePerformanceSignals } from './dimensions/schedule-performance.js';
import { attributedFindings, derived, DERIVATION, type EntityFacts } from './inputs.js';
import { gcProjects, participationOf } from './participation.js';
import { compareSignals, REGISTRY_FURNISHER, type Signal, type SignalContext } from './signals.js';

/** One signal function per dimension. */
export const DIMENSION_SIGNALS: Readonly<Record<Dimension, (ctx: SignalContext) => Signal[]>> = {
  payment_integrity: paymentIntegritySignals,
  draw_accuracy: drawAccuracySignals,
  compliance_standing: complianceStandingSignals,
  safety_record: safetyRecordSignals,
  schedule_performance: schedulePerformanceSignals,
  remediation_responsiveness: remediationResponsivenessSignals,
};

export function signalContext(facts: EntityFacts, now: Date): SignalContext {
  const today = dayOf(now);
  const participation = participationOf(facts.projects, facts.entity_id);
  return {
    today,
    facts,
    participation,
    gc: gcProjects(participation),
    findings: attributedFindings(facts, today),
  };
}

/**
 * The org that furnished the facts a signal rests on: its project's lender, else the org that
 * recorded its observation (the platform operator, for entity-level facts), else the registry.
 */
export function furnisherOf(
  signal: Signal,
  facts: Pick<EntityFacts, 'projects' | 'observations'>,
): string | null {
  if (signal.project_id !== null) return facts.projects.projects[signal.project_id]?.org_id ?? null;
  for (const evidence of signal.evidence) {
    if (evidence.kind === 'observation') return facts.observations.observations[evidence.id]?.org_id ?? null;
    if (evidence.kind === 'registry_check') return REGISTRY_FURNISHER;
  }
  return null;
}

/**
 * `signalContext`, remembered with the facts: the entity's participation (every document of its
 * projects) and its findings, the costliest part of a score, which a site observation leaves alone.
 */
export function rememberedContext(facts: EntityFacts, now: Date): SignalContext {
  return derived(facts, `${DERIVATION.context}${dayOf(now)}`, () => signalContext(facts, now));
}

/**
 * Each dimension's signals about the entity as of `now`, each naming its furnisher, sorted
 * (`compareSignals`). Each list is remembered apart — known by the day, with its furnishers, sorted —
 * so a fact that changes one dimension (a site observation: the safety record) recomputes and sorts
 * that one only, not the entity's every signal.
 */
export function dimensionSignals(
  facts: EntityFacts,
  now: Date,
): Readonly<Record<Dimension, readonly Signal[]>> {
  const ctx = rememberedContext(facts, now);
  const lists = {} as Record<Dimension, readonly Signal[]>;
  for (const dimension of DIMENSIONS)
    lists[dimension] = derived(facts, `${DERIVATION.signals(dimension)}${ctx.today}`, () =>
      DIMENSION_SIGNALS[dimension](ctx)
        .filter((s) => s.observed_on <= ctx.today)
        .map((s) => {
          const furnisher = furnisherOf(s, facts);
          return furnisher === null ? s : { ...s, furnisher };
        })
        .sort(compareSignals),
    );
  return lists;
}

/**
 * Every signal about the entity as of `now`, each naming its furnisher, in a deterministic order:
 * `compareSignals` orders by dimension first (in DIMENSIONS' order), so the whole list is each
 * dimension's own sorted list (`dimensionSignals`), one after the other.
 */
export function gatherSignals(facts: EntityFacts, now: Date): Signal[] {
  const lists = dimensionSignals(facts, now);
  return DIMENSIONS.flatMap((dimension) => lists[dimension]);
}
