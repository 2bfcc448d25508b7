/**
 * Eligibility (DOMAIN §6): the payment release authorization level (PRAL) from the grade and from
 * the behavioral state — the worse of the two wins, and a registry exclusion is DENY — with the
 * payment rails, marketplace tier and programs that level allows, and how to improve.
 */
import { PROFILES, type PaymentRail, type ProfileName } from '../projects/profiles.js';
import { gatherSignals } from './gather.js';
import { planBehavior } from './decide.js';
import { creditImprovement, type CreditImprovement } from './improvement.js';
import type { EntityFacts } from './inputs.js';
import { participationOf } from './participation.js';
import { exclusionActive, scoreSignals, type CreditScore } from './score.js';
import type { Signal } from './signals.js';
import type { Grade } from './constants.js';
import type { CreditState } from './read-model.js';
import type { BehavioralState } from './state-machine.js';

/** From most to least permissive: the later one is the worse. */
export const PRAL_LEVELS = ['RELEASE', 'RELEASE_WITH_CONDITIONS', 'HOLD', 'DENY'] as const;
export type Pral = (typeof PRAL_LEVELS)[number];

/** DOMAIN §6, grade column. */
export const PRAL_BY_GRADE: Readonly<Record<Grade, Pral>> = {
  A: 'RELEASE',
  B: 'RELEASE',
  C: 'RELEASE_WITH_CONDITIONS',
  D: 'HOLD',
  F: 'DENY',
};

/** DOMAIN §6, state column. */
export const PRAL_BY_STATE: Readonly<Record<BehavioralState, Pral>> = {
  PROVISIONAL: 'RELEASE',
  GOOD_STANDING: 'RELEASE',
  WATCH: 'RELEASE_WITH_CONDITIONS',
  PROBATION: 'HOLD',
  RESTRICTED: 'DENY',
  SUSPENDED: 'DENY',
};

/** A payment rail, or joint check / escrow (DOMAIN §6 HOLD row). */
export type EligibleRail = PaymentRail | 'ESCROW';
export type MarketplaceTier = 'PREFERRED' | 'STANDARD' | 'RESTRICTED' | 'NONE';
export type MarketplaceProgram = 'early_payment' | 'supply_chain_finance' | 'retainage_advance';

export interface PralTerms {
  /** Rails before the profile filter; SWIFT is added only where a profile offers it. */
  rails: readonly EligibleRail[];
  swift_when_offered: boolean;
  tier: MarketplaceTier;
  programs: readonly MarketplaceProgram[];
}

/** DOMAIN §6, rails and marketplace columns. */
export const PRAL_TERMS: Readonly<Record<Pral, PralTerms>> = {
  RELEASE: {
    rails: ['ACH', 'Wire', 'RTP'],
    swift_when_offered: true,
    tier: 'PREFERRED',
    programs: ['early_payment', 'supply_chain_finance', 'retainage_advance'],
  },
  RELEASE_WITH_CONDITIONS: {
    rails: ['ACH', 'Wire'],
    swift_when_offered: false,
    tier: 'STANDARD',
    programs: ['supply_chain_finance'],
  },
  HOLD: { rails: ['ESCROW'], swift_when_offered: false, tier: 'RESTRICTED', programs: [] },
  DENY: { rails: [], swift_when_offered: false, tier: 'NONE', programs: [] },
};

/** SPEC §4 `eligibility` (without `entity`/`entity_id`, which the edge adds). */
export interface Eligibility {
  payment_recommendation: { pral: Pral; rationale: string[] };
  eligible_payment_rails: EligibleRail[];
  marketplace_access: { tier: MarketplaceTier; programs: MarketplaceProgram[] };
  credit_improvement: CreditImprovement[];
}

export function worsePral(a: Pral, b: Pral): Pral {
  return PRAL_LEVELS.indexOf(a) >= PRAL_LEVELS.indexOf(b) ? a : b;
}

/** The PRAL for a grade, a state and the exclusion flag, with the reasons in words. */
export function pralFor(
  grade: Grade,
  state: BehavioralState,
  excluded: boolean,
): { pral: Pral; rationale: string[] } {
  const byGrade = PRAL_BY_GRADE[grade];
  const byState = PRAL_BY_STATE[state];
  const rationale = [`grade ${grade} → ${byGrade}`, `behavioral state ${state} → ${byState}`];
  let pral = worsePral(byGrade, byState);
  if (excluded) {
    rationale.push('active federal registry exclusion → DENY');
    pral = 'DENY';
  }
  rationale.push(`the worse applies: ${pral}`);
  return { pral, rationale };
}

/** Rails a PRAL allows; SWIFT only when one of the entity's project profiles offers it. */
export function railsFor(pral: Pral, profiles: readonly ProfileName[]): EligibleRail[] {
  const terms = PRAL_TERMS[pral];
  const swift = terms.swift_when_offered && profiles.some((p) => PROFILES[p].payment_rails.includes('SWIFT'));
  return swift ? [...terms.rails, 'SWIFT'] : [...terms.rails];
}

/** Eligibility from the entity's signals, its behavioral state and its projects' profiles. */
export function eligibility(
  signals: readonly Signal[],
  state: BehavioralState,
  profiles: readonly ProfileName[],
  score: CreditScore = scoreSignals(signals),
): Eligibility {
  const recommendation = pralFor(score.grade, state, exclusionActive(signals));
  const terms = PRAL_TERMS[recommendation.pral];
  return {
    payment_recommendation: recommendation,
    eligible_payment_rails: railsFor(recommendation.pral, profiles),
    marketplace_access: { tier: terms.tier, programs: [...terms.programs] },
    credit_improvement: creditImprovement(signals, score),
  };
}

function profilesOf(facts: EntityFacts): ProfileName[] {
  return participationOf(facts.projects, facts.entity_id).map((p) => p.project.profile);
}

/** Eligibility of one entity as of `now`, given its (assessed) behavioral state. */
export function eligibilityOf(facts: EntityFacts, state: BehavioralState, now: Date): Eligibility {
  return eligibility(gatherSignals(facts, now), state, profilesOf(facts));
}

/**
 * The `eligibility` action's core: assesses the behavioral state first (transitions due but not yet
 * recorded count), so a stale stored state never grants a better PRAL than the facts allow.
 */
export function assessedEligibility(credit: CreditState, facts: EntityFacts, now: Date): Eligibility {
  const signals = gatherSignals(facts, now);
  const score = scoreSignals(signals);
  const state = planBehavior(credit, facts, now, score.composite_score).record.state;
  return eligibility(signals, state, profilesOf(facts), score);
}
