/**
 * The notarization decider (SPEC §6, ARCHITECTURE §5): digests of one of the caller's recorded
 * documents as it stands at the ledger head, in a US jurisdiction; recorded with the payload hash
 * and each digest as artifacts, so audit-verify recognizes any of them.
 */
import { idFromUuid } from '../platform/ids.js';
import type { DocumentType } from '../projects/facts.js';
import { getDocument } from '../projects/queries.js';
import { projectStream } from '../governance/events.js';
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
  const notarization_id = idFromUuid('NOT-', ctx.eventId);
  const payload = {
    notarization_id,
    document_type: v.document_type,
    document_id: v.document_id,
    jurisdiction: v.jurisdiction,
    notarized_at: v.notarized_at,
    multi_hash: v.multi_hash,
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
      ...r,
    }),
  });
  return accepted([recorded.event], payload, 0, 'ledger');
}
