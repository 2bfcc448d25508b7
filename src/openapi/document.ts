/**
 * Builds the OpenAPI 3.1 document from the operation list: zod schemas become JSON Schema
 * 2020-12 (OpenAPI 3.1's dialect) through `z.toJSONSchema` — request bodies and queries in their
 * input form (defaults optional), responses in their output form — and every error response
 * points at the Problem schema built from ERRORS.
 */
import { z } from 'zod';
import { API_VERSION } from '../platform/http/middleware.js';
import type { ErrorCode } from '../platform/http/problem.js';
import type { Access, Named, OperationSpec, SchemaRef } from './operations.js';
import { errorResponses, problemSchema, problemSchemasByCode } from './problem.js';

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

const SCHEMA_URI = (id: string): string => `#/components/schemas/${id}`;

const SECURITY: Record<Access, Json[]> = {
  public: [],
  lender: [{ ServiceApiKeyHeader: [] }, { ApiKeyHeader: [] }, { BearerAuth: [] }],
  pdf: [{ KeyQuery: [] }, { ServiceApiKeyHeader: [] }, { ApiKeyHeader: [] }, { BearerAuth: [] }],
  project: [{ BearerAuth: [] }, { ServiceApiKeyHeader: [] }, { ApiKeyHeader: [] }],
  ledger: [{ BearerAuth: [] }, { ServiceApiKeyHeader: [] }, { ApiKeyHeader: [] }],
  admin: [{ BearerAuth: [] }, { ServiceApiKeyHeader: [] }, { ApiKeyHeader: [] }],
};

const RATE_LIMIT: Record<Access, string | null> = {
  public: null,
  lender: '100 requests per key per UTC day',
  pdf: '100 requests per key per UTC day',
  project: '600 requests per key per minute',
  ledger: '600 requests per key per minute',
  admin: '600 requests per key per minute',
};

/** The window each surface's `RateLimit-Policy` names (SPEC §3; the service's default limits). */
const RATE_LIMIT_POLICY: Record<Access, string | null> = {
  public: null,
  lender: '"daily";q=100;w=86400',
  pdf: '"daily";q=100;w=86400',
  project: '"minute";q=600;w=60',
  ledger: '"minute";q=600;w=60',
  admin: '"minute";q=600;w=60',
};

/** The two headers every counted answer carries (SPEC §3), success and 429 alike. */
function rateLimitHeaders(access: Access): Json | null {
  const policy = RATE_LIMIT_POLICY[access];
  if (policy === null) return null;
  const window = policy.slice(1, policy.indexOf('"', 1));
  const counted = access === 'lender' ? ' (every lender action except `usage` and `pdf_link`)' : '';
  return {
    'RateLimit-Policy': {
      schema: { type: 'string' },
      description: `The quota on counted calls${counted}: \`${policy}\` (limit q per window w seconds).`,
    },
    RateLimit: {
      schema: { type: 'string' },
      description: `What is left: \`"${window}";r=<remaining>;t=<seconds until the window resets>\`.`,
    },
  };
}

/** Drops the members a standalone JSON Schema has and an embedded component must not. */
function embedded(schema: Json): Json {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

const namedOf = (ref: SchemaRef): Named[] => ('oneOf' in ref ? ref.oneOf : [ref]);
const refOf = (ref: SchemaRef): Json =>
  'oneOf' in ref
    ? { oneOf: ref.oneOf.map((n) => ({ $ref: SCHEMA_URI(n.name) })) }
    : { $ref: SCHEMA_URI(ref.name) };

/** Components for every named schema, each converted once in the given direction. */
function componentSchemas(named: readonly Named[], io: Io): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  const seen = new Map<string, z.ZodType>();
  for (const { name, schema } of named) {
    const prior = seen.get(name);
    if (prior === schema) continue;
    if (prior) throw new Error(`two different schemas are named ${name}`);
    seen.set(name, schema);
    registry.add(schema, { id: name });
  }
  const out = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    uri: SCHEMA_URI,
    unrepresentable: 'any',
  });
  return Object.fromEntries(Object.entries(out.schemas).map(([k, v]) => [k, embedded(v as Json)]));
}

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema:
      name === 'seq' ? { type: 'integer', minimum: 1 } : { type: 'string', minLength: 1, maxLength: 80 },
  }));
}

function queryParameters(op: OperationSpec): Json[] {
  const params: Json[] = [];
  if (op.query) {
    const schema = z.toJSONSchema(op.query, {
      target: 'draft-2020-12',
      io: 'input',
      unrepresentable: 'any',
    }) as Json;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries(
      (schema.properties as Record<string, Json> | undefined) ?? {},
    )) {
      // zod's JSON Schema output drops a `deprecated` meta, so a parameter whose description
      // starts "Deprecated:" is the one flagged deprecated (API9 lists them).
      const { description, ...rest } = prop;
      const deprecated = typeof description === 'string' && description.startsWith('Deprecated:');
      params.push({
        name,
        in: 'query',
        required: required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        ...(deprecated ? { deprecated: true } : {}),
        schema: rest,
      });
    }
  }
  for (const extra of op.queryExtra ?? []) params.push({ in: 'query', ...extra });
  return params;
}

