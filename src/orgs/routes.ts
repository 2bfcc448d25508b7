/**
 * Key and org administration over HTTP (issue 17; docs/production.md):
 * - `/api/admin/orgs`, `/api/admin/keys` — the platform operator's `platform:admin` scope;
 * - `/api/keys` — a tenant's `admin` key, for its own org only.
 * Routes parse, call the deciders in admin.ts at the head, and answer. A new key and its signing
 * secret appear once, in the 201 that created them; that answer is never stored for Idempotency-Key
 * replay (a replay of the same key answers 409 naming the key id instead).
 */
import type { Request } from 'express';
import { keys as keysProjection } from '../../projections/keys.js';
import type { ApiKeyScope } from '../platform/crypto/api-key.js';
import { runCommand } from '../platform/http/command.js';
import { authOf } from '../platform/http/context.js';
import { TRANSIENT_ANSWER } from '../platform/http/errors.js';
import { ProblemError } from '../platform/http/problem.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import type { ServerSecrets } from '../platform/secrets.js';
import {
  decideIssueKeyAs,
  decideRegisterOrg,
  decideRevokeKeyAs,
  listKeys,
  listOrgs,
  type KeyAdmin,
} from './admin.js';
import {
  CreateKeyBody,
  CreateOrgBody,
  CreateOwnKeyBody,
  KeyListQuery,
  KeyParams,
  OwnKeyListQuery,
  RevokeKeyBody,
} from './contract.js';

/** The operator's scope for org and key administration (a platform scope: no tenant holds it). */
export const PLATFORM_ADMIN_SCOPE: ApiKeyScope = 'platform:admin';

export function mountKeyAdmin(s: Service, secrets: ServerSecrets): void {
  const state = () => s.runtime.state(keysProjection);
  const asAdmin = (req: Request, platform: boolean): KeyAdmin => {
    const auth = authOf(req);
    return { org_id: auth.org_id, scopes: auth.scopes, platform };
  };

  s.routes.add('GET', '/api/admin/orgs', ...projectGuard(s, PLATFORM_ADMIN_SCOPE), (_req, res) => {
    res.json({ data: listOrgs(state()) });
  });
  s.routes.add(
    'POST',
    '/api/admin/orgs',
    ...projectGuard(s, PLATFORM_ADMIN_SCOPE, { appends: true }),
    async (req, res) => {
      const body = parseWith(CreateOrgBody, req.body);
      const committed = await runCommand(s.ledger, req, (_head, eventId) =>
        decideRegisterOrg(state(), body.name, eventId),
      );
      const org = state().orgs[committed.result.org_id];
      res.status(201).json({
        ...committed.result,
        registered_at: org?.registered_at ?? committed.events[0]!.recorded_at,
        platform_operator: false,
        seq: committed.events[0]!.seq,
      });
    },
  );

  for (const platform of [true, false]) {
    const base = platform ? '/api/admin/keys' : '/api/keys';
    const scope = platform ? PLATFORM_ADMIN_SCOPE : 'admin';
    s.routes.add('GET', base, ...projectGuard(s, scope), (req, res) => {
      // The operator may narrow to one org; a tenant's list is its own org's, so it takes no query.
      let org_id: string | undefined;
      if (platform) org_id = parseWith(KeyListQuery, req.query, 'query').org_id;
      else parseWith(OwnKeyListQuery, req.query, 'query');
      res.json({ data: listKeys(state(), asAdmin(req, platform), org_id) });
    });
    s.routes.add('POST', base, ...projectGuard(s, scope, { appends: true }), async (req, res) => {
      const admin = asAdmin(req, platform);
      const body = platform
        ? parseWith(CreateKeyBody, req.body)
        : { ...parseWith(CreateOwnKeyBody, req.body), org_id: admin.org_id };
      // The secret is in this answer only: never remembered for an Idempotency-Key replay.
      res.locals[TRANSIENT_ANSWER] = true;
      const committed = await runCommand(s.ledger, req, (_head, eventId) =>
        decideIssueKeyAs(state(), admin, {
          org_id: body.org_id,
          scopes: body.scopes,
          mode: body.mode,
          label: body.label,
          event_id: eventId,
          pepper: secrets.keyPepper,
          signingKey: secrets.signingKey,
        }),
      );
      if (committed.duplicate) {
        const issued = committed.events.find((e) => e.type === 'ApiKeyIssued');
        const keyId = (issued?.data as { key_id?: string } | undefined)?.key_id ?? 'unknown';
        throw new ProblemError(
          'CONFLICT',
          `this Idempotency-Key already issued key ${keyId}; its secret was shown once, in that answer`,
          { key_id: keyId },
        );
      }
      res.status(201).json({
        ...committed.result,
        mode: body.mode,
        label: body.label ?? null,
        seq: committed.events[committed.events.length - 1]!.seq,
      });
    });
    s.routes.add(
      'POST',
      `${base}/:id/revoke`,
      ...projectGuard(s, scope, { appends: true }),
      async (req, res) => {
        const keyId = parseWith(KeyParams, req.params, 'params').id;
        const body = parseWith(RevokeKeyBody, req.body ?? {});
        const committed = await runCommand(s.ledger, req, () =>
          decideRevokeKeyAs(state(), asAdmin(req, platform), keyId, body.reason ?? null),
        );
        const event = committed.events[0]!;
        res.status(200).json({ key_id: keyId, revoked_at: event.recorded_at, seq: event.seq });
      },
    );
  }
}
