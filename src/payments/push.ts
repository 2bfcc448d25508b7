/**
 * Deciding a payment push (SPEC §6 `payment-push`, ARCHITECTURE §5), inside the Ledger's
 * serialized commit on the read models at the head. The push re-runs the draw's compilation on
 * those facts and records it beside its own event, so money moves only on the governance that
 * holds at the moment of payment: `PaymentPushed` (201) when every gate passes,
 * `PaymentPushBlocked` (422 GATE_UNMET, an audited refusal) when one does not, 409 for a funded or
 * rejected draw, 400 for a rail the profile does not carry (no trace: a malformed request).
 *
 * The amount is the draw's G702 line 8 (current payment due), or the REDUCED amount — never the
 * figure the application requested. Everything the pain.001 instruction needs is in the event, so
 * the instruction can be regenerated from the ledger byte for byte (`instructionOf`).
 */
import { isoDate } from '../platform/clock.js';
import type { DrawVerdict, Pral } from '../governance/compile/index.js';
import { idFromUuid } from '../platform/ids.js';
import { companionEventId, recordCompilation } from '../governance/decide.js';
import {
  drawStream,
  type InstructionParty,
  type NotarialActRecord,
  type PaymentPushedData,
} from '../governance/events.js';
import { sha256Hex } from '../platform/crypto/hash.js';
import { drawAt, type GovernanceHead } from '../governance/head.js';
import { fundsLeft } from '../governance/adequacy.js';
import {
  accepted,
  recordResult,
  rejected,
  type GovernanceCtx,
  type GovernanceDecided,
} from '../governance/record.js';
import type { Cents, Draw } from '../projects/facts.js';
import { PROFILES, PUSH_RAILS, type Profile, type PushRail } from '../projects/profiles.js';
import {
  eligibleRails,
  evaluateGates,
  gatesPassed,
  type AccountForGate,
  type GateContext,
  type GateResult,
} from './gates.js';
import { buildPain001, type Pain001Input, type Pain001Party, type Pain001PaymentType } from './pain001.js';
import { currentAccount, type BankAccount } from '../accounts/index.js';
import { drawApplicationSha256 } from '../signers/index.js';

export type RailCheck =
  | { ok: true; rail: PushRail }
  | { ok: false; code: 'RAIL_NOT_ALLOWED'; rail: string; allowed: readonly PushRail[]; message: string };

/**
 * The requested rail, or the profile's first rail when none is named (DOMAIN §12 lists them in
 * preference order). ESCROW (joint check / escrow, DOMAIN §6) is open to every profile.
 */
export function checkRail(profile: Profile, requested: string | undefined): RailCheck {
  const rail = requested ?? profile.payment_rails[0];
  const allowed: PushRail[] = [...profile.payment_rails, 'ESCROW'];
  if (rail !== undefined && isPushRail(rail) && allowed.includes(rail)) return { ok: true, rail };
  const message = `rail "${rail ?? ''}" is not available to the ${profile.name} profile (allowed: ${allowed.join(', ')})`;
  return { ok: false, code: 'RAIL_NOT_ALLOWED', rail: rail ?? '', allowed, message };
}

function isPushRail(rail: string): rail is PushRail {
  return (PUSH_RAILS as readonly string[]).includes(rail);
}

/** The `PaymentPushed` payload before `payload_hash` and `artifacts`. */
export type PaymentPushedPayload = Omit<PaymentPushedData, 'payload_hash' | 'artifacts'>;

/** Reveals a registered account's number from the account vault; null once erased. */
export type AccountReveal = (account_id: string) => string | null;

/**
 * The pain.001 of a recorded payment: a pure function of the event and the account numbers the
 * vault reveals for its account ids, so it regenerates to the same bytes while the numbers exist.
 * Throws when an account's number was erased: no instruction can be built for it any more.
 */
