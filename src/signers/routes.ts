/**
 * Signers over HTTP (docs/duties.md): thin routes that parse, decide at the head and answer.
 * `POST /api/signers/enroll` is the one route a signer calls itself: it takes no API key, only the
 * one-time enrollment token (counted per client address on the per-minute policy).
 */
import { createHash, createHmac } from 'node:crypto';
import type { Request } from 'express';
import { z } from 'zod';
import { registryProjection } from '../../projections/registry.js';
import { signersProjection } from '../../projections/signers.js';
import { authOf, ctxOf } from '../platform/http/context.js';
import { runCommand } from '../platform/http/command.js';
import { derivedEventId } from '../platform/ids.js';
import { jsonBody } from '../platform/http/middleware.js';
import { ProblemError } from '../platform/http/problem.js';
import { countRequest } from '../platform/http/rate-limit.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { freeText, nameText, parseWith } from '../platform/http/validate.js';
import { isoDate, shortText } from '../projects/contract-primitives.js';
import {
  decideEnrollSigner,
  decideInviteSigner,
  decideRevokeSigner,
  type SignersCtx,
  type SignersDecided,
} from './decide.js';
import { SIGNER_CAPACITIES, getSigner, signerView } from './facts.js';

export const InviteSignerBody = z.strictObject({
  name: shortText,
  capacity: z.enum(SIGNER_CAPACITIES),
  /** The party signed for; absent/null = the lender org itself (Lender, Notary). */
  entity_id: z
    .string()
    .regex(/^ent_[a-z2-7]{16}$/)
    .nullable()
    .optional(),
  commission: z
    .strictObject({
      number: nameText(40),
      state: z.string().regex(/^[A-Z]{2}$/, 'a two-letter US state or territory code'),
      expires_on: isoDate,
    })
    .optional(),
});
export const EnrollSignerBody = z.strictObject({
  token: z.string().regex(/^plenr_[A-Za-z0-9_-]{43}$/, 'an enrollment token (plenr_…)'),
  public_key: z.string().min(1).max(100),
});
export const RevokeSignerBody = z.strictObject({ reason: freeText(500) });
/** The org's signers take no query: a parameter (an `org_id` above all) is a 400, never ignored. */
export const ListSignersQuery = z.strictObject({});
/** A signer as the API answers it (never its token hash). */
export const SignerResponse = z.strictObject({
  id: z.string(),
  org_id: z.string(),
  name: z.string(),
  capacity: z.enum(SIGNER_CAPACITIES),
  entity_id: z.string().nullable(),
  commission: z.strictObject({ number: z.string(), state: z.string(), expires_on: z.string() }).nullable(),
  status: z.enum(['INVITED', 'ENROLLED', 'REVOKED']),
  invited_at: z.string(),
  invited_by: z.string(),
  invitation_expires_at: z.string(),
  key: z.strictObject({ key_id: z.string(), public_key: z.string(), enrolled_at: z.string() }).nullable(),
  revoked_at: z.string().nullable(),
  revoke_reason: z.string().nullable(),
});
export const SignerInvitedResponse = z.strictObject({
  id: z.string(),
  signer: SignerResponse,
  enrollment_token: z.string().nullable(),
  ledger: z.strictObject({ seq: z.int(), hash: z.string() }),
});
export const SignerEnrolledResponse = z.strictObject({
  id: z.string(),
  key_id: z.string().nullable(),
  ledger: z.strictObject({ seq: z.int(), hash: z.string() }),
});

const SignerParams = z.strictObject({ id: z.string().regex(/^sgn_[a-z2-7]{16}$/, 'a signer id (sgn_…)') });

const tokenSha256 = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

function unwrap(decided: SignersDecided): Extract<SignersDecided, { ok: true }> {
  if (decided.ok) return decided;
  const errors = decided.errors?.map((i) => ({ path: i.path.join('.'), code: i.code, message: i.message }));
  throw new ProblemError(decided.code, decided.detail, errors ? { errors } : {});
}

/**
 * The enrollment token of the invitation recorded under `eventId`: an HMAC of the event id under a
 * server secret (domain-separated), so it is unguessable without the secret yet the same on an
 * Idempotency-Key retry (which answers it once more only to the caller who holds that key).
 */
export function enrollmentToken(secret: string, eventId: string): string {
  return `plenr_${createHmac('sha256', secret).update(`plumbline/enrollment-token/v1|${eventId}`).digest('base64url')}`;
}

