/**
 * The payment push gate (SPEC §6, DOMAIN §12): every gate of the project's profile is evaluated
 * and reported — never short-circuited — so a refused push tells the lender everything that is
 * missing at once, and the `PaymentPushBlocked` event records the full picture.
 */
import type { Document, Draw, LienWaiver, Project } from '../projects/facts.js';
import type {
  GateName,
  NotarizableDocumentType,
  Profile,
  PushRail,
  ProfileName,
} from '../projects/profiles.js';
import type { DrawVerdict, Pral } from '../governance/compile/index.js';
import { PRAL_TERMS } from '../credit/index.js';
import { checkWaivers, requiredWaivers, type WaiverCheck } from './waivers.js';

/**
 * The gates each profile checks, from one vocabulary (DOMAIN §12 publishes construction's six by
 * name and only a count for the others). The choices:
 * - treasury (5): all but `waivers_executed` — treasury disbursements have no lien claimants.
 * - insurance (4): also without `in_balance` — a claim payment draws on no loan budget.
 * - government (6): all six — public works carry the same lien, notarization and budget risk.
 * - supply_chain (5): all but `notarization` — suppliers are lien claimants (waivers), but trade
 *   documents are not notarized.
 * `src/projects/profiles.ts` `gates` should point here.
 */
export const PROFILE_GATES: Readonly<Record<ProfileName, readonly GateName[]>> = {
  construction: [
    'verdict_fundable',
    'signatures',
    'waivers_executed',
    'notarization',
    'in_balance',
    'no_critical_rail',
  ],
  treasury: ['verdict_fundable', 'signatures', 'notarization', 'in_balance', 'no_critical_rail'],
  insurance: ['verdict_fundable', 'signatures', 'notarization', 'no_critical_rail'],
  government: [
    'verdict_fundable',
    'signatures',
    'waivers_executed',
    'notarization',
    'in_balance',
    'no_critical_rail',
  ],
  supply_chain: ['verdict_fundable', 'signatures', 'waivers_executed', 'in_balance', 'no_critical_rail'],
};

/**
 * Verdicts that pass `verdict_fundable` by themselves. FUNDABLE_WITH_CONDITIONS and REDUCED pass
 * only once a lender accepted them (see `acceptance`); HOLD and NOT_FUNDABLE never pass.
 */
export const GATE_PASSING_VERDICTS: readonly DrawVerdict[] = ['FUNDABLE'];

/** Verdicts a lender key with `draws:approve` may accept (its conditions, or the reduced amount). */
export const ACCEPTABLE_VERDICTS: readonly DrawVerdict[] = ['FUNDABLE_WITH_CONDITIONS', 'REDUCED'];

/** The `eligibility` gate every profile carries beside its own (DOMAIN §6: PRAL binds the rail). */
export const ELIGIBILITY_GATE = 'eligibility';

/** The compilation the push ran at the head, inside its own decision. */
export interface HeadCompilation {
  draw_verdict: DrawVerdict;
  /** The verdict's reasons (DOMAIN §9), e.g. `BLOCKING: INSURANCE_EXPIRY`, `PRAL is DENY`. */
  reasons: readonly string[];
  /** Codes of the findings open for the draw at the head (what a lender's acceptance must cover). */
  finding_codes: readonly string[];
  /** The draw's PRAL at the head (DOMAIN §6: the worse of the GC's grade, state and exclusion). */
  pral: Pral;
  pral_rationale: readonly string[];
}

export interface GateContext {
  project: Project;
  draw: Draw;
  /** The project's draws (for the previous funded draw). */
  draws: readonly Draw[];
  /** The project's documents. */
  documents: readonly Document[];
  /** The compilation at the head (the push re-runs it; nothing earlier is trusted). */
  compilation: HeadCompilation;
  /** The lender's previous recorded compilation of the draw, when one exists (for the gate's wording). */
  reviewed: { seq: number; draw_verdict: DrawVerdict } | null;
  /** The finding codes a lender accepted for this draw (`DrawConditionsAccepted`), or null. */
  accepted_codes: readonly string[] | null;
  /** Whether sources cover uses at the head. */
  in_balance: boolean;
  /** Ids of documents with a recorded `DocumentNotarized`. */
  notarized_document_ids: ReadonlySet<string>;
  /** Rails whose posture is CRITICAL for the project (DOMAIN §8), computed by the rails capability. */
  critical_rails: readonly string[];
  /** Rails with none of their facts that the project's profile does not make optional (issue 14). */
  no_evidence_rails: readonly string[];
  /** The rail the push asks for. */
  rail: PushRail;
}

export interface GateResult {
  gate: GateName | typeof ELIGIBILITY_GATE;
  passed: boolean;
  detail: string;
}

