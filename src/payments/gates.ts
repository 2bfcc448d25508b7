/**
 * The payment push gate (SPEC §6, DOMAIN §12): every gate of the project's profile is evaluated
 * and reported — never short-circuited — so a refused push tells the lender everything that is
 * missing at once, and the `PaymentPushBlocked` event records the full picture.
 */
import type { Cents, Document, DocumentSignature, Draw, LienWaiver, Project } from '../projects/facts.js';
import { usd } from '../governance/units.js';
import type { FundsLeft } from '../governance/adequacy.js';
import type {
  GateName,
  NotarizableDocumentType,
  Profile,
  PushRail,
  ProfileName,
} from '../projects/profiles.js';
import type { DrawVerdict, Pral } from '../governance/compile/index.js';
import type { NotarialActRecord } from '../governance/events.js';
import { canonicalJson } from '../platform/ledger/canonical.js';
import { sha256Hex } from '../platform/crypto/hash.js';
import { PRAL_TERMS } from '../credit/index.js';
import {
  activeKeyOf,
  notarialActDocument,
  drawApplicationSha256,
  drawSigningDocument,
  roleMismatch,
  signedBy,
  signerOfOrg,
  waiverSha256,
  waiverSigningDocument,
  type Signer,
} from '../signers/index.js';
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
  /** The findings open for the draw at the head (what a lender's acceptance must cover). */
  findings: readonly { id: string; code: string }[];
  /** What the verdict makes fundable at the head (REDUCED: the claim cut to the inspected amounts). */
  fundable_amount: Cents;
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
  /**
   * The finding codes a lender accepted for this draw (`DrawConditionsAccepted`), or null — also
   * null when the key that accepted was revoked since (`acceptance_revoked_key`).
   */
  accepted_codes: readonly string[] | null;
  /** The acceptance these fields come from (`ACC-…`), or null. */
  acceptance_id?: string | null;
  /** The key of an acceptance that no longer counts because it was revoked since, or null. */
  acceptance_revoked_key?: string | null;
  /**
   * The findings (ids) that acceptance covered; null without an acceptance or for one recorded
   * before it kept them (its codes decide then).
   */
  accepted_finding_ids: readonly string[] | null;
  /**
   * The verdict the lender accepted (FUNDABLE_WITH_CONDITIONS: the full amount on conditions;
   * REDUCED: the reduced amount), or null without an acceptance.
   */
  accepted_verdict: DrawVerdict | null;
  /** The fundable amount the lender accepted, or null (no acceptance, or one recorded before it was kept). */
  accepted_fundable_amount: Cents | null;
  /** Whether sources cover uses at the head. */
  in_balance: boolean;
  /** What the push would pay: G702 line 8, or the REDUCED amount (`amountToPay`), on any rail. */
  payment_amount: Cents;
  /** What the project's sources have left to disburse at the head (DOMAIN §4, as adequacy reads them). */
  funds_left: FundsLeft;
  /** Ids of the project's documents (`documents`) with a recorded `DocumentNotarized`. */
  notarized_document_ids: ReadonlySet<string>;
  /** Rails whose posture is CRITICAL for the project (DOMAIN §8), computed by the rails capability. */
  critical_rails: readonly string[];
  /** Rails with none of their facts that the project's profile does not make optional (issue 14). */
  no_evidence_rails: readonly string[];
  /** The rail the push asks for. */
  rail: PushRail;
  /**
   * Signers by id at the head (signers capability): who may sign, with which key. Only the
   * project's org's signers count (`signerOfOrg`): one key may serve a signer in each org.
   */
  signers: Readonly<Record<string, Signer>>;
  /** Signatures executing documents, by document id (projects capability). */
  document_signatures: Readonly<Record<string, readonly DocumentSignature[]>>;
  /** Notarial acts recorded per document id (`DocumentNotarized` with status NOTARIAL_ACT). */
  notarial_acts: Readonly<Record<string, readonly NotarialActRecord[]>>;
  /** The account the money leaves: the lender's current DISBURSEMENT account, or null. */
  debtor_account: AccountForGate | null;
  /** The account it reaches: the payee's current account (ESCROW: the lender's ESCROW account), or null. */
  creditor_account: AccountForGate | null;
  /** The payment's date (UTC), for the payee-account window. */
  today: string;
}