export function instructionOf(payment: PaymentPushedPayload, reveal: AccountReveal = () => null): string {
  const party = (p: InstructionParty): Pain001Party => {
    if (p.account_id === undefined) return { name: p.name, account: p.account, agent: p.agent };
    const number = reveal(p.account_id);
    if (number === null) throw new Error(`the number of ${p.account_id} is erased or not in this vault`);
    return {
      name: p.name,
      account: p.scheme === 'IBAN' ? { iban: number } : { us_account: number },
      agent: p.agent,
    };
  };
  const input: Pain001Input = {
    message_id: payment.message_id,
    amount: payment.amount,
    ...payment.instruction,
    debtor: party(payment.instruction.debtor),
    creditor: party(payment.instruction.creditor),
  };
  return buildPain001(input);
}

/** PmtTpInf per rail (docs/duties.md). */
export function paymentTypeOf(rail: PushRail): Pain001PaymentType {
  switch (rail) {
    case 'ACH':
      return {
        service_level: 'NURG',
        local_instrument: { cd: 'CCD' },
        category_purpose: 'SUPP',
        charge_bearer: null,
      };
    case 'Wire':
      return { service_level: 'URGP', local_instrument: null, category_purpose: 'SUPP', charge_bearer: null };
    case 'RTP':
      return {
        service_level: 'URGP',
        local_instrument: { prtry: 'RTP' },
        category_purpose: 'SUPP',
        charge_bearer: null,
      };
    case 'SWIFT':
      return {
        service_level: 'URGP',
        local_instrument: null,
        category_purpose: 'SUPP',
        charge_bearer: 'SHAR',
      };
    case 'ESCROW':
      return {
        service_level: 'NURG',
        local_instrument: { prtry: 'BOOK' },
        category_purpose: 'CASH',
        charge_bearer: null,
      };
    default: {
      const unknown: never = rail;
      throw new Error(`unknown rail ${String(unknown)}`);
    }
  }
}

/** The instruction party of a registered account: masked number, account id, agent. */
export function partyOfAccount(name: string, account: BankAccount): InstructionParty {
  const agent =
    account.bic !== null
      ? account.aba_routing !== null
        ? { bic: account.bic, aba_routing: account.aba_routing }
        : { bic: account.bic }
      : { aba_routing: account.aba_routing ?? '' };
  return { name, account: account.masked, agent, account_id: account.id, scheme: account.scheme };
}

/**
 * The amount a push pays (issue 14): the REDUCED amount (line 8 less the inspected cut), else G702
 * line 8 — never the requested figure. The compilation's `fundable_amount` is the same figure.
 */
export function amountToPay(draw: Draw, verdict: DrawVerdict, fundable_amount: Cents): Cents {
  return verdict === 'REDUCED' ? fundable_amount : draw.summary.current_payment_due;
}

/** The profile's first rail (then ESCROW) that a PRAL allows; the profile's first when none is. */
export function preferredRail(profile: Profile, pral: Pral): PushRail {
  const allowed = eligibleRails(pral, profile);
  const candidates: PushRail[] = [...profile.payment_rails, 'ESCROW'];
  return candidates.find((r) => allowed.includes(r)) ?? profile.payment_rails[0] ?? 'ESCROW';
}

type Compiled = ReturnType<typeof recordCompilation>;

/**
 * The gate context of a draw at the head, from the compilation run there: the one place the push
 * decision and the read-only gates query (`drawGatesAt`) assemble what `evaluateGates` reads. With
 * no rail named, the profile's most preferred rail the draw's PRAL allows (ESCROW under HOLD).
 */
