/**
 * A construction draw that passes every gate: application 2 (claimants GC + SUB) compiled
 * FUNDABLE at the head, three signatures by distinct enrolled signers of the GC, the architect and
 * the lender over the draw's application, conditional waivers for draw 2 and unconditional ones
 * for funded draw 1, all executed by their claimant's signer and notarized, in balance, no
 * CRITICAL rail. Keys are real Ed25519 keys (node:crypto), generated once per run.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type {
  Document,
  DocumentSignature,
  Draw,
  LienWaiver,
  Signature,
} from '../../../src/projects/facts.js';
import type { AccountForGate, GateContext } from '../../../src/payments/index.js';
import type { NotarialActRecord } from '../../../src/governance/events.js';
import { fundsLeft } from '../../../src/governance/adequacy.js';
import { canonicalJson } from '../../../src/platform/ledger/canonical.js';
import { signingDigestHex } from '../../../src/platform/crypto/ed25519.js';
import {
  drawSigningDocument,
  notarialActDocument,
  waiverSigningDocument,
  type Signer,
  type SignerCapacity,
} from '../../../src/signers/index.js';
import { aDraw, aFundedFirstDraw, aProject, aWaiver, GC, SUB } from '../compile/fixtures.js';

export const DRAW_2 = 'DRW-secondsecondseco';
export const DRAW_1 = 'DRW-firstfirstfirstf';
export const ARCH = 'ent_archarcharcharch';

export interface TestSigner {
  signer: Signer;
  privateKey: KeyObject;
}

let n = 0;
export function aSigner(capacity: SignerCapacity, entity_id: string | null, org_id = 'org_test'): TestSigner {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  n += 1;
  const id = `sgn_${String(n)
    .padStart(16, 'a')
    .replace(/[0-9]/g, (d) => 'bcdefghijk'[Number(d)]!)}`;
  return {
    privateKey,
    signer: {
      id,
      org_id,
      name: `${capacity} signer ${n}`,
      capacity,
      entity_id,
      commission: null,
      status: 'ENROLLED',
      invited_at: '2026-03-01T00:00:00.000Z',
      invited_by: 'key_lender',
      invitation_expires_at: '2026-03-08T00:00:00.000Z',
      token_sha256: `${n}`.padStart(64, '0'),
      key: {
        key_id: `sk_${id.slice(4)}`,
        public_key: raw.toString('base64'),
        enrolled_at: '2026-03-01T00:00:00.000Z',
      },
      revoked_at: null,
      revoke_reason: null,
    },
  };
}

/** Ed25519 over SHA-256 of the document's JCS bytes (docs/duties.md), by node:crypto. */
export const signDoc = (key: KeyObject, document: Record<string, unknown>): string =>
  sign(null, Buffer.from(signingDigestHex(document), 'hex'), key).toString('base64');

export const SIGNERS = {
  Contractor: aSigner('Contractor', GC),
  Architect: aSigner('Architect', ARCH),
  Lender: aSigner('Lender', null),
  Sub: aSigner('Claimant', SUB),
  Notary: aNotary({ number: 'CA-2299001', state: 'CA', expires_on: '2027-12-31' }),
};

export function aNotary(commission: { number: string; state: string; expires_on: string }): TestSigner {
  const notary = aSigner('Notary', null);
  return { ...notary, signer: { ...notary.signer, commission } };
}

/** The notary's act over the recorded document, with the claimant's signer appearing. */
export function notarialAct(
  document: Document,
  appeared: TestSigner,
  notary: TestSigner = SIGNERS.Notary,
  act_date = '2026-03-04',
): NotarialActRecord {
  const c = notary.signer.commission!;
  const terms = {
    notary_signer_id: notary.signer.id,
    notary_name: notary.signer.name,
    commission_number: c.number,
    commission_state: c.state,
    commission_expires_on: c.expires_on,
    act_type: 'acknowledgment' as const,
    act_date,
    appeared_signer_id: appeared.signer.id,
    document_id: document.id,
    document_sha256: signingDigestHexOfText(canonicalJson(document)),
  };
  return {
    ...terms,
    key_id: notary.signer.key!.key_id,
    signature: signDoc(notary.privateKey, notarialActDocument(terms)),
  };
}