/** What the `payee_account_stable` gate reads of an account. */
export interface AccountForGate {
  id: string;
  purpose: 'DISBURSEMENT' | 'ESCROW' | 'PAYEE';
  registered_at: string;
  registered_by: string;
  /** API keys that re-verified it. */
  reverified_by: readonly string[];
  /** Erased, or its number no longer in the vault. */
  erased: boolean;
}

/**
 * A payee account registered (added or changed) within this many days before a payment fails
 * `payee_account_stable` until a second lender key — not the one that registered it, and not
 * revoked since — re-verifies it (docs/duties.md): the classic payee-account-fraud window of a
 * construction draw.
 */
export const PAYEE_ACCOUNT_WINDOW_DAYS = 10;

/** The gate every profile carries: money reaches a stable, verified account (issue 15). */
export const PAYEE_ACCOUNT_GATE = 'payee_account_stable';

export interface GateResult {
  gate: GateName | typeof ELIGIBILITY_GATE | typeof PAYEE_ACCOUNT_GATE;
  passed: boolean;
  detail: string;
}

export function evaluateGates(profile: Profile, ctx: GateContext): GateResult[] {
  const waivers = checkWaivers(requiredWaivers(ctx.project, ctx.draw, ctx.draws), ctx.documents, (w) =>
    isExecutedBySignature(w, ctx),
  );
  return [
    ...PROFILE_GATES[profile.name].map((gate) => evaluateGate(gate, profile, ctx, waivers)),
    eligibilityGate(profile, ctx),
    payeeAccountGate(ctx),
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
      return signaturesGate(profile, ctx);
    case 'waivers_executed':
      return waiversGate(waivers);
    case 'notarization':
      return notarizationGate(profile, ctx, waivers);
    case 'in_balance':
      return inBalanceGate(ctx);
    case 'no_critical_rail':
      return railsGate(ctx);
    default: {
      const unhandled: never = gate;
      throw new Error(`unknown gate ${String(unhandled)}`);
    }
  }
}

/**
 * Sources cover uses at the head, and the payment itself stays within what is left to disburse: a
 * lender never pays beyond its commitment. Uses (cost to complete) are floored at 0, so a draw
 * billing more than the contract has left never showed as a use: an application billing a line
 * at $40,000,000 on an $800,000 loan passed this gate and was paid $36,045,000.
 */