function gateContextAt(
  head: GovernanceHead,
  found: NonNullable<ReturnType<typeof drawAt>>,
  compiled: Compiled,
  named: PushRail | null,
  org_id: string,
  now: Date,
): { gateContext: GateContext; rail: PushRail; accounts: PaymentAccounts } {
  const { ctx: project, draw } = found;
  const profile = PROFILES[project.project.profile];
  const { result } = compiled;
  const pral = result.evidence.pral_verdict;
  const rail = named ?? preferredRail(profile, pral?.pral ?? 'DENY');
  const previous = head.governance.latest_compilation_by_draw[draw.id];
  const reviewed = previous === undefined ? undefined : head.governance.compilations[previous];
  // An acceptance by a key revoked since (stolen, its holder gone) no longer vouches for the draw,
  // as a revoked key's re-verification no longer vouches for an account.
  const given = head.governance.acceptances_by_draw[draw.id];
  const acceptance = given !== undefined && !head.keyRevoked(given.accepted_by) ? given : undefined;
  const accounts = paymentAccounts(head, org_id, project.project.general_contractor, rail);
  const gateContext: GateContext = {
    project: project.project,
    draw,
    draws: project.input.draws,
    documents: project.input.documents,
    compilation: {
      draw_verdict: result.compilation.draw_verdict,
      reasons: result.verdict?.reasons ?? ['the compilation did not reach a verdict'],
      findings: result.findings.map((f) => ({ id: f.id, code: f.code })),
      fundable_amount: result.verdict?.fundable_amount ?? 0,
      pral: pral?.pral ?? 'DENY',
      pral_rationale: pral?.rationale ?? ['the PRAL engine did not fire'],
    },
    reviewed: reviewed ? { seq: reviewed.seq, draw_verdict: reviewed.draw_verdict } : null,
    accepted_codes: acceptance ? acceptance.accepted_codes : null,
    acceptance_revoked_key: given !== undefined && acceptance === undefined ? given.accepted_by : null,
    accepted_finding_ids: acceptance?.finding_ids ?? null,
    accepted_verdict: acceptance ? acceptance.draw_verdict : null,
    acceptance_id: acceptance?.acceptance_id ?? null,
    accepted_fundable_amount: acceptance?.fundable_amount ?? null,
    in_balance: result.adequacy?.in_balance ?? false,
    payment_amount: amountToPay(draw, result.compilation.draw_verdict, result.verdict?.fundable_amount ?? 0),
    funds_left: fundsLeft(project.project, project.input.draws),
    critical_rails: project.rails.critical,
    no_evidence_rails: project.rails.no_evidence,
    rail,
    ...dutiesAt(head, project.input.documents, accounts, isoDate(now)),
  };
  return { gateContext, rail, accounts };
}

/** What a payment push of a draw would meet at this head (read-only: nothing is recorded). */
export interface DrawGates {
  draw_id: string;
  project_id: string;
  status: Draw['status'];
  rail: PushRail;
  draw_verdict: DrawVerdict;
  fundable: boolean;
  gates: GateResult[];
}

/**
 * The payment gate of one of the org's draws as a push decided now would evaluate it — the same
 * compilation, the same context, the same `evaluateGates` — without recording anything. Null for
 * an unknown draw or another org's.
 */
export function drawGatesAt(
  head: GovernanceHead,
  org_id: string,
  draw_id: string,
  now: Date,
  rail: PushRail | null = null,
): DrawGates | null {
  const found = drawAt(head, org_id, draw_id, now);
  if (!found) return null;
  const compiled = recordCompilation(
    head,
    found.ctx,
    found.draw,
    now,
    companionEventId(`gates-query/${draw_id}`, 'compile'),
  );
  const { gateContext, rail: chosen } = gateContextAt(head, found, compiled, rail, org_id, now);
  const gates = evaluateGates(PROFILES[found.ctx.project.profile], gateContext);
  return {
    draw_id: found.draw.id,
    project_id: found.draw.project_id,
    status: found.draw.status,
    rail: chosen,
    draw_verdict: compiled.result.compilation.draw_verdict,
    fundable: found.draw.status !== 'FUNDED' && found.draw.status !== 'REJECTED' && gatesPassed(gates),
    gates,
  };
}

export interface PushPayment {
  type: 'PushPayment';
  draw_id: string;
  rail?: string | undefined;
}

