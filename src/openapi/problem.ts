/**
 * The RFC 9457 Problem schema and one error response per code, built from the ERRORS table (the
 * whole SPEC §2 vocabulary), so a new code is documented the moment it exists.
 */
import { ERRORS, ERROR_CODES, PROBLEM_TYPE_BASE, type ErrorCode } from '../platform/http/problem.js';

type Json = Record<string, unknown>;

export const PROBLEM_REF = '#/components/schemas/Problem';

const problemSchemaName = (code: ErrorCode): string => `Problem_${code}`;

/** The members every problem has, and the optional ones some codes carry (SPEC §2 table). */
export function problemSchema(): Json {
  return {
    type: 'object',
    description: 'RFC 9457 problem details (application/problem+json); the lender API adds ok: false.',
    required: ['type', 'title', 'status', 'detail', 'instance', 'code', 'request_id'],
    properties: {
      type: { type: 'string', format: 'uri', description: `${PROBLEM_TYPE_BASE}<code in kebab case>` },
      title: { type: 'string' },
      status: { type: 'integer', enum: [...new Set(ERROR_CODES.map((c) => ERRORS[c].status))] },
      detail: { type: 'string' },
      instance: { type: 'string', description: 'The request path.' },
      code: { type: 'string', enum: ERROR_CODES },
      request_id: { type: 'string' },
      ok: { const: false, description: 'Lender API only.' },
      errors: {
        type: 'array',
        description: 'Validation issues (400).',
        items: {
          type: 'object',
          required: ['path', 'code', 'message'],
          properties: { path: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } },
        },
      },
      candidates: {
        type: 'array',
        description:
          'Entity references (404 unknown: up to 5 nearest names / 409 ambiguous: every match), each with its identifiers to pick by.',
        items: {
          type: 'object',
          required: ['entity', 'entity_id', 'ein', 'uei', 'cage'],
          properties: {
            entity: { type: 'string' },
            entity_id: { type: 'string' },
            ein: { type: ['string', 'null'] },
            uei: { type: ['string', 'null'] },
            cage: { type: ['string', 'null'] },
          },
        },
      },
      gates: {
        type: 'array',
        description: 'GATE_UNMET: every gate of the profile, passed or not.',
        items: {
          type: 'object',
          required: ['gate', 'passed', 'detail'],
          properties: { gate: { type: 'string' }, passed: { type: 'boolean' }, detail: { type: 'string' } },
        },
      },
      limit: { type: 'integer', description: 'RATE_LIMITED: the quota.' },
      reset_at: { type: 'string', format: 'date-time', description: 'RATE_LIMITED: when the window resets.' },
    },
  };
}

/** `Problem` narrowed to one code, as components.schemas entries. */
export function problemSchemasByCode(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const code of ERROR_CODES)
    out[problemSchemaName(code)] = {
      allOf: [
        { $ref: PROBLEM_REF },
        {
          type: 'object',
          properties: { code: { const: code }, status: { const: ERRORS[code].status } },
        },
      ],
    };
  return out;
}

const RETRY_AFTER = { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } };

/** Headers a problem of that code carries (SPEC §2). */
const HEADERS: Partial<Record<ErrorCode, Json>> = {
  RATE_LIMITED: RETRY_AFTER,
  UNAVAILABLE: RETRY_AFTER,
  UNAUTHENTICATED: { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'On Bearer surfaces.' } },
  METHOD_NOT_ALLOWED: { Allow: { schema: { type: 'string' } } },
};

/**
 * The error responses of an operation, keyed by status. Codes sharing a status (422: GATE_UNMET
 * and IDEMPOTENCY_KEY_REUSED) become one response whose schema is a oneOf of the per-code schemas.
 */
export function errorResponses(codes: readonly ErrorCode[]): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERRORS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, Json> = {};
  for (const [status, group] of [...byStatus.entries()].sort(([a], [b]) => a - b)) {
    const refs = group.map((c) => ({ $ref: `#/components/schemas/${problemSchemaName(c)}` }));
    const headers = Object.assign({}, ...group.map((c) => HEADERS[c] ?? {})) as Json;
    out[String(status)] = {
      description: group.map((c) => `${c}: ${ERRORS[c].title}`).join('; '),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: { 'application/problem+json': { schema: refs.length === 1 ? refs[0] : { oneOf: refs } } },
    };
  }
  return out;
}
