/**
 * The payment push gate (SPEC §6, DOMAIN §12): every gate of the project's profile is evaluated
 * and reported — never short-circuited — so a refused push tells the lender everything that is
 * missing at once, and the `PaymentPushBlocked` event records the full picture.
 */
import type { Document, Draw, LienWaiver, Project } from '../projects/facts.js';
import type { GateName, NotarizableDocumentType, Profile, ProfileName } from '../projects/profiles.js';
import type { DrawVerdict } from '../governance/compile/index.js';
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
 * Verdicts that pass `verdict_fundable`. SPEC §6 says FUNDABLE; FUNDABLE_WITH_CONDITIONS passes
 * too, because DOMAIN §2 defines WARNING as "fundable with conditions" and §9 makes such a
 * compilation READY — the conditions are the lender's to accept, and the gate's detail names them.
 */
export const GATE_PASSING_VERDICTS: readonly DrawVerdict[] = ['FUNDABLE', 'FUNDABLE_WITH_CONDITIONS'];

export interface GateContext {
  project: Project;
  draw: Draw;
  /** The project's draws (for the previous funded draw). */
  draws: readonly Draw[];
  /** The project's documents. */
  documents: readonly Document[];
  /** The draw's latest `DrawCompiled`: its ledger seq and verdict; null if never compiled. */
  latest_compilation: { seq: number; draw_verdict: DrawVerdict } | null;
  /** The project's latest in-balance test (compile or adequacy); null if none was recorded. */
  in_balance: boolean | null;
  /** Ids of documents with a recorded `DocumentNotarized`. */
  notarized_document_ids: ReadonlySet<string>;
  /** Rails whose posture is CRITICAL for the project (DOMAIN §8), computed by the rails capability. */
  critical_rails: readonly string[];
}

export interface GateResult {
  gate: GateName;
  passed: boolean;
  detail: string;
}

export function evaluateGates(profile: Profile, ctx: GateContext): GateResult[] {
  const waivers = checkWaivers(requiredWaivers(ctx.project, ctx.draw, ctx.draws), ctx.documents);
  return PROFILE_GATES[profile.name].map((gate) => evaluateGate(gate, profile, ctx, waivers));
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
        ctx.in_balance === true,
        ctx.in_balance === null
          ? 'no in-balance test recorded'
          : ctx.in_balance
            ? 'sources cover uses'
            : 'project is out of balance',
      );
    case 'no_critical_rail':
      return result(
        gate,
        ctx.critical_rails.length === 0,
        ctx.critical_rails.length === 0
          ? 'no rail is CRITICAL'
          : `CRITICAL: ${ctx.critical_rails.join(', ')}`,
      );
    default: {
      const unhandled: never = gate;
      throw new Error(`unknown gate ${String(unhandled)}`);
    }
  }
}

function result(gate: GateName, passed: boolean, detail: string): GateResult {
  return { gate, passed, detail };
}

/** Fundable and fresh: newer than every fact about the draw and its project (SPEC §6). */
function verdictGate({ latest_compilation: compiled, draw, project }: GateContext): GateResult {
  if (compiled === null) return result('verdict_fundable', false, 'the draw has never been compiled');
  const lastFact = Math.max(draw.last_fact_seq, project.last_fact_seq);
  if (compiled.seq <= lastFact) {
    return result(
      'verdict_fundable',
      false,
      `compiled at seq ${compiled.seq}, facts changed at seq ${lastFact}: compile again`,
    );
  }
  const passed = GATE_PASSING_VERDICTS.includes(compiled.draw_verdict);
  return result(
    'verdict_fundable',
    passed,
    `latest compilation (seq ${compiled.seq}) is ${compiled.draw_verdict}`,
  );
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