export function decidePushPayment(
  head: GovernanceHead,
  command: PushPayment,
  ctx: GovernanceCtx,
): GovernanceDecided {
  const found = drawAt(head, ctx.org_id, command.draw_id, ctx.now);
  if (!found) return rejected('NOT_FOUND', `no draw ${command.draw_id}`);
  const { ctx: project, draw } = found;
  const profile = PROFILES[project.project.profile];
  const named = checkRail(profile, command.rail);
  if (!named.ok)
    return rejected('INVALID_REQUEST', named.message, {
      errors: [{ path: 'rail', code: 'invalid_value', message: named.message }],
    });
  if (draw.status === 'FUNDED')
    return rejected('CONFLICT', `${draw.id} is already funded (${draw.payment_id ?? 'payment recorded'})`);
  if (draw.status === 'REJECTED')
    return rejected('CONFLICT', `${draw.id} was rejected; submit a new application`);

  const compiled = recordCompilation(head, project, draw, ctx.now, companionEventId(ctx.eventId, 'compile'));
  const { result } = compiled;
  const { gateContext, rail, accounts } = gateContextAt(
    head,
    found,
    compiled,
    command.rail === undefined ? null : named.rail,
    ctx.org_id,
    ctx.now,
  );
  const today = isoDate(ctx.now);
  const gates = evaluateGates(profile, gateContext);

  if (!gatesPassed(gates)) {
    const blocked = {
      draw_id: draw.id,
      project_id: draw.project_id,
      rail,
      gates,
      compilation_id: compiled.compilation_id,
      draw_verdict: result.compilation.draw_verdict,
      attempted_on: today,
    };
    const recorded = recordResult({
      type: 'PaymentPushBlocked',
      stream: drawStream(draw.id),
      eventId: ctx.eventId,
      payload: blocked,
      kind: 'payment_blocked',
      data: (r) => ({ ...blocked, ...r }),
    });
    const failing = gates.filter((g) => !g.passed);
    return {
      ok: false,
      error: {
        code: 'GATE_UNMET',
        detail: `${failing.length} of ${gates.length} payment gates are not met: ${failing.map((g) => g.gate).join(', ')}`,
        extras: { gates },
      },
      events: [...compiled.events, recorded.event],
    };
  }

  const payment_id = idFromUuid('PAY-', ctx.eventId);
  const payment: PaymentPushedPayload = {
    payment_id,
    draw_id: draw.id,
    project_id: draw.project_id,
    amount: gateContext.payment_amount,
    rail,
    message_id: `MSG-${payment_id.slice(4)}`,
    funded_on: today,
    compilation_id: compiled.compilation_id,
    draw_verdict: result.compilation.draw_verdict,
    basis: {
      compilation_hash: compiled.payload_hash,
      application_sha256: drawApplicationSha256(draw),
      acceptance_id:
        result.compilation.draw_verdict === 'FUNDABLE' ? null : (gateContext.acceptance_id ?? null),
      current_payment_due: draw.summary.current_payment_due,
      fundable_amount: result.verdict?.fundable_amount ?? 0,
      gates,
    },
    instruction: {
      created_at: ctx.now.toISOString(),
      requested_execution_date: today,
      // The gate passed: both accounts exist and their numbers are in the vault (masked here).
      debtor: partyOfAccount(accounts.debtor!.holder_name, accounts.debtor!),
      // ESCROW: a book transfer to the lender's escrow account in the GC's favour.
      creditor: partyOfAccount(accounts.creditor!.holder_name, accounts.creditor!),
      payment_type: paymentTypeOf(rail),
      currency: 'USD',
      end_to_end_id: draw.id,
      remittance_info: `Draw ${draw.application_no} ${draw.id} on ${project.project.name}`,
    },
  };
  const view = { payment: paymentView(payment) };
  const recorded = recordResult({
    type: 'PaymentPushed',
    stream: drawStream(draw.id),
    eventId: ctx.eventId,
    payload: view,
    kind: 'payment',
    extraArtifacts: [
      {
        kind: 'payment_instruction',
        hash: sha256Hex(instructionOf(payment, (id) => head.revealAccount(id))),
      },
    ],
    data: (r) => ({ ...payment, ...r }),
  });
  return accepted([...compiled.events, recorded.event], view);
}

