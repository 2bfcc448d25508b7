/**
 * Entity routes (SPEC §5): register a governed entity, read one, list them. Entities are the
 * bureau's subjects, shared across lenders (ARCHITECTURE §4), so reads are not org-scoped — but
 * who registered one is the registrar's business: `org_id` shows only to that org, null to every
 * other (OWASP API3).
 */
import type { Request } from 'express';
import { z } from 'zod';
import { registryProjection } from '../../projections/registry.js';
import { authOf } from '../platform/http/context.js';
import { runCommand } from '../platform/http/command.js';
import { ProblemError } from '../platform/http/problem.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { nameText, parseWith } from '../platform/http/validate.js';
import { RegisterEntityBody } from './contract.js';
import { decideRegisterEntity } from './decide.js';
import { lookupEntity, type EntityLookup } from './lookup.js';
import type { EntityRecord, RegistryState } from './state.js';
import { valuesOf } from '../platform/projections/index.js';

const ListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z.string().max(200).optional(),
  q: z.string().min(1).max(200).optional(),
});

/** An entity reference in the path: what the lender API accepts as `entity` (a name, EIN or ent_ id). */
const EntityParams = z.strictObject({ id: nameText(200) });

/**
 * What a 404 tells the caller it may send: a reference in another form (an EIN with a space, a
 * CAGE code) matches nothing and has no name candidates, so the answer says which forms resolve.
 */
const REFERENCE_FORMS =
  'name an entity by its legal name, alias or DBA, an EIN (NN-NNNNNNN or 9 digits), a UEI (12 characters) or its ent_ id';

/** Resolves an entity reference or throws the SPEC §4 404 (with candidates) / 409 (ambiguous). */
export function resolveEntity(state: RegistryState, ref: string): EntityRecord {
  const found: EntityLookup = lookupEntity(state, ref);
  switch (found.kind) {
    case 'found':
      return found.entity;
    case 'ambiguous':
      throw new ProblemError(
        'CONFLICT',
        `"${ref}" matches ${found.candidates.length} entities; use an EIN or ent_ id`,
        { candidates: found.candidates },
      );
    case 'not_found':
      throw new ProblemError('NOT_FOUND', `no governed entity matches "${ref}"; ${REFERENCE_FORMS}`, {
        candidates: found.candidates,
      });
    default: {
      const unreachable: never = found;
      return unreachable;
    }
  }
}

/** An entity as `viewer` may see it: the registrar's org only to the registrar itself. */
export function entityView(entity: EntityRecord, viewer: string): EntityRecord {
  return entity.org_id === viewer ? entity : { ...entity, org_id: null };
}

/** Case-insensitive substring of a name, alias, or an identifier (EIN with or without its dash, UEI, CAGE, id). */
export function matchesQuery(entity: EntityRecord, query: string): boolean {
  const needle = query.trim().toLowerCase();
  const digits = needle.replace(/[^0-9]/g, '');
  const texts = [entity.legal_name, ...entity.aliases, entity.uei, entity.cage, entity.entity_id, entity.ein];
  if (texts.some((t) => t !== null && t.toLowerCase().includes(needle))) return true;
  return (
    /^[0-9-]+$/.test(needle) && digits.length >= 4 && (entity.ein ?? '').replace(/-/g, '').includes(digits)
  );
}

function listEntities(
  state: RegistryState,
  req: Request,
): { data: EntityRecord[]; next_cursor: string | null } {
  const q = parseWith(ListQuery, req.query, 'query');
  const all = valuesOf(state.entities)
    .filter((e) => q.q === undefined || matchesQuery(e, q.q))
    .sort((a, b) => a.seq - b.seq);
  const after = q.cursor === undefined ? 0 : Number(Buffer.from(q.cursor, 'base64url').toString('utf8'));
  if (!Number.isInteger(after) || after < 0)
    throw new ProblemError('INVALID_REQUEST', 'cursor is not one this API issued');
  const rest = all.filter((e) => e.seq > after);
  const data = rest.slice(0, q.limit);
  const last = data[data.length - 1];
  const viewer = authOf(req).org_id;
  return {
    data: data.map((e) => entityView(e, viewer)),
    next_cursor: rest.length > q.limit && last ? Buffer.from(String(last.seq)).toString('base64url') : null,
  };
}

export function mountRegistry(s: Service): void {
  const registry = () => s.runtime.state(registryProjection);

  s.routes.add(
    'POST',
    '/api/entities',
    ...projectGuard(s, 'governance:write', { appends: true }),
    async (req, res) => {
      const body = parseWith(RegisterEntityBody, req.body);
      const committed = await runCommand(s.ledger, req, (_head, eventId) => {
        const decided = decideRegisterEntity(registry(), {
          body,
          org_id: authOf(req).org_id,
          event_id: eventId,
        });
        if (!decided.ok)
          throw new ProblemError('CONFLICT', decided.rejection.detail, {
            conflicts: decided.rejection.conflicts,
          });
        return { events: decided.events, result: decided.entity_id };
      });
      const last = committed.events[committed.events.length - 1]!;
      res.status(201).json({ id: committed.result, ledger: { seq: last.seq, hash: last.hash } });
    },
  );

  s.routes.add('GET', '/api/entities', ...projectGuard(s, 'governance:read'), (req, res) => {
    res.json(listEntities(registry(), req));
  });

  s.routes.add('GET', '/api/entities/:id', ...projectGuard(s, 'governance:read'), (req, res) => {
    const { id } = parseWith(EntityParams, req.params, 'params');
    res.json(entityView(resolveEntity(registry(), id), authOf(req).org_id));
  });
}