function inBalanceGate({ in_balance, payment_amount, funds_left: f }: GateContext): GateResult {
  const problems = [
    ...(in_balance ? [] : ['project is out of balance']),
    ...(payment_amount > f.sources
      ? [
          `the payment of ${usd(payment_amount)} exceeds the ${usd(f.sources)} left to disburse ` +
            `(undisbursed loan ${usd(f.undisbursed_loan)} + unspent equity ${usd(f.unspent_equity)} + ` +
            `remaining contingency ${usd(f.remaining_contingency)}, after ${usd(f.disbursed)} paid)`,
        ]
      : []),
  ];
  if (problems.length > 0) return result('in_balance', false, problems.join('; '));
  return result('in_balance', true, 'sources cover uses');
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
function verdictGate({
  compilation: c,
  draw,
  reviewed,
  accepted_codes,
  accepted_finding_ids,
  accepted_verdict,
  accepted_fundable_amount,
  acceptance_revoked_key,
}: GateContext): GateResult {
  const why = c.reasons.length > 0 ? ` (${c.reasons.join('; ')})` : '';
  const was =
    reviewed !== null && reviewed.draw_verdict !== c.draw_verdict
      ? `; it was ${reviewed.draw_verdict} when compiled at seq ${reviewed.seq}`
      : '';
  const base = `at the head the draw is ${c.draw_verdict}${why}${was}`;
  if (!GATE_PASSING_VERDICTS.includes(c.draw_verdict) && !ACCEPTABLE_VERDICTS.includes(c.draw_verdict))
    return result('verdict_fundable', false, base);
  // A credit transfer moves a positive amount: a draw whose line 8 (or reduced amount) is nothing —
  // retainage or previous certificates stated above what was earned — has nothing to pay.
  if (c.fundable_amount <= 0)
    return result(
      'verdict_fundable',
      false,
      `${base}; nothing to pay: ${usd(c.fundable_amount)} is fundable (G702 line 8 is ${usd(draw.summary.current_payment_due)})`,
    );
  if (GATE_PASSING_VERDICTS.includes(c.draw_verdict)) return result('verdict_fundable', true, base);
  // An acceptance covers the findings open when it was given: a new finding under an accepted code
  // (another coverage expiring, another line's variance) is a condition nobody accepted.
  const unaccepted =
    accepted_finding_ids !== null
      ? c.findings.filter((f) => !accepted_finding_ids.includes(f.id)).map((f) => `${f.code} (${f.id})`)
      : [...new Set(c.findings.map((f) => f.code))].filter((code) => !(accepted_codes ?? []).includes(code));
  if (accepted_codes === null)
    return result(
      'verdict_fundable',
      false,
      acceptance_revoked_key
        ? `${base}; accepted by ${acceptance_revoked_key}, a key revoked since: not accepted by a lender (draws:approve)`
        : `${base}; not accepted by a lender (draws:approve)`,
    );
  // Accepting a reduced amount is not accepting the full one on conditions (nor the reverse): a
  // later fact that moves the draw between the two changes what would be paid.
  if (accepted_verdict !== null && accepted_verdict !== c.draw_verdict)
    return result(
      'verdict_fundable',
      false,
      `${base}; the lender accepted it as ${accepted_verdict}, not ${c.draw_verdict}`,
    );
  // A later inspection can move the reduced amount under the same finding: what is paid must be
  // what was accepted.
  if (
    c.draw_verdict === 'REDUCED' &&
    accepted_fundable_amount !== null &&
    accepted_fundable_amount !== c.fundable_amount
  )
    return result(
      'verdict_fundable',
      false,
      `${base}; the lender accepted a reduced amount of ${usd(accepted_fundable_amount)}, not ${usd(c.fundable_amount)}`,
    );
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
 * `payee_account_stable`: the lender has a disbursement account; the money reaches a registered
 * account whose number still exists (the payee's, or for ESCROW the lender's escrow account);
 * that account, when registered within PAYEE_ACCOUNT_WINDOW_DAYS before the payment, passes only
 * once a lender key other than the registering one re-verified it.
 */
export function payeeAccountGate(
  ctx: Pick<GateContext, 'debtor_account' | 'creditor_account' | 'today' | 'rail'>,
): GateResult {
  const problems: string[] = [];
  const { debtor_account: debtor, creditor_account: creditor } = ctx;
  if (debtor === null) problems.push('the lender has no disbursement account');
  else if (debtor.erased) problems.push(`the disbursement account ${debtor.id} is erased`);
  const what = ctx.rail === 'ESCROW' ? 'the lender’s escrow account' : 'the payee';
  if (creditor === null) problems.push(`no account is registered for ${what}`);
  else if (creditor.erased) problems.push(`${creditor.id} is erased`);
  else {
    // Whatever account the money reaches — the payee's, or the escrow account an ESCROW push pays
    // into — is held to the window: otherwise registering a new escrow account and asking for
    // ESCROW would move the money to an account nobody else confirmed.

    const ageDays =
      (Date.parse(`${ctx.today}T00:00:00Z`) -
        Date.parse(`${creditor.registered_at.slice(0, 10)}T00:00:00Z`)) /
      86_400_000;
    const second = creditor.reverified_by.some((key) => key !== creditor.registered_by);
    if (ageDays < PAYEE_ACCOUNT_WINDOW_DAYS && !second)
      problems.push(
        `${creditor.id} was registered on ${creditor.registered_at.slice(0, 10)}, within ${PAYEE_ACCOUNT_WINDOW_DAYS} days of the payment, and no second lender key re-verified it`,
      );
  }
  if (problems.length > 0) return result(PAYEE_ACCOUNT_GATE, false, problems.join('; '));
  return result(PAYEE_ACCOUNT_GATE, true, `pays ${creditor!.id} from ${debtor!.id}`);
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

/**
 * The signatures gate (docs/duties.md): each role of the chain needs an Ed25519 signature by a
 * distinct enrolled signer — each with its own key — of the party the role belongs to, over the
 * draw's application as it stands now (a signature over other bytes is void), whose signer is not
 * revoked at the head. Self-attested signatures are recorded but never count.
 */
export function countedSignatures(
  profile: Profile,
  ctx: Pick<GateContext, 'project' | 'draw' | 'signers'>,
): { counted: Map<string, string>; problems: string[] } {
  const { draw, project, signers } = ctx;
  const current = drawApplicationSha256(draw);
  const document = drawSigningDocument(draw);
  const counted = new Map<string, string>(); // role → signer id
  const usedKeys = new Set<string>();
  const problems: string[] = [];
  for (const role of profile.certification_chain) {
    const given = draw.signatures.filter((s) => s.role === role);
    const valid = given.find((s) => {
      if (s.attestation !== 'ED25519' || s.signer_id === null || s.signature === null) return false;
      if (s.application_sha256 !== current) return false;
      const signer = signerOfOrg(signers, project.org_id, s.signer_id);
      const key = activeKeyOf(signer);
      if (!signer || !key || key.key_id !== s.key_id) return false;
      if ([...counted.values()].includes(signer.id) || usedKeys.has(key.key_id)) return false;
      return roleMismatch(signer, project, role) === null && signedBy(signer, document, s.signature);
    });
    if (valid) {
      counted.set(role, valid.signer_id!);
      usedKeys.add(valid.key_id!);
      continue;
    }
    const why =
      given.length === 0
        ? 'not signed'
        : given.every((s) => s.attestation === 'SELF_ATTESTED')
          ? 'self-attested only (not counted)'
          : given.some((s) => s.attestation === 'ED25519' && s.application_sha256 !== current)
            ? 'signed over earlier bytes of the draw (void)'
            : 'no signature by a distinct, active signer of its party';
    problems.push(`${role}: ${why}`);
  }
  return { counted, problems };
}

function signaturesGate(profile: Profile, ctx: GateContext): GateResult {
  const { counted, problems } = countedSignatures(profile, ctx);
  const chain = profile.certification_chain.length;
  if (problems.length === 0)
    return result('signatures', true, `${chain} of ${chain} signed by distinct enrolled signers`);
  return result('signatures', false, `${counted.size} of ${chain} signed; ${problems.join('; ')}`);
}

/**
 * A lien waiver is executed when an active signer of its claimant signed its signing bytes as they
 * stand (docs/duties.md); the `executed` boolean an uploader states does not execute it.
 */
export function isExecutedBySignature(
  waiver: LienWaiver,
  ctx: Pick<GateContext, 'signers' | 'document_signatures'>,
): boolean {
  const current = waiverSha256(waiver);
  const document = waiverSigningDocument(waiver);
  return (ctx.document_signatures[waiver.id] ?? []).some((s) => {
    const signer = signerOfOrg(ctx.signers, waiver.org_id, s.signer_id);
    return (
      signer !== undefined &&
      signer.entity_id === waiver.claimant &&
      s.document_sha256 === current &&
      activeKeyOf(signer)?.key_id === s.key_id &&
      signedBy(signer, document, s.signature)
    );
  });
}

function waiversGate(checks: readonly WaiverCheck[]): GateResult {
  const missing = checks
    .filter((c) => c.waiver === null)
    .map(({ requirement: r }) => `${r.kind.toLowerCase()} from ${r.claimant} for ${r.draw_id}`);
  const unexecuted = checks.flatMap((c) => (c.waiver !== null && !c.executed ? [c.waiver.id] : []));
  if (missing.length === 0 && unexecuted.length === 0)
    return result('waivers_executed', true, `${checks.length} required waiver(s) executed`);
  const parts = [
    missing.length > 0 ? `missing: ${missing.join('; ')}` : '',
    unexecuted.length > 0
      ? `not executed (no signature by the claimant's signer): ${unexecuted.join(', ')}`
      : '',
  ];
  return result('waivers_executed', false, parts.filter((p) => p !== '').join('; '));
}

function notarizationGate(profile: Profile, ctx: GateContext, waivers: readonly WaiverCheck[]): GateResult {
  if (profile.notarized_document_types.length === 0)
    return result('notarization', true, 'the profile requires no notarized documents');
  const subjects = profile.notarized_document_types.flatMap((type) =>
    notarizationSubjects(type, ctx, waivers),
  );
  const problems = subjects.flatMap((d) => {
    const why = notarialActProblem(d, ctx);
    return why === null ? [] : [`${d.id} ${why}`];
  });
  if (problems.length === 0)
    return result('notarization', true, `${subjects.length} document(s) notarized by a notarial act`);
  return result('notarization', false, problems.join('; '));
}

/**
 * Why no recorded act satisfies the gate for the document, or null when one does (docs/duties.md):
 * an act by an active, enrolled notary whose signature verifies over its terms, over the document
 * as recorded, with the commission valid on the act date, commissioned in the project's
 * jurisdiction, and — for a lien waiver — the appearing signer one of the claimant's.
 */
export function notarialActProblem(
  document: Document,
  ctx: Pick<GateContext, 'project' | 'signers' | 'notarial_acts' | 'notarized_document_ids'>,
): string | null {
  const acts = ctx.notarial_acts[document.id] ?? [];
  if (acts.length === 0)
    return ctx.notarized_document_ids.has(document.id)
      ? 'is hash-stamped only (no notarial act)'
      : 'is not notarized';
  const digest = sha256Hex(canonicalJson(document));
  const problems = acts.map((act) => {
    const notary = signerOfOrg(ctx.signers, ctx.project.org_id, act.notary_signer_id);
    if (notary?.capacity !== 'Notary' || activeKeyOf(notary)?.key_id !== act.key_id)
      return 'has an act by a notary who is not enrolled or was revoked';
    if (act.document_sha256 !== digest) return 'has an act over other bytes';
    if (!signedBy(notary, notarialActDocument(act), act.signature))
      return 'has an act whose signature does not verify';
    if (act.act_date > act.commission_expires_on)
      return `has an act dated ${act.act_date} under a commission that expired on ${act.commission_expires_on}`;
    if (act.commission_state !== ctx.project.jurisdiction)
      return `has an act under a ${act.commission_state} commission, not the project's ${ctx.project.jurisdiction}`;
    const appeared = signerOfOrg(ctx.signers, ctx.project.org_id, act.appeared_signer_id);
    if (document.type === 'LIEN_WAIVER' && appeared?.entity_id !== document.claimant)
      return 'has an act where the signer who appeared is not the claimant’s';
    return null;
  });
  return problems.includes(null) ? null : problems[problems.length - 1]!;
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
    rule: "DOMAIN §12, issue 15: every role of the profile's certification chain (construction: Contractor, Architect, Lender) signs the pay application as it stands now — three distinct enrolled signers of the GC, the architect and the lender, each an Ed25519 signature (docs/duties.md)",
  },
  waivers_executed: {
    title: 'Every lien waiver the draw needs is executed',
    rule: "DOMAIN §12, issue 15: a conditional waiver for this draw and the previous draw's unconditional waivers, from every claimant, each executed by a signature of a signer of its claimant",
  },
  notarization: {
    title: 'The documents the profile requires notarized are notarized',
    rule: "DOMAIN §12, issue 15: construction requires every lien waiver the draw depends on to be notarized by a verified notarial act (commission valid on the act date, in the project's state); a bare hash stamp does not count",
  },
  in_balance: {
    title: 'The loan is in balance',
    rule: 'DOMAIN §4/§12: sources (undisbursed loan, unspent equity, remaining contingency) cover the cost to complete, and the payment is no larger than what they have left to disburse',
  },
  no_critical_rail: {
    title: 'No governance rail is CRITICAL',
    rule: 'DOMAIN §8/§12: none of the eleven rails stands at CRITICAL posture for the project, and no rail the profile requires is without evidence (INSUFFICIENT_DATA)',
  },
  eligibility: {
    title: "The contractor's PRAL allows the payment rail",
    rule: "DOMAIN §6: the general contractor's payment-risk level binds which rails may carry the money",
  },
  payee_account_stable: {
    title: 'The money goes to a stable, verified account',
    rule: `Issue 15: the lender's disbursement account and the payee's account are registered and not erased; the account the money reaches (the payee's, or for ESCROW the escrow account), added or changed within ${PAYEE_ACCOUNT_WINDOW_DAYS} days, needs a second lender key to re-verify it`,
  },
};