function errorCodesOf(op: OperationSpec): ErrorCode[] {
  const codes: ErrorCode[] = [...(op.errors ?? [])];
  if (op.access !== 'public')
    codes.push('UNAUTHENTICATED', 'FORBIDDEN', 'RATE_LIMITED', 'UNAVAILABLE', 'READ_MODELS_DAMAGED');
  if (op.query || pathParameters(op.path).length > 0) codes.push('INVALID_REQUEST');
  if (op.body) codes.push('INVALID_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  if (op.appends) codes.push('CONFLICT', 'IDEMPOTENCY_KEY_REUSED', 'LEDGER_INTEGRITY');
  codes.push('INTERNAL');
  return codes;
}

function requestBody(op: OperationSpec): Json | undefined {
  if (!op.body) return undefined;
  const content: Json = { 'application/json': { schema: refOf(op.body) } };
  for (const type of op.rawBody ?? []) content[type] = { schema: { type: 'string', format: 'binary' } };
  return { required: op.body.required, content };
}

function operation(op: OperationSpec): Json {
  const parameters = [...pathParameters(op.path), ...queryParameters(op)];
  if (op.appends)
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Up to 255 visible ASCII characters; a retry within 24 h replays the first response.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  const success: Json = { description: op.response.description };
  if (op.response.json) success.content = { 'application/json': { schema: refOf(op.response.json) } };
  else if (op.response.contentType)
    success.content = { [op.response.contentType]: { schema: { type: 'string' } } };
  const security = op.optionalAuth ? [...SECURITY[op.access], {}] : SECURITY[op.access];
  const body = requestBody(op);
  const limit = RATE_LIMIT[op.access];
  const limitHeaders = rateLimitHeaders(op.access);
  const errors = errorResponses(errorCodesOf(op));
  if (limitHeaders) {
    success.headers = limitHeaders;
    const refused = errors['429'];
    if (refused) refused.headers = { ...limitHeaders, ...(refused.headers as Json | undefined) };
  }
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: { [String(op.response.status)]: success, ...errors },
    security,
    ...(op.scope ? { 'x-plumbline-scope': op.scope } : {}),
    ...(limit ? { 'x-plumbline-rate-limit': limit } : {}),
    ...(op.extensions ?? {}),
  };
}

/** `/api/projects/:id` → `/api/projects/{id}`. */
export const openApiPath = (path: string): string => path.replace(/:([A-Za-z_]+)/g, '{$1}');

const DESCRIPTION = [
  'Plumbline: governance-based credit intelligence and draw governance for construction lenders,',
  'on a hash-chained event ledger. Every authenticated response carries `Plumbline-Signature`',
  '(HMAC-SHA256 with your signing secret over `<t>.<sha256 hex of the body>`) and `Content-Digest`;',
  'errors are RFC 9457 problems. The SDK at /sdk/plumbline.js wraps all of it.',
].join(' ');

export function buildOpenApi(operations: readonly OperationSpec[]): Json {
  const requests = operations.flatMap((op) => (op.body ? namedOf(op.body) : []));
  const responses = operations.flatMap((op) => (op.response.json ? namedOf(op.response.json) : []));
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    const key = openApiPath(op.path);
    const item = (paths[key] ??= {});
    const method = op.method.toLowerCase();
    if (item[method]) throw new Error(`${op.method} ${op.path} is documented twice`);
    item[method] = operation(op);
  }
  const tags = [...new Set(operations.map((op) => op.tag))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: { title: 'Plumbline API', version: API_VERSION, description: DESCRIPTION },
    servers: [{ url: '/', description: 'This server' }],
    tags,
    paths,
    components: {
      schemas: {
        ...componentSchemas(requests, 'input'),
        ...componentSchemas(responses, 'output'),
        Problem: problemSchema(),
        ...problemSchemasByCode(),
      },
      securitySchemes: {
        ServiceApiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'x-service-api-key',
          description: "The seed interface's header; accepted exactly like x-plumbline-api-key.",
        },
        ApiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'x-plumbline-api-key',
          description: "Plumbline's own header (the SDK sends it); accepted exactly like x-service-api-key.",
        },
        BearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' },
        KeyQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'key',
          description:
            'Credit report PDF only, deprecated in favour of a signed `link` (action=pdf_link); the key must hold credit:read itself.',
        },
      },
    },
  };
}
