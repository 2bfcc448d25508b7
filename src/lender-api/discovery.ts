/**
 * The discovery document (seed §2.1, SPEC §4): what a lender's engineer reads first. Built from the
 * action table and the report schema the code really uses.
 */
import { API_VERSION } from '../platform/http/middleware.js';
import type { LenderAction } from './actions.js';

export const REPORT_SCHEMA = {
  ok: 'boolean',
  entity: 'string — legal name',
  entity_id: 'string — ent_…',
  as_of: 'ISO-8601 instant the report was computed at',
  credit: {
    composite_score: 'number 0–100',
    grade: 'A | B | C | D | F (A ≥ 90, B ≥ 80, C ≥ 65, D ≥ 50, F < 50)',
    confidence: 'LOW | MEDIUM | HIGH (HIGH with ≥ 20 signals across ≥ 2 projects, MEDIUM with ≥ 5)',
    confidence_basis: '{signals, projects} — the counts confidence was judged on',
    dimensions:
      'object: payment_integrity, draw_accuracy, compliance_standing, safety_record, schedule_performance, remediation_responsiveness → {score, grade, weight, signals, furnishers, insufficient_data, factors[{code, impact, description}]}',
    reason_codes: 'array of up to 4 {code, description}, most adverse first',
  },
  behavioral: {
    state: 'PROVISIONAL | GOOD_STANDING | WATCH | PROBATION | RESTRICTED | SUSPENDED',
    last_assessed: 'ISO-8601',
    since: 'ISO-8601',
    previous_state: 'string | null',
  },
  conflicts: {
    active_conflicts: 'integer',
    status: 'CLEAR | CONFLICTS_PRESENT',
    items: 'array of {code, project_id | null, since}',
  },
  remediation: {
    velocity: 'RESPONSIVE | PARTIAL | NON_RESPONSIVE | NO_VIOLATIONS',
    open_findings: 'integer',
    resolved_findings: 'integer',
    median_days_to_cure: 'number | null',
  },
  contractor_registry: {
    registration: 'active | inactive',
    exclusions: 'clear | excluded',
    checked_at: 'ISO-8601',
    source:
      '{kind: sam_extract | sam_api, file?, as_of, fetched_at? (sam_api: when SAM.gov answered; reused 24 h)}',
    fallback:
      'only when the live SAM.gov check failed: {reason: timeout | network | unauthorized | rate_limited | http_error | bad_response, status, detail}; the extract answered',
  },
  provenance_hash:
    'SHA-256 hex of the RFC 8785 canonical JSON of the report without provenance_hash and provenance',
  provenance: {
    sha256: 'hex',
    sha3_256: 'hex',
    blake2b_256: 'hex',
    ledger: '{seq, hash} the ledger head the report was computed at',
  },
} as const;

export function discoveryDocument(actions: readonly LenderAction[]): Record<string, unknown> {
  const endpoints: Record<
    string,
    { description: string; body: Record<string, string> | null; counts_against_quota: boolean }
  > = {};
  for (const action of actions) {
    endpoints[`POST ?action=${action.name}`] = {
      description: action.description,
      body: action.body_doc,
      counts_against_quota: action.counted,
    };
  }
  return {
    ok: true,
    api: 'Plumbline Lender Credit API',
    version: API_VERSION,
    description:
      'Governance-based credit intelligence for construction lending: look an entity up by name, alias, EIN or ent_ id and get a credit report derived entirely from hash-chained governance events — no financial history required.',
    authentication:
      'Send your API key in the x-service-api-key header (x-plumbline-api-key, which the SDK sends, and Authorization: Bearer <key> are accepted alike). Keys need the credit:read scope. Responses carry Plumbline-Signature (HMAC-SHA256 with your signing secret) and Content-Digest.',
    endpoints,
    response_schema: REPORT_SCHEMA,
    rate_limit: '100 requests/day per API key',
    rate_limit_detail:
      'Counted per key per UTC calendar day; every authenticated action except usage and pdf_link counts, and so does opening the PDF report; an Idempotency-Key replay (score, verify) is the first answer again and does not count twice. Responses carry RateLimit-Policy and RateLimit headers; the 101st call answers 429 with Retry-After.',
    credit_report_pdf:
      'POST ?action=pdf_link {entity} returns a signed link, valid 300 s, to GET /api/credit-report-pdf?entity=<name|EIN|ent_id>&link=<token> — printable credit report (opening it counts against the daily quota); the footer carries the provenance hash and ledger anchor. A key in the URL (&key=) still works for keys holding credit:read, but leaks: use the link.',
    mesh_ledger:
      'GET /mesh-ledger.html — read-only ledger explorer that verifies the hash chain in your browser (needs a ledger:read key).',
    methodology:
      'GET /compliance-methodology.html — scoring methodology generated from the scoring code, with a live bias analysis.',
    sdk: 'GET /sdk/plumbline.js — drop-in ESM SDK for browsers and Node 20+ (types at /sdk/plumbline.d.ts).',
  };
}