export function mountSigners(s: Service, tokenSecret: string): void {
  const ctxFor = (now: Date, eventId: string): SignersCtx => ({
    now,
    eventId,
    entityExists: (id) => Object.hasOwn(s.runtime.state(registryProjection).entities, id),
  });
  const state = () => s.runtime.state(signersProjection);
  const write = projectGuard(s, 'governance:write', { appends: true });
  const read = projectGuard(s, 'governance:read');

  s.routes.add('POST', '/api/signers', ...write, async (req, res) => {
    const body = parseWith(InviteSignerBody, req.body);
    const org_id = authOf(req).org_id;
    let token = '';
    const committed = await runCommand(s.ledger, req, (_head, eventId) => {
      token = enrollmentToken(tokenSecret, eventId);
      const decided = unwrap(
        decideInviteSigner(
          state(),
          {
            org_id,
            name: body.name,
            capacity: body.capacity,
            entity_id: body.entity_id ?? null,
            commission: body.commission ?? null,
            token_sha256: tokenSha256(token),
          },
          ctxFor(s.clock.now(), eventId),
        ),
      );
      return { events: decided.events, result: decided.signer_id };
    });
    const signer = getSigner(state(), org_id, committed.result)!;
    const last = committed.events[committed.events.length - 1]!;
    // Shown here only: the ledger holds its SHA-256. A retry with the same Idempotency-Key (only the
    // same API key can make one) derives and shows the same token again.
    res.status(201).json({
      id: signer.id,
      signer: signerView(signer),
      enrollment_token: token,
      ledger: { seq: last.seq, hash: last.hash },
    });
  });

  s.routes.add('POST', '/api/signers/enroll', jsonBody(), async (req, res) => {
    await countRequest(
      s.limiter,
      res,
      `enroll:${req.ip ?? 'unknown'}`,
      'project',
      undefined,
      s.logger,
      s.metrics,
      ctxOf(req).request_id,
    );
    const body = parseWith(EnrollSignerBody, req.body);
    // One enrollment per token: its event id is derived from the token's hash, so a retry is the
    // same event (the request carries no API key, hence no Idempotency-Key of its own).
    const eventId = derivedEventId(`signer-enrollment/${tokenSha256(body.token)}`);
    // The enrollment is the inviting org's event (so other tenants see it redacted); an unknown
    // token is refused by the decider before anything is appended.
    const invited = state().signers[state().by_token[tokenSha256(body.token)] ?? ''];
    const committed = await runCommand(
      s.ledger,
      req,
      () => {
        const decided = unwrap(
          decideEnrollSigner(
            state(),
            { token_sha256: tokenSha256(body.token), public_key: body.public_key },
            ctxFor(s.clock.now(), eventId),
          ),
        );
        return { events: decided.events, result: decided.signer_id };
      },
      invited ? { org_id: invited.org_id } : undefined,
    );
    const signer = state().signers[committed.result]!;
    const last = committed.events[committed.events.length - 1]!;
    res.status(201).json({
      id: signer.id,
      key_id: signer.key?.key_id ?? null,
      ledger: { seq: last.seq, hash: last.hash },
    });
  });

  s.routes.add('POST', '/api/signers/:id/revoke', ...write, async (req, res) => {
    const { id } = parseWith(SignerParams, req.params, 'params');
    const body = parseWith(RevokeSignerBody, req.body);
    const org_id = authOf(req).org_id;
    const committed = await runCommand(s.ledger, req, (_head, eventId) => {
      const decided = unwrap(
        decideRevokeSigner(
          state(),
          { org_id, signer_id: id, reason: body.reason },
          ctxFor(s.clock.now(), eventId),
        ),
      );
      return { events: decided.events, result: decided.signer_id };
    });
    const last = committed.events[committed.events.length - 1]!;
    res.status(201).json({ id: committed.result, ledger: { seq: last.seq, hash: last.hash } });
  });

  s.routes.add('GET', '/api/signers', ...read, (req: Request, res) => {
    parseWith(ListSignersQuery, req.query, 'query');
    const org_id = authOf(req).org_id;
    const ids = state().by_org[org_id] ?? [];
    res.json({
      items: ids.flatMap((id) => {
        const signer = state().signers[id];
        return signer ? [signerView(signer)] : [];
      }),
    });
  });
  s.routes.add('GET', '/api/signers/:id', ...read, (req, res) => {
    const { id } = parseWith(SignerParams, req.params, 'params');
    const signer = getSigner(state(), authOf(req).org_id, id);
    if (!signer) throw new ProblemError('NOT_FOUND', `no signer ${id}`);
    res.json(signerView(signer));
  });
}
