/**
 * The SDK's one error type. Every non-2xx answer becomes a PlumblineError carrying the RFC 9457
 * problem the server sent (SPEC §2), so callers branch on `code`, never on message text.
 */

/**
 * The closed server vocabulary (SPEC §2 and the OpenAPI `Problem.code` enum) plus the failures
 * only a client can see.
 */
export type PlumblineErrorCode =
  | 'INVALID_REQUEST'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'GATE_UNMET'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'RATE_LIMITED'
  | 'INTERNAL'
  | 'UNAVAILABLE'
  /** 503: the ledger failed its integrity check; appends are suspended until an operator acts. */
  | 'LEDGER_INTEGRITY'
  /** 503: the node's read models are damaged; appends are suspended until it restarts. */
  | 'READ_MODELS_DAMAGED'
  /** The request never got an HTTP answer (DNS, refused connection, aborted). */
  | 'NETWORK_ERROR'
  /** An answer that is not a Plumbline problem, or a signed answer whose signature fails. */
  | 'UNEXPECTED_RESPONSE'
  | 'SIGNATURE_INVALID';

const SERVER_CODES: ReadonlySet<string> = new Set([
  'INVALID_REQUEST',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'GATE_UNMET',
  'IDEMPOTENCY_KEY_REUSED',
  'RATE_LIMITED',
  'INTERNAL',
  'UNAVAILABLE',
  'LEDGER_INTEGRITY',
  'READ_MODELS_DAMAGED',
]);

/** One validation issue, as the server reports it (`sov.0.line`-style dotted path). */
export interface FieldIssue {
  path: string;
  code: string;
  message: string;
}

/** The problem+json body (SPEC §2); members beyond the standard ones depend on the code. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: string;
  request_id: string;
  ok?: false;
  errors?: FieldIssue[];
  /** 404/409 on an entity reference: the nearest names (404) or every match (409), with identifiers. */
  candidates?: {
    entity: string;
    entity_id: string;
    ein: string | null;
    uei: string | null;
    cage: string | null;
  }[];
  /** 422 GATE_UNMET: every gate's result. */
  gates?: { gate: string; passed: boolean; detail: string }[];
  /** 429: the quota and when it resets. */
  limit?: number;
  reset_at?: string;
  [member: string]: unknown;
}

export interface PlumblineErrorInit {
  code: PlumblineErrorCode;
  status: number;
  detail: string;
  request_id?: string | null;
  errors?: FieldIssue[];
  problem?: Problem | null;
  retry_after_s?: number | null;
  cause?: unknown;
}

export class PlumblineError extends Error {
  override readonly name = 'PlumblineError';
  readonly code: PlumblineErrorCode;
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  /** The server's Request-Id (quote it to support); null when no answer arrived. */
  readonly request_id: string | null;
  readonly detail: string;
  /** Validation issues (400), empty otherwise. */
  readonly errors: FieldIssue[];
  /** The whole problem body, for code-specific members (`gates`, `candidates`, `reset_at`). */
  readonly problem: Problem | null;
  /** Seconds the server asked to wait (429/503, a transient 409), when it said. */
  readonly retry_after_s: number | null;

  constructor(init: PlumblineErrorInit) {
    super(
      `${init.code} (${init.status}): ${init.detail}`,
      init.cause === undefined ? {} : { cause: init.cause },
    );
    this.code = init.code;
    this.status = init.status;
    this.detail = init.detail;
    this.request_id = init.request_id ?? null;
    this.errors = init.errors ?? [];
    this.problem = init.problem ?? null;
    this.retry_after_s = init.retry_after_s ?? null;
  }
}

function isProblem(body: unknown): body is Problem {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.code === 'string' && typeof b.status === 'number' && typeof b.detail === 'string';
}

/** The error for a non-2xx answer whose body text is `text`. */
export function errorFromResponse(
  status: number,
  headers: Headers,
  text: string,
  retryAfter: number | null,
): PlumblineError {
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's HTML page): reported as UNEXPECTED_RESPONSE below.
  }
  const requestId = headers.get('request-id');
  if (isProblem(body) && SERVER_CODES.has(body.code)) {
    return new PlumblineError({
      code: body.code as PlumblineErrorCode,
      status,
      detail: body.detail,
      request_id: typeof body.request_id === 'string' ? body.request_id : requestId,
      errors: Array.isArray(body.errors) ? body.errors : [],
      problem: body,
      retry_after_s: retryAfter,
    });
  }
  return new PlumblineError({
    code: 'UNEXPECTED_RESPONSE',
    status,
    detail: `HTTP ${status} without a Plumbline problem body`,
    request_id: requestId,
    retry_after_s: retryAfter,
  });
}
