/**
 * The notarization decider (SPEC §6, ARCHITECTURE §5): digests of one of the caller's recorded
 * documents as it stands at the ledger head, in a US jurisdiction; recorded with the payload hash
 * and each digest as artifacts, so audit-verify recognizes any of them.
 */
import { idFromUuid } from '../platform/ids.js';
import { isoDate } from '../platform/clock.js';
import type { Document, DocumentType, IsoDate } from '../projects/facts.js';
import { getDocument } from '../projects/queries.js';
import { projectStream, type NotarialActRecord, type NotarizationStatus } from '../governance/events.js';
import {
  activeKeyOf,
  getSigner,
  notarialActDocument,
  signedBy,
  type NotarialActTerms,
} from '../signers/index.js';
import type { GovernanceHead } from '../governance/head.js';
import {
  accepted,
  recordResult,
  rejected,
  type GovernanceCtx,
  type GovernanceDecided,
} from '../governance/record.js';
import { asPlatformMultiHash, notarize } from './notarize.js';

export interface NotarizeDocument {
  type: 'NotarizeDocument';
  document_type: DocumentType;
  document_id: string;
  jurisdiction: string;
  /** A notarial act (docs/duties.md); absent = the seed's bare hash stamp (HASH_STAMPED). */
  act?: NotarialActClaim | undefined;
}

/** What the caller states of an act; the notary's identity and commission come from its enrollment. */
export interface NotarialActClaim {
  notary_signer_id: string;
  act_type: 'acknowledgment' | 'jurat';
  act_date: string;
  appeared_signer_id: string;
  signature: string;
}

type ActChecked = { ok: true; act: NotarialActRecord } | { ok: false; decided: GovernanceDecided };

const invalidAct = (message: string, path: string, code: string): ActChecked => ({
  ok: false,
  decided: rejected('INVALID_REQUEST', message, { errors: [{ path: `act.${path}`, code, message }] }),
});

/**
 * The act is checked on receipt: the notary is the org's enrolled Notary signer, the appearing
 * signer is the org's enrolled signer, the jurisdiction is the notary's commissioning state, and
 * the notary's Ed25519 signature verifies over the act's terms (the commission as enrolled and the
 * document's SHA-256), and the act is dated no later than today and, for a lien waiver, not before
 * the waiver was signed. Whether the commission was valid on the act date and fits the project's
 * jurisdiction is the payment gate's question (src/payments/gates.ts): such an act is recorded.
 */
function checkAct(
  head: GovernanceHead,
  org_id: string,
  claim: NotarialActClaim,
  document: Document,
  document_sha256: string,
  jurisdiction: string,
  today: IsoDate,
): ActChecked {
  const document_id = document.id;
  // A notarial act certifies what happened before the notary on its date: a date after today has
  // not happened yet, and an acknowledgment of a waiver's signature cannot precede the signature.
  if (claim.act_date > today)
    return invalidAct(`act_date ${claim.act_date} is after today (${today})`, 'act_date', 'out_of_range');
  if (document.type === 'LIEN_WAIVER' && document.signed_on !== null && claim.act_date < document.signed_on)
    return invalidAct(
      `act_date ${claim.act_date} is before ${document.id} was signed (${document.signed_on})`,
      'act_date',
      'out_of_range',
    );
  const notary = getSigner(head.signers, org_id, claim.notary_signer_id);
  const key = activeKeyOf(notary);
  if (!notary || !key || notary.capacity !== 'Notary' || notary.commission === null)
    return invalidAct(
      `${claim.notary_signer_id} is not an enrolled notary`,
      'notary_signer_id',
      'not_a_notary',
    );
  if (!activeKeyOf(getSigner(head.signers, org_id, claim.appeared_signer_id)))
    return invalidAct(
      `${claim.appeared_signer_id} is not an enrolled signer`,
      'appeared_signer_id',
      'signer_not_enrolled',
    );
  if (notary.commission.state !== jurisdiction)
    return invalidAct(
      `a notary commissioned in ${notary.commission.state} acts in ${notary.commission.state}, not ${jurisdiction}`,
      'notary_signer_id',
      'jurisdiction_mismatch',
    );
  const terms: NotarialActTerms = {
    notary_signer_id: notary.id,
    notary_name: notary.name,
    commission_number: notary.commission.number,
    commission_state: notary.commission.state,
    commission_expires_on: notary.commission.expires_on,
    act_type: claim.act_type,
    act_date: claim.act_date,
    appeared_signer_id: claim.appeared_signer_id,
    document_id,
    document_sha256,
  };
  if (!signedBy(notary, notarialActDocument(terms), claim.signature))
    return invalidAct(
      `not ${key.key_id}'s Ed25519 signature over the act's terms`,
      'signature',
      'signature_invalid',
    );
  return { ok: true, act: { ...terms, key_id: key.key_id, signature: claim.signature } };
}

export function decideNotarize(
  head: GovernanceHead,
  command: NotarizeDocument,
  ctx: GovernanceCtx,
): GovernanceDecided {
  const document = getDocument(head.projects, ctx.org_id, command.document_id);
  if (!document) return rejected('NOT_FOUND', `no document ${command.document_id}`);
  const result = notarize(document, {
    jurisdiction: command.jurisdiction.toUpperCase(),
    notarized_at: ctx.now.toISOString(),
    document_type: command.document_type,
  });
  if (!result.ok) {
    if (result.error.code === 'UNKNOWN_JURISDICTION')
      return rejected('INVALID_REQUEST', result.error.message, {
        errors: [{ path: 'jurisdiction', code: 'invalid_value', message: result.error.message }],
      });
    return rejected('NOT_FOUND', `no ${command.document_type} ${command.document_id}`);
  }
  const v = result.value;
  let act: NotarialActRecord | null = null;
  if (command.act !== undefined) {
    const checked = checkAct(
      head,
      ctx.org_id,
      command.act,
      document,
      v.multi_hash.sha256,
      v.jurisdiction,
      isoDate(ctx.now),
    );
    if (!checked.ok) return checked.decided;
    act = checked.act;
  }
  const status: NotarizationStatus = act === null ? 'HASH_STAMPED' : 'NOTARIAL_ACT';
  const notarization_id = idFromUuid('NOT-', ctx.eventId);
  const payload = {
    notarization_id,
    document_type: v.document_type,
    document_id: v.document_id,
    jurisdiction: v.jurisdiction,
    notarized_at: v.notarized_at,
    multi_hash: v.multi_hash,
    status,
    act,
  };
  const recorded = recordResult({
    type: 'DocumentNotarized',
    stream: projectStream(v.project_id),
    eventId: ctx.eventId,
    payload,
    kind: 'notarization',
    extraArtifacts: [v.multi_hash.sha256, v.multi_hash.sha3, v.multi_hash.blake2b].map((hash) => ({
      kind: 'notarization',
      hash,
    })),
    data: (r) => ({
      notarization_id,
      document_id: v.document_id,
      document_type: v.document_type,
      project_id: v.project_id,
      jurisdiction: v.jurisdiction,
      notarized_at: v.notarized_at,
      multi_hash: asPlatformMultiHash(v.multi_hash),
      status,
      act,
      ...r,
    }),
  });
  return accepted([recorded.event], payload, 0, 'ledger');
}