export function evaluateGates(profile: Profile, ctx: GateContext): GateResult[] {
  const waivers = checkWaivers(requiredWaivers(ctx.project, ctx.draw, ctx.draws), ctx.documents);
  return [
    ...PROFILE_GATES[profile.name].map((gate) => evaluateGate(gate, profile, ctx, waivers)),
    eligibilityGate(profile, ctx),
  ];
}

export const gatesPassed = (results: readonly GateResult[]): boolean => results.every((r) => r.passed);

function evaluateGate(
  gate: GateName,
  profile: Profile,
  ctx: GateContext,
  waivers: readonly WaiverCheck[],
): GateResult {
  switch (gate) {
    case 'verdict_fundable':
      return verdictGate(ctx);
    case 'signatures':
      return signaturesGate(profile, ctx.draw);
    case 'waivers_executed':
      return waiversGate(waivers);
    case 'notarization':
      return notarizationGate(profile, ctx, waivers);
    case 'in_balance':
      return result(
        gate,
        ctx.in_balance,
        ctx.in_balance ? 'sources cover uses' : 'project is out of balance',
      );
    case 'no_critical_rail':
      return railsGate(ctx);
    default: {
      const unhandled: never = gate;
      throw new Error(`unknown gate ${String(unhandled)}`);
    }
  }
}

/** No rail CRITICAL, and no required rail without evidence: no data is not good news (issue 14). */
function railsGate({ critical_rails, no_evidence_rails }: GateContext): GateResult {
  const problems = [
    ...(critical_rails.length > 0 ? [`CRITICAL: ${critical_rails.join(', ')}`] : []),
    ...(no_evidence_rails.length > 0
      ? [`no evidence (INSUFFICIENT_DATA): ${no_evidence_rails.join(', ')}`]
      : []),
  ];
  return result(
    'no_critical_rail',
    problems.length === 0,
    problems.length === 0 ? 'no rail is CRITICAL and every required rail has evidence' : problems.join('; '),
  );
}

function result(gate: GateResult['gate'], passed: boolean, detail: string): GateResult {
  return { gate, passed, detail };
}

/**
 * The verdict at the head: FUNDABLE passes; FUNDABLE_WITH_CONDITIONS and REDUCED pass once a
 * lender accepted every finding the draw has open now; HOLD and NOT_FUNDABLE never pass. The
 * detail names what decided it, and the earlier verdict when the facts changed it since.
 */
function verdictGate({ compilation: c, reviewed, accepted_codes }: GateContext): GateResult {
  const why = c.reasons.length > 0 ? ` (${c.reasons.join('; ')})` : '';
  const was =
    reviewed !== null && reviewed.draw_verdict !== c.draw_verdict
      ? `; it was ${reviewed.draw_verdict} when compiled at seq ${reviewed.seq}`
      : '';
  const base = `at the head the draw is ${c.draw_verdict}${why}${was}`;
  if (GATE_PASSING_VERDICTS.includes(c.draw_verdict)) return result('verdict_fundable', true, base);
  if (!ACCEPTABLE_VERDICTS.includes(c.draw_verdict)) return result('verdict_fundable', false, base);
  const unaccepted = [...new Set(c.finding_codes)].filter((code) => !(accepted_codes ?? []).includes(code));
  if (accepted_codes === null)
    return result('verdict_fundable', false, `${base}; not accepted by a lender (draws:approve)`);
  if (unaccepted.length > 0)
    return result('verdict_fundable', false, `${base}; not accepted: ${unaccepted.join(', ')}`);
  return result('verdict_fundable', true, `${base}; accepted by the lender`);
}

/** DOMAIN §6: the draw's PRAL binds the rail — RELEASE any, RELEASE_WITH_CONDITIONS ACH/Wire, HOLD escrow only, DENY none. */
function eligibilityGate(profile: Profile, ctx: GateContext): GateResult {
  const { pral, pral_rationale } = ctx.compilation;
  const allowed = eligibleRails(pral, profile);
  const detail = `PRAL ${pral} (${pral_rationale.join('; ')}) allows ${allowed.length > 0 ? allowed.join(', ') : 'no rail'}`;
  return result(
    ELIGIBILITY_GATE,
    (allowed as readonly string[]).includes(ctx.rail),
    `${detail}; asked ${ctx.rail}`,
  );
}

/**
 * Rails a PRAL allows on a profile (DOMAIN §6). ESCROW — a joint check / escrow disbursement, the
 * HOLD row's rail — is the most guarded way to pay, so any PRAL that pays at all allows it.
 */
