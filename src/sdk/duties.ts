/**
 * Signed duties (docs/duties.md): the exact bytes a signer signs, shared by the server (which
 * verifies) and the SDK (which signs with WebCrypto), so every signer of a draw signs the same
 * bytes. Three documents, each a JSON object with a `format` tag:
 *
 * - a draw: `drawSigningDocument(draw)` — the G702/G703 application as the service computed it
 *   (`GET /api/draws/:id`): ids, period, stated and derived G703 columns of every line, the G702
 *   summary, retainage, requested amount and invoices. Not its status, signatures or funding;
 * - a lien waiver: `waiverSigningDocument(waiver)` — the waiver's stated terms (`GET /api/documents/:id`);
 * - a notarial act: `notarialActDocument(act)` — notary, commission, act type and date, the signer
 *   who appeared and the document's SHA-256.
 *
 * The message signed is the 32-byte SHA-256 of the document's RFC 8785 (JCS) canonical UTF-8
 * bytes; the signature is Ed25519 (RFC 8032) over those 32 bytes, in standard padded base64, as
 * is the 32-byte raw public key. Browser-safe: WebCrypto and `canonicalize`, no node: imports.
 */
import canonicalize from 'canonicalize';
import { bytesToHex, fromBase64, toBase64, utf8 } from './bytes.js';

export const DRAW_SIGNING_FORMAT = 'plumbline/draw-application/v1';
export const WAIVER_SIGNING_FORMAT = 'plumbline/lien-waiver/v1';
export const NOTARIAL_ACT_FORMAT = 'plumbline/notarial-act/v1';

/** The fields of a draw (as `GET /api/draws/:id` answers it) that are signed. */
export interface SignableDraw {
  id: string;
  project_id: string;
  application_no: number;
  period_from: string;
  period_to: string;
  submitted_on: string;
  retainage_pct: number;
  retainage_withheld: number;
  previous_certificates_total: number;
  requested_amount: number;
  invoices: readonly string[];
  lines: readonly {
    line: number;
    description: string;
    scheduled_value: number;
    previous: number;
    this_period: number;
    stored_materials: number;
    completed_and_stored: number;
    percent_complete: number;
    balance_to_finish: number;
    retainage: number;
  }[];
  summary: {
    original_contract_sum: number;
    net_change_orders: number;
    contract_sum_to_date: number;
    total_completed_and_stored: number;
    retainage: number;
    total_earned_less_retainage: number;
    previous_certificates: number;
    current_payment_due: number;
    balance_to_finish_including_retainage: number;
  };
}

export function drawSigningDocument(draw: SignableDraw): Record<string, unknown> {
  const s = draw.summary;
  return {
    format: DRAW_SIGNING_FORMAT,
    draw_id: draw.id,
    project_id: draw.project_id,
    application_no: draw.application_no,
    period_from: draw.period_from,
    period_to: draw.period_to,
    submitted_on: draw.submitted_on,
    retainage_pct: draw.retainage_pct,
    retainage_withheld: draw.retainage_withheld,
    previous_certificates_total: draw.previous_certificates_total,
    requested_amount: draw.requested_amount,
    invoices: [...draw.invoices],
    lines: draw.lines.map((l) => ({
      line: l.line,
      description: l.description,
      scheduled_value: l.scheduled_value,
      previous: l.previous,
      this_period: l.this_period,
      stored_materials: l.stored_materials,
      completed_and_stored: l.completed_and_stored,
      percent_complete: l.percent_complete,
      balance_to_finish: l.balance_to_finish,
      retainage: l.retainage,
    })),
    summary: {
      original_contract_sum: s.original_contract_sum,
      net_change_orders: s.net_change_orders,
      contract_sum_to_date: s.contract_sum_to_date,
      total_completed_and_stored: s.total_completed_and_stored,
      retainage: s.retainage,
      total_earned_less_retainage: s.total_earned_less_retainage,
      previous_certificates: s.previous_certificates,
      current_payment_due: s.current_payment_due,
      balance_to_finish_including_retainage: s.balance_to_finish_including_retainage,
    },
  };
}

/** The fields of a lien waiver (as `GET /api/documents/:id` answers it) that are signed. */
export interface SignableWaiver {
  id: string;
  project_id: string;
  claimant: string;
  draw_id: string;
  waiver_type: string;
  amount: number;
  through_date: string;
  exceptions: readonly { description: string; amount: number | null }[];
}

