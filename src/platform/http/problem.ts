/**
 * The closed error vocabulary of SPEC §2, mapped to HTTP in this one table, and the RFC 9457
 * problem+json body every error response carries. No stack trace ever leaves the process.
 */

export const ERRORS = {
  INVALID_REQUEST: { status: 400, title: 'Invalid request' },
  UNAUTHENTICATED: { status: 401, title: 'Unauthenticated' },
  FORBIDDEN: { status: 403, title: 'Forbidden' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  CONFLICT: { status: 409, title: 'Conflict' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Payload too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type' },
  GATE_UNMET: { status: 422, title: 'Payment gate not met' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, title: 'Idempotency key reused with a different request' },
  RATE_LIMITED: { status: 429, title: 'Rate limit exceeded' },
  INTERNAL: { status: 500, title: 'Internal error' },
  UNAVAILABLE: { status: 503, title: 'Service unavailable' },
  LEDGER_INTEGRITY: { status: 503, title: 'Ledger integrity failure: appends are suspended' },
  READ_MODELS_DAMAGED: { status: 503, title: 'Read models damaged: appends are suspended until a restart' },
} as const;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** One validation issue, as zod reports it (STYLE: errors as data). */
export interface FieldIssue {
  path: string;
  code: string;
  message: string;
}

/** Extra members some problems carry (SPEC §2 table). */
export interface ProblemExtras {
  errors?: FieldIssue[];
  candidates?: { entity: string; entity_id: string }[];
  gates?: { gate: string; passed: boolean; detail: string }[];
  limit?: number;
  reset_at?: string;
  [member: string]: unknown;
}

export interface ProblemHeaders {
  'Retry-After'?: string;
  Allow?: string;
  'WWW-Authenticate'?: string;
}

/** An expected failure: thrown anywhere below a route, answered by the one error handler. */
export class ProblemError extends Error {
  readonly type = 'problem' as const;
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extras: ProblemExtras = {},
    readonly headers: ProblemHeaders = {},
  ) {
    super(detail);
    this.name = 'ProblemError';
    this.status = ERRORS[code].status;
  }
}

export interface ProblemBody extends ProblemExtras {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: ErrorCode;
  request_id: string;
  ok?: false;
}

export const PROBLEM_TYPE_BASE = 'https://plumbline.dev/problems/';

export function problemBody(
  error: ProblemError,
  instance: string,
  requestId: string,
  lenderSurface: boolean,
): ProblemBody {
  const body: ProblemBody = {
    type: `${PROBLEM_TYPE_BASE}${error.code.toLowerCase().replace(/_/g, '-')}`,
    title: ERRORS[error.code].title,
    status: error.status,
    detail: error.detail,
    instance,
    code: error.code,
    request_id: requestId,
    ...error.extras,
  };
  if (lenderSurface) body.ok = false;
  return body;
}

interface ZodLikeIssue {
  path: readonly PropertyKey[];
  code: string;
  message: string;
  keys?: readonly string[];
}

/**
 * zod issues → `{path, code, message}` with dotted paths (`sov.0.line`). An unknown-field issue is
 * split per field so each unknown field is named in `path`.
 */
export function fieldIssues(issues: readonly ZodLikeIssue[]): FieldIssue[] {
  return issues.flatMap((i) => {
    const base = i.path.map(String);
    if (i.code === 'unrecognized_keys' && i.keys && i.keys.length > 0) {
      return i.keys.map((k) => ({
        path: [...base, k].join('.'),
        code: i.code,
        message: `unknown field "${k}"`,
      }));
    }
    return [{ path: base.join('.'), code: i.code, message: i.message }];
  });
}