function signingDigestHexOfText(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Every waiver notarized by an act where its claimant's signer appeared. */
export function notarizedByAct(docs: readonly Document[]): Record<string, NotarialActRecord[]> {
  const out: Record<string, NotarialActRecord[]> = {};
  for (const d of docs)
    if (d.type === 'LIEN_WAIVER')
      out[d.id] = [notarialAct(d, d.claimant === GC ? SIGNERS.Contractor : SIGNERS.Sub)];
  return out;
}

export function drawSignature(draw: Draw, role: Signature['role'], who: TestSigner, seq: number): Signature {
  const document = drawSigningDocument(draw);
  return {
    role,
    signer_name: who.signer.name,
    signed_on: '2026-03-04',
    attestation: 'ED25519',
    signer_id: who.signer.id,
    key_id: who.signer.key!.key_id,
    application_sha256: signingDigestHex(document),
    signature: signDoc(who.privateKey, document),
    recorded_at: '2026-03-04T00:00:00.000Z',
    recorded_seq: seq,
  };
}

export function waiverSignature(waiver: LienWaiver, who: TestSigner, seq = 30): DocumentSignature {
  const document = waiverSigningDocument(waiver);
  return {
    document_id: waiver.id,
    signer_id: who.signer.id,
    key_id: who.signer.key!.key_id,
    signer_name: who.signer.name,
    document_sha256: signingDigestHex(document),
    signature: signDoc(who.privateKey, document),
    signed_on: '2026-03-04',
    recorded_at: '2026-03-04T00:00:00.000Z',
    recorded_seq: seq,
  };
}

export function waivers(): LienWaiver[] {
  return [
    aWaiver('WAIV-condgcgcgcgcgcgc', GC, DRAW_2, 'CONDITIONAL_PROGRESS'),
    aWaiver('WAIV-condsubsubsubsub', SUB, DRAW_2, 'CONDITIONAL_PROGRESS'),
    aWaiver('WAIV-uncogcgcgcgcgcgc', GC, DRAW_1, 'UNCONDITIONAL_PROGRESS'),
    aWaiver('WAIV-uncosubsubsubsub', SUB, DRAW_1, 'UNCONDITIONAL_PROGRESS'),
  ];
}

/** Every waiver executed by its claimant's signer. */
export function executedBySignature(docs: readonly Document[]): Record<string, DocumentSignature[]> {
  const out: Record<string, DocumentSignature[]> = {};
  for (const d of docs)
    if (d.type === 'LIEN_WAIVER')
      out[d.id] = [waiverSignature(d, d.claimant === GC ? SIGNERS.Contractor : SIGNERS.Sub)];
  return out;
}

export const signersById = (...who: TestSigner[]): Record<string, Signer> =>
  Object.fromEntries(who.map((w) => [w.signer.id, w.signer]));

export function signedDraw(draw: Draw = aDraw()): Draw {
  return {
    ...draw,
    signatures: [
      drawSignature(draw, 'Contractor', SIGNERS.Contractor, 12),
      drawSignature(draw, 'Architect', SIGNERS.Architect, 13),
      drawSignature(draw, 'Lender', SIGNERS.Lender, 14),
    ],
  };
}

export function anAccount(
  id: string,
  purpose: AccountForGate['purpose'],
  registered_at: string,
  extra: Partial<AccountForGate> = {},
): AccountForGate {
  return {
    id,
    purpose,
    registered_at,
    registered_by: 'key_first',
    reverified_by: [],
    erased: false,
    ...extra,
  };
}

export function passingContext(overrides: Partial<GateContext> = {}): GateContext {
  const draw = signedDraw();
  const documents = waivers();
  const project = aProject({ architect: ARCH });
  const draws = [aFundedFirstDraw(), draw];
  return {
    project,
    draw,
    draws,
    documents,
    compilation: {
      draw_verdict: 'FUNDABLE',
      reasons: [],
      findings: [],
      fundable_amount: draw.summary.current_payment_due,
      pral: 'RELEASE',
      pral_rationale: ['GC eligibility RELEASE'],
    },
    reviewed: { seq: 25, draw_verdict: 'FUNDABLE' },
    accepted_codes: null,
    accepted_finding_ids: null,
    accepted_verdict: null,
    accepted_fundable_amount: null,
    in_balance: true,
    payment_amount: draw.summary.current_payment_due,
    funds_left: fundsLeft(project, draws),
    rail: 'ACH',
    notarized_document_ids: new Set(documents.map((d) => d.id)),
    critical_rails: [],
    no_evidence_rails: [],
    signers: signersById(SIGNERS.Contractor, SIGNERS.Architect, SIGNERS.Lender, SIGNERS.Sub, SIGNERS.Notary),
    document_signatures: executedBySignature(documents),
    notarial_acts: notarizedByAct(documents),
    debtor_account: anAccount('acct_disbursementdis', 'DISBURSEMENT', '2026-01-05T00:00:00.000Z'),
    creditor_account: anAccount('acct_gcgcgcgcgcgcgcgc', 'PAYEE', '2026-01-05T00:00:00.000Z'),
    today: '2026-03-06',
    ...overrides,
  };
}