export function waiverSigningDocument(waiver: SignableWaiver): Record<string, unknown> {
  return {
    format: WAIVER_SIGNING_FORMAT,
    document_id: waiver.id,
    project_id: waiver.project_id,
    claimant: waiver.claimant,
    draw_id: waiver.draw_id,
    waiver_type: waiver.waiver_type,
    amount: waiver.amount,
    through_date: waiver.through_date,
    exceptions: waiver.exceptions.map((e) => ({ description: e.description, amount: e.amount })),
  };
}

/** What a notary signs for an act (the notary's commission as enrolled, the act, the document). */
export interface NotarialActTerms {
  notary_signer_id: string;
  notary_name: string;
  commission_number: string;
  commission_state: string;
  commission_expires_on: string;
  act_type: 'acknowledgment' | 'jurat';
  act_date: string;
  /** The signer (`sgn_…`) who appeared before the notary. */
  appeared_signer_id: string;
  document_id: string;
  /** SHA-256 (hex) of the document's canonical JSON: the notarization's `multi_hash.sha256`. */
  document_sha256: string;
}

export function notarialActDocument(act: NotarialActTerms): Record<string, unknown> {
  return {
    format: NOTARIAL_ACT_FORMAT,
    notary_signer_id: act.notary_signer_id,
    notary_name: act.notary_name,
    commission_number: act.commission_number,
    commission_state: act.commission_state,
    commission_expires_on: act.commission_expires_on,
    act_type: act.act_type,
    act_date: act.act_date,
    appeared_signer_id: act.appeared_signer_id,
    document_id: act.document_id,
    document_sha256: act.document_sha256,
  };
}

/** The canonical UTF-8 text of a signing document (RFC 8785). */
export function signingText(document: Record<string, unknown>): string {
  const text = canonicalize(document);
  if (text === undefined) throw new TypeError('the document has no canonical JSON form');
  return text;
}

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (s === undefined)
    throw new Error('WebCrypto is unavailable (a browser needs a secure context: https or localhost)');
  return s;
}

/** SHA-256 of the document's canonical bytes: the 32-byte message every signer signs. */
export async function signingDigest(document: Record<string, unknown>): Promise<Uint8Array> {
  const digest = await subtle().digest('SHA-256', utf8(signingText(document)) as Uint8Array<ArrayBuffer>);
  return new Uint8Array(digest);
}

export async function signingDigestHex(document: Record<string, unknown>): Promise<string> {
  return bytesToHex(await signingDigest(document));
}

/** Signs a signing document: base64 Ed25519 signature over its SHA-256. */
export async function signDocument(
  privateKey: CryptoKey,
  document: Record<string, unknown>,
): Promise<string> {
  const digest = await signingDigest(document);
  const signature = await subtle().sign({ name: 'Ed25519' }, privateKey, digest as Uint8Array<ArrayBuffer>);
  return toBase64(new Uint8Array(signature));
}

/** `signDraw(privateKey, draw)`: the signature `POST /api/draws/:id/signatures` expects. */
export const signDraw = (privateKey: CryptoKey, draw: SignableDraw): Promise<string> =>
  signDocument(privateKey, drawSigningDocument(draw));

/** The signature `POST /api/documents/:id/signatures` expects for a lien waiver. */
export const signWaiver = (privateKey: CryptoKey, waiver: SignableWaiver): Promise<string> =>
  signDocument(privateKey, waiverSigningDocument(waiver));

/** A notary's signature over an act (`POST /api/notarization` with `act`). */
export const signNotarialAct = (privateKey: CryptoKey, act: NotarialActTerms): Promise<string> =>
  signDocument(privateKey, notarialActDocument(act));

/** Verifies a base64 signature over a signing document with a base64 raw public key. */
export async function verifyDocumentSignature(
  publicKeyBase64: string,
  document: Record<string, unknown>,
  signatureBase64: string,
): Promise<boolean> {
  const publicKey = fromBase64(publicKeyBase64);
  const signature = fromBase64(signatureBase64);
  if (publicKey === null || publicKey.length !== 32 || signature === null || signature.length !== 64)
    return false;
  const s = subtle();
  const key = await s.importKey('raw', publicKey as Uint8Array<ArrayBuffer>, { name: 'Ed25519' }, false, [
    'verify',
  ]);
  const digest = await signingDigest(document);
  return s.verify(
    { name: 'Ed25519' },
    key,
    signature as Uint8Array<ArrayBuffer>,
    digest as Uint8Array<ArrayBuffer>,
  );
}

/** A new Ed25519 key pair (extractable, so the CLI can store it) and its raw public key in base64. */
export async function generateSignerKey(): Promise<{ keyPair: CryptoKeyPair; publicKey: string }> {
  const s = subtle();
  const keyPair = await s.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
  const raw = new Uint8Array(await s.exportKey('raw', keyPair.publicKey));
  return { keyPair, publicKey: toBase64(raw) };
}