export function eligibleRails(pral: Pral, profile: Profile): string[] {
  const terms = PRAL_TERMS[pral];
  const rails: string[] = terms.rails.filter((r) => r !== 'ESCROW');
  if (terms.swift_when_offered && profile.payment_rails.includes('SWIFT')) rails.push('SWIFT');
  return pral === 'DENY' ? [] : [...rails, 'ESCROW'];
}

function signaturesGate(profile: Profile, draw: Draw): GateResult {
  const signed = new Set(draw.signatures.map((s) => s.role));
  const missing = profile.certification_chain.filter((role) => !signed.has(role));
  const chain = profile.certification_chain.length;
  if (missing.length === 0) return result('signatures', true, `${chain} of ${chain} signed`);
  return result(
    'signatures',
    false,
    `${chain - missing.length} of ${chain} signed; missing: ${missing.join(', ')}`,
  );
}

function waiversGate(checks: readonly WaiverCheck[]): GateResult {
  const missing = checks
    .filter((c) => c.waiver === null)
    .map(({ requirement: r }) => `${r.kind.toLowerCase()} from ${r.claimant} for ${r.draw_id}`);
  const unexecuted = checks.flatMap((c) => (c.waiver !== null && !c.waiver.executed ? [c.waiver.id] : []));
  if (missing.length === 0 && unexecuted.length === 0)
    return result('waivers_executed', true, `${checks.length} required waiver(s) executed`);
  const parts = [
    missing.length > 0 ? `missing: ${missing.join('; ')}` : '',
    unexecuted.length > 0 ? `not executed: ${unexecuted.join(', ')}` : '',
  ];
  return result('waivers_executed', false, parts.filter((p) => p !== '').join('; '));
}

function notarizationGate(profile: Profile, ctx: GateContext, waivers: readonly WaiverCheck[]): GateResult {
  const subjects = profile.notarized_document_types.flatMap((type) =>
    notarizationSubjects(type, ctx, waivers),
  );
  const pending = subjects.filter((d) => !ctx.notarized_document_ids.has(d.id)).map((d) => d.id);
  if (profile.notarized_document_types.length === 0)
    return result('notarization', true, 'the profile requires no notarized documents');
  if (pending.length === 0) return result('notarization', true, `${subjects.length} document(s) notarized`);
  return result('notarization', false, `not notarized: ${pending.join(', ')}`);
}

/**
 * The documents of a type the draw's release depends on. Lien waivers: every waiver recorded
 * against this draw, plus the previous draw's unconditional waivers this draw requires.
 */
function notarizationSubjects(
  type: NotarizableDocumentType,
  ctx: GateContext,
  waivers: readonly WaiverCheck[],
): Document[] {
  switch (type) {
    case 'LIEN_WAIVER': {
      const own = ctx.documents.filter(
        (d): d is LienWaiver => d.type === 'LIEN_WAIVER' && d.draw_id === ctx.draw.id,
      );
      const required = waivers.map((c) => c.waiver).filter((w): w is LienWaiver => w !== null);
      return [...new Map([...own, ...required].map((w) => [w.id, w])).values()];
    }
    default: {
      const unhandled: never = type;
      throw new Error(`unknown notarizable type ${String(unhandled)}`);
    }
  }
}

/**
 * Each gate in plain words, for people reading a gate checklist (the governance pages, the PDF):
 * the rule it enforces and where that rule is written down.
 */
export const GATE_RULES: Readonly<Record<GateResult['gate'], { title: string; rule: string }>> = {
  verdict_fundable: {
    title: 'The draw compiles FUNDABLE',
    rule: 'DOMAIN §9/§12: the compilation run at the moment of payment must say FUNDABLE (or a lender must have accepted its conditions)',
  },
  signatures: {
    title: 'Every party of the certification chain has signed',
    rule: "DOMAIN §12: every role of the profile's certification chain (construction: Contractor, Architect, Lender) signs the pay application",
  },
  waivers_executed: {
    title: 'Every lien waiver the draw needs is executed',
    rule: "DOMAIN §12: a conditional waiver for this draw and the previous draw's unconditional waivers, from every claimant, executed",
  },
  notarization: {
    title: 'The documents the profile requires notarized are notarized',
    rule: 'DOMAIN §12: construction requires every lien waiver the draw depends on to be notarized',
  },
  in_balance: {
    title: 'The loan is in balance',
    rule: 'DOMAIN §12: sources (undisbursed loan plus equity) cover the cost to complete',
  },
  no_critical_rail: {
    title: 'No governance rail is CRITICAL',
    rule: 'DOMAIN §8/§12: none of the eleven rails stands at CRITICAL posture for the project',
  },
  eligibility: {
    title: "The contractor's PRAL allows the payment rail",
    rule: "DOMAIN §6: the general contractor's payment-risk level binds which rails may carry the money",
  },
};
