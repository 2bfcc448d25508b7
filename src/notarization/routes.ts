/**
 * Notarization (SPEC §6): three digests over the JCS of a recorded document of the caller's org, in
 * a US jurisdiction; recorded as an event whose artifacts are the payload hash and each digest,
 * so audit-verify recognizes any of them.
 */
import { z } from 'zod';
import { projectsProjection } from '../../projections/projects.js';
import { authOf } from '../platform/http/context.js';
import { runCommand } from '../platform/http/command.js';
import { ProblemError } from '../platform/http/problem.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { idFromUuid } from '../platform/ids.js';
import { DOCUMENT_TYPES } from '../projects/facts.js';
import { getDocument } from '../projects/queries.js';
import {
  governanceEvent,
  payloadHash,
  projectStream,
  type DocumentNotarizedData,
} from '../governance/events.js';
import { asPlatformMultiHash, notarize } from './notarize.js';

export const NotarizeBody = z.strictObject({
  action: z.literal('notarize'),
  document_type: z.enum(DOCUMENT_TYPES),
  document_id: z.string().min(1).max(80),
  jurisdiction: z.string().regex(/^[A-Za-z]{2}$/, 'a two-letter US state or territory code'),
});

export function mountNotarization(s: Service): void {
  s.routes.add(
    'POST',
    '/api/notarization',
    ...projectGuard(s, 'governance:write', { appends: true }),
    async (req, res) => {
      const body = parseWith(NotarizeBody, req.body);
      const org = authOf(req).org_id;
      const committed = await runCommand(s.ledger, req, (_head, eventId) => {
        const document = getDocument(s.runtime.state(projectsProjection), org, body.document_id);
        if (!document) throw new ProblemError('NOT_FOUND', `no document ${body.document_id}`);
        const notarized_at = s.clock.now().toISOString();
        const result = notarize(document, {
          jurisdiction: body.jurisdiction.toUpperCase(),
          notarized_at,
          document_type: body.document_type,
        });
        if (!result.ok) {
          if (result.error.code === 'UNKNOWN_JURISDICTION') {
            throw new ProblemError('INVALID_REQUEST', result.error.message, {
              errors: [{ path: 'jurisdiction', code: 'invalid_value', message: result.error.message }],
            });
          }
          throw new ProblemError('NOT_FOUND', `no ${body.document_type} ${body.document_id}`);
        }
        const v = result.value;
        const notarization_id = idFromUuid('NOT-', eventId);
        const payload = {
          notarization_id,
          document_type: v.document_type,
          document_id: v.document_id,
          jurisdiction: v.jurisdiction,
          notarized_at: v.notarized_at,
          multi_hash: v.multi_hash,
        };
        const hash = payloadHash(payload);
        const data: DocumentNotarizedData = {
          notarization_id,
          document_id: v.document_id,
          document_type: v.document_type,
          project_id: v.project_id,
          jurisdiction: v.jurisdiction,
          notarized_at: v.notarized_at,
          multi_hash: asPlatformMultiHash(v.multi_hash),
          payload_hash: hash,
          artifacts: [
            { kind: 'notarization', hash },
            { kind: 'notarization', hash: v.multi_hash.sha256 },
            { kind: 'notarization', hash: v.multi_hash.sha3 },
            { kind: 'notarization', hash: v.multi_hash.blake2b },
          ],
        };
        return {
          events: [governanceEvent('DocumentNotarized', projectStream(v.project_id), data, eventId)],
          result: payload,
        };
      });
      const event = committed.events[0]!;
      res.status(201).json({ ...committed.result, ledger: { seq: event.seq, hash: event.hash } });
    },
  );
}