/** The accounts a payment on `rail` would use: the lender's disbursement account, and the GC's (ESCROW: the lender's escrow account). */
export interface PaymentAccounts {
  debtor: BankAccount | null;
  creditor: BankAccount | null;
}

export function paymentAccounts(
  head: GovernanceHead,
  org_id: string,
  payee: string,
  rail: PushRail,
): PaymentAccounts {
  return {
    debtor: currentAccount(head.accounts, org_id, 'DISBURSEMENT'),
    creditor:
      rail === 'ESCROW'
        ? currentAccount(head.accounts, org_id, 'ESCROW')
        : currentAccount(head.accounts, org_id, 'PAYEE', payee),
  };
}

/**
 * What the gates read at the head beyond the compilation (docs/duties.md): signers, document
 * signatures, notarial acts and the payment's accounts — one place, so the push and a read-only
 * view of the gates build the same `GateContext`.
 */
export function dutiesAt(
  head: GovernanceHead,
  documents: readonly { id: string }[],
  accounts: { debtor: BankAccount | null; creditor: BankAccount | null },
  today: string,
): Pick<
  GateContext,
  | 'notarized_document_ids'
  | 'signers'
  | 'document_signatures'
  | 'notarial_acts'
  | 'debtor_account'
  | 'creditor_account'
  | 'today'
> {
  const forGate = (a: BankAccount | null): AccountForGate | null =>
    a === null
      ? null
      : {
          id: a.id,
          purpose: a.purpose,
          registered_at: a.registered_at,
          registered_by: a.registered_by,
          // A key revoked since (lost, compromised, its holder gone) no longer vouches for an account.
          reverified_by: a.reverifications.filter((r) => !head.keyRevoked(r.by)).map((r) => r.by),
          erased: a.erased || head.revealAccount(a.id) === null,
        };
  const notarizations = head.governance.notarizations_by_document;
  return {
    // These documents' alone (the gates ask of no other): every notarized document id of the ledger
    // was read for each push, 15,312 keys at 100k events.
    notarized_document_ids: new Set(
      documents.filter((d) => (notarizations[d.id]?.length ?? 0) > 0).map((d) => d.id),
    ),
    signers: head.signers.signers,
    document_signatures: head.projects.document_signatures ?? {},
    notarial_acts: notarialActsByDocument(
      head,
      documents.map((d) => d.id),
    ),
    debtor_account: forGate(accounts.debtor),
    creditor_account: forGate(accounts.creditor),
    today,
  };
}

/** The notarial acts recorded at the head for these documents, by document id. */
export function notarialActsByDocument(
  head: GovernanceHead,
  document_ids: readonly string[],
): Record<string, NotarialActRecord[]> {
  const out: Record<string, NotarialActRecord[]> = {};
  for (const document_id of document_ids) {
    const ids = head.governance.notarizations_by_document[document_id] ?? [];
    const acts = ids.flatMap((id) => {
      const act = head.governance.notarizations[id]?.act;
      return act === undefined || act === null ? [] : [act];
    });
    if (acts.length > 0) out[document_id] = acts;
  }
  return out;
}

/** SPEC §6 201 body `payment`. */
export function paymentView(payment: PaymentPushedPayload): {
  id: string;
  draw_id: string;
  amount: Cents;
  rail: PushRail;
  status: 'SUBMITTED';
  instruction: { format: 'pain.001'; message_id: string };
} {
  return {
    id: payment.payment_id,
    draw_id: payment.draw_id,
    amount: payment.amount,
    rail: payment.rail,
    status: 'SUBMITTED',
    instruction: { format: 'pain.001', message_id: payment.message_id },
  };
}
