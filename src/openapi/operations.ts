/**
 * Every route the service declares, as OpenAPI needs to know it: access surface and scope, the
 * zod schemas of its query and body (the routes' own, imported), its success response and the
 * errors particular to it. Errors common to a surface (auth, rate limit, body parsing) are added
 * by the document builder. The coverage test holds this list equal to the RouteTable's.
 * A few routes keep their query schemas private; those are restated here (QUERIES) verbatim.
 */
import { z } from 'zod';
import { AuditVerifyBody } from '../audit/verify-route.js';
import { ConsistencyQuery, EventQuery } from '../audit/tlog-routes.js';
import { LedgerPageQuery } from '../audit/ledger-routes.js';
import { PortfolioQuery } from '../lender-api/credit-views.js';
import { GatesQuery } from '../payments/routes.js';
import { IssueCertificationBody } from '../certification/routes.js';
import { AcceptDrawBody, CompileBody, RejectDrawBody, SimulateBody } from '../governance/draw-routes.js';
import { AdequacyBody, KernelScanBody } from '../governance/routes.js';
import { NotarizeBody } from '../notarization/routes.js';
import { PaymentPushBody } from '../payments/routes.js';
import type { ApiKeyScope } from '../platform/crypto/api-key.js';
import type { ErrorCode } from '../platform/http/problem.js';
import type { Method } from '../platform/http/routes.js';
import {
  ChangeOrderPage,
  CreatedResponse,
  DocumentPage,
  DocumentResponse,
  DrawPage,
  DrawResponse,
  ObservationPage,
  ObservationResponse,
  ProjectPage,
  ProjectResponse,
  RecordChangeOrderBody,
  RecordDocumentBody,
  RecordObservationBody,
  RegisterProjectBody,
  ResolveFindingBody,
  SignDocumentBody,
  SignDrawBody,
  SubmitDrawBody,
} from '../projects/contract.js';
import { RAIL_NAMES, RAIL_PATHS } from '../rails/rail.js';
import { ImportRegistryFileBody, ImportSummarySchema, RegisterEntityBody } from '../registry/contract.js';
import * as R from './responses.js';
import { keyAdminOperations } from './key-admin.js';
import {
  EnrollSignerBody,
  InviteSignerBody,
  ListSignersQuery,
  RevokeSignerBody,
  SignerEnrolledResponse,
  SignerInvitedResponse,
  SignerResponse,
} from '../signers/routes.js';
import {
  EraseAccountsBody,
  ListAccountsQuery,
  RegisterAccountBody,
  ReverifyAccountBody,
} from '../accounts/routes.js';

/** Who may call a route, and with which credential (SPEC §1). */
export type Access = 'public' | 'lender' | 'pdf' | 'project' | 'ledger' | 'admin';

export interface Named {
  /** Component name in `#/components/schemas`. */
  name: string;
  schema: z.ZodType;
}

/** A schema, or a choice of schemas (the lender actions' bodies and results). */
export type SchemaRef = Named | { oneOf: Named[] };

export interface OperationSpec {
  method: Method;
  /** Express form (`/api/projects/:id`), exactly as declared in the RouteTable. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  scope?: ApiKeyScope;
  query?: z.ZodType;
  body?: SchemaRef & { required: boolean };
  /** Non-JSON request bodies accepted besides `body` (the SAM upload). */
  rawBody?: string[];
  response: { status: number; description: string; json?: SchemaRef; contentType?: string };
  /** A POST that appends: Idempotency-Key accepted; CONFLICT and IDEMPOTENCY_KEY_REUSED possible. */
  appends?: boolean;
  errors?: ErrorCode[];
  /** Replaces the surface's default security (the lender POST, public without an action). */
  optionalAuth?: boolean;
  /** Specification extensions (`x-…`) copied onto the operation. */
  extensions?: Record<`x-${string}`, unknown>;
  /** Extra query parameters documented by hand (the lender `action`). */
  queryExtra?: { name: string; description: string; schema: Record<string, unknown>; required: boolean }[];
}

/** Route-local query schemas, restated (the routes do not export them). */
export const QUERIES = {
  page: z.strictObject({
    limit: z.coerce.number().int().min(1).max(500).default(100),
    cursor: z.string().max(200).optional(),
  }),
  entities: z.strictObject({
    limit: z.coerce.number().int().min(1).max(500).default(100),
    cursor: z.string().max(200).optional(),
    q: z.string().min(1).max(200).optional(),
  }),
  ledgerPage: LedgerPageQuery,
  pdf: z.strictObject({
    entity: z.string().trim().min(1).max(200),
    key: z.string().max(200).optional().meta({
      description:
        'Deprecated: an API key holding credit:read itself. Prefer `link` (action=pdf_link); a key in a URL leaks.',
    }),
    link: z.string().max(1000).optional().meta({
      description:
        'A signed link token from POST /api/lender-credit?action=pdf_link: this entity only, valid 300 s.',
    }),
  }),
  rail: z.strictObject({ project_id: z.string().min(1).max(80).optional() }),
  scanAll: z.strictObject({
    action: z.literal('scan_all'),
    project_id: z.string().min(1).max(80).optional(),
  }),
  badge: z.strictObject({
    action: z.literal('badge'),
    cert: z.string().regex(/^CERT-[a-z2-7]{16}$/, 'a certification id, CERT-…'),
  }),
} as const;

const created = (what: string): OperationSpec['response'] => ({
  status: 201,
  description: `${what} recorded: its id and the ledger position of the event.`,
  json: { name: 'Created', schema: CreatedResponse },
});
const ok = (name: string, schema: z.ZodType, description = 'OK'): OperationSpec['response'] => ({
  status: 200,
  description,
  json: { name, schema },
});
const body = (name: string, schema: z.ZodType): Named & { required: boolean } => ({
  name,
  schema,
  required: true,
});
const W = { access: 'project', scope: 'governance:write', appends: true } as const;
const Rd = { access: 'project', scope: 'governance:read' } as const;

function ingestion(): OperationSpec[] {
  return [
    {
      ...W,
      method: 'POST',
      path: '/api/entities',
      operationId: 'createEntity',
      tag: 'Ingestion',
      summary: 'Register a governed entity',
      body: body('RegisterEntityBody', RegisterEntityBody),
      response: created('Entity'),
      errors: ['CONFLICT'],
    },
    {
      ...Rd,
      method: 'GET',
      path: '/api/entities',
      operationId: 'listEntities',
      tag: 'Ingestion',
      summary: 'List governed entities',
      query: QUERIES.entities,
      response: ok('EntityPage', R.EntityPageSchema),
    },
    {
      ...Rd,
      method: 'GET',
      path: '/api/entities/:id',
      operationId: 'getEntity',
      tag: 'Ingestion',
      summary: 'One entity by ent_ id, EIN or name',
      response: ok('Entity', R.EntitySchema),
      errors: ['NOT_FOUND', 'CONFLICT'],
    },
    {
      access: 'admin',
      scope: 'registry:admin',
      method: 'POST',
      path: '/api/registry/import',
      operationId: 'importRegistry',
      tag: 'Ingestion',
      summary:
        'Import a SAM.gov extract, platform operator only (upload ≤ 1 MiB, or {path} under DATA_DIR/imports; ≤ 8 MiB uncompressed, ≤ 10,000 rows)',
      body: { name: 'ImportRegistryFileBody', schema: ImportRegistryFileBody, required: false },
      rawBody: ['text/csv', 'text/plain', 'application/zip', 'application/octet-stream'],
      response: ok('ImportSummary', ImportSummarySchema),
      errors: ['NOT_FOUND'],
    },
    {
      ...W,
      method: 'POST',
      path: '/api/projects',
      operationId: 'registerProject',
      tag: 'Ingestion',
      summary: 'Register a project',
      description:
        "A milestone's completed_on is a day that happened: a day after today is refused (400, out_of_range). Start, completion, maturity and due dates may lie ahead.",
      body: body('RegisterProjectBody', RegisterProjectBody),
      response: created('Project'),
    },
    {
      ...Rd,
      method: 'GET',
      path: '/api/projects',
      operationId: 'listProjects',
      tag: 'Ingestion',
      summary: "The org's projects",
      query: QUERIES.page,
      response: ok('ProjectPage', ProjectPage),
    },
    {
      ...Rd,
      method: 'GET',
      path: '/api/projects/:id',
      operationId: 'getProject',
      tag: 'Ingestion',
      summary: 'One project',
      response: ok('Project', ProjectResponse),
      errors: ['NOT_FOUND'],
    },
    {
      ...W,
      method: 'POST',
      path: '/api/projects/:id/change-orders',
      operationId: 'recordChangeOrder',
      tag: 'Ingestion',
      summary: 'Record a change order',
      description:
        'executed_on and lender_approved_on are days that happened: a day after today is refused (400, out_of_range). work_started_on may be the scheduled start, after today.',
      body: body('RecordChangeOrderBody', RecordChangeOrderBody),
      response: created('Change order'),
      errors: ['NOT_FOUND'],
    },
    {
      ...Rd,
      method: 'GET',
      path: '/api/projects/:id/change-orders',
      operationId: 'listChangeOrders',
      tag: 'Ingestion',
      summary: "A project's change orders",
      query: QUERIES.page,
      response: ok('ChangeOrderPage', ChangeOrderPage),
      errors: ['NOT_FOUND'],
    },
    {
      ...W,
      method: 'POST',
      path: '/api/projects/:id/documents',
      operationId: 'recordDocument',
      tag: 'Ingestion',
      summary: 'Record a document (lien waiver, COI, inspection, title date-down, invoice, bill of sale)',
      description:
        "A waiver's signed_on, an inspection's inspected_on, a date-down's effective_on and its liens' recorded_on are days that happened: a day after today is refused (400, out_of_range). A certificate may take effect later.",
      body: body('RecordDocumentBody', RecordDocumentBody),
      response: created('Document'),
      errors: ['NOT_FOUND'],
    },
    {
      ...Rd,
      method: 'GET',
      path: '/api/projects/:id/documents',
      operationId: 'listDocuments',
      tag: 'Ingestion',
      summary: "A project's documents",
      query: QUERIES.page,
      response: ok('DocumentPage', DocumentPage),
      errors: ['NOT_FOUND'],
    },
    {
      ...Rd,
      method: 'GET',
      path: '/api/documents/:id',
      operationId: 'getDocument',
      tag: 'Ingestion',
      summary: 'One document',
      response: ok('Document', DocumentResponse),
      errors: ['NOT_FOUND'],
    },
    {
      ...W,
      method: 'POST',
      path: '/api/projects/:id/draws',
      operationId: 'submitDraw',
      tag: 'Ingestion',
      summary: 'Submit a draw (AIA G702/G703 pay application)',
      body: body('SubmitDrawBody', SubmitDrawBody),
      response: created('Draw'),
      errors: ['NOT_FOUND'],
    },
    {
      ...Rd,
      method: 'GET',
      path: '/api/projects/:id/draws',
      operationId: 'listDraws',
      tag: 'Ingestion',
      summary: "A project's draws",
      query: QUERIES.page,
      response: ok('DrawPage', DrawPage),
      errors: ['NOT_FOUND'],
    },
    {
      ...Rd,
      method: 'GET',
      path: '/api/draws/:id',
      operationId: 'getDraw',
      tag: 'Ingestion',
      summary: 'One draw with its G702 summary and signatures',
      response: ok('Draw', DrawResponse),
      errors: ['NOT_FOUND'],
    },
    {
      ...W,
      method: 'POST',
      path: '/api/draws/:id/signatures',
      operationId: 'signDraw',
      tag: 'Ingestion',
      summary: "Sign a draw (a role of the profile's certification chain)",
      body: body('SignDrawBody', SignDrawBody),
      response: created('Signature'),
      errors: ['NOT_FOUND'],
    },
    {
      ...W,
      method: 'POST',
      path: '/api/observations',
      operationId: 'recordObservation',
      tag: 'Ingestion',
      summary: 'Record a rail observation (DOMAIN §8 kinds)',
      description:
        "observed_on is the day it was seen (for a forecast, the day it was taken): a day after today is refused (400, observed_on out_of_range). So are a milestone's completed_on, a citation's abated_on, a delivery's delivered_on, a payroll's period_to and an equipment log's last_maintenance_on; deadlines (abate_by, needed_by) and a forecast's date may lie ahead.",
      body: body('RecordObservationBody', RecordObservationBody),
      response: created('Observation'),
      errors: ['NOT_FOUND'],
    },
    {
      ...Rd,
      method: 'GET',
      path: '/api/observations',
      operationId: 'listObservations',
      tag: 'Ingestion',
      summary: "The org's observations",
      query: QUERIES.page,
      response: ok('ObservationPage', ObservationPage),
    },
    {
      ...Rd,
      method: 'GET',
      path: '/api/observations/:id',
      operationId: 'getObservation',
      tag: 'Ingestion',
      summary: 'One observation',
      response: ok('Observation', ObservationResponse),
      errors: ['NOT_FOUND'],
    },
    {
      ...W,
      method: 'POST',
      path: '/api/findings/:id/resolve',
      operationId: 'resolveFinding',
      tag: 'Ingestion',
      summary: 'Resolve a governance finding',
      description:
        'resolved_on falls between the day the finding opened and today (else 400, resolved_on out_of_range): it dates the cure that remediation velocity measures. A finding is resolved once (again → 409).',
      body: body('ResolveFindingBody', ResolveFindingBody),
      response: created('Resolution'),
      errors: ['NOT_FOUND'],
    },
  ];
}

function governance(): OperationSpec[] {
  const recorded = (name: string, schema: z.ZodType, what: string): OperationSpec['response'] => ({
    status: 201,
    description: `${what}, recorded as an event carrying its payload hash (audit-verify finds it).`,
    json: { name, schema },
  });
  return [
    {
      ...W,
      method: 'POST',
      path: '/api/kernel-core',
      operationId: 'scan',
      tag: 'Governance',
      summary: 'Kernel full scan: contradictions, temporal rules, adequacy',
      body: body('KernelScanBody', KernelScanBody),
      response: recorded('ScanResult', R.ScanResultSchema, 'The scan'),
      errors: ['NOT_FOUND'],
    },
    {
      ...W,
      method: 'POST',
      path: '/api/dependency-graph',
      operationId: 'compileDraw',
      tag: 'Governance',
      summary: 'Compile the engine DAG for a draw',
      description:
        'Without draw_id: the latest draw not yet funded or rejected (none → 404). A funded or rejected draw named → 409; nothing is recorded.',
      body: body('CompileBody', CompileBody),
      response: recorded('CompileResult', R.CompileResultSchema, 'The compilation'),
      errors: ['NOT_FOUND', 'CONFLICT'],
    },
    {
      ...W,
      method: 'POST',
      path: '/api/adequacy',
      operationId: 'adequacy',
      tag: 'Governance',
      summary: 'Capital adequacy of a project',
      body: body('AdequacyBody', AdequacyBody),
      response: recorded('AdequacyResult', R.AdequacyResultSchema, 'The assessment'),
      errors: ['NOT_FOUND'],
    },
    {
      ...W,
      method: 'POST',
      path: '/api/simulate',
      operationId: 'simulateDraw',
      tag: 'Governance',
      summary: 'Simulate a draw: Approve Now, Delay 30 Days, Reject',
      description: 'A funded or rejected draw (decided already) → 409; nothing is recorded.',
      body: body('SimulateBody', SimulateBody),
      response: recorded('SimulationResult', R.SimulationResultSchema, 'The simulation'),
      errors: ['NOT_FOUND', 'CONFLICT'],
    },
    {
      ...W,
      method: 'POST',
      path: '/api/certification',
      operationId: 'issueCertification',
      tag: 'Governance',
      summary: 'Issue a project certification',
      body: body('IssueCertificationBody', IssueCertificationBody),
      response: recorded('CertificationResult', R.CertificationResultSchema, 'The certification'),
      errors: ['NOT_FOUND'],
    },
    {
      access: 'public',
      method: 'GET',
      path: '/api/certification',
      operationId: 'certificationBadge',
      tag: 'Governance',
      summary: 'Certification badge (public SVG: grade, score, VALID / EXPIRED / SUPERSEDED)',
      query: QUERIES.badge,
      response: { status: 200, description: 'The badge.', contentType: 'image/svg+xml' },
      errors: ['NOT_FOUND', 'INVALID_REQUEST'],
    },
    {
      ...W,
      method: 'POST',
      path: '/api/notarization',
      operationId: 'notarize',
      tag: 'Governance',
      summary:
        'Notarize a recorded document (three digests over its JCS), with a notarial act or hash-stamped',
      body: body('NotarizeBody', NotarizeBody),
      response: recorded('NotarizationResult', R.NotarizationResultSchema, 'The notarization'),
      errors: ['NOT_FOUND'],
    },
    {
      ...W,
      method: 'POST',
      path: '/api/payment-push',
      operationId: 'pushPayment',
      tag: 'Governance',
      summary: "Push a draw's payment through every gate of its profile",
      description:
        'Gate unmet → 422 GATE_UNMET listing every gate, and a PaymentPushBlocked event; a funded draw → 409.',
      body: body('PaymentPushBody', PaymentPushBody),
      response: recorded(
        'PaymentResult',
        R.PaymentResultSchema,
        'The payment, submitted to the rail adapter as an ISO 20022 pain.001',
      ),
      errors: ['NOT_FOUND', 'GATE_UNMET'],
    },
    {
      ...W,
      method: 'POST',
      path: '/api/draws/{id}/reject',
      operationId: 'rejectDraw',
      tag: 'Governance',
      summary: 'Reject a draw, with reasons: it can never be paid (DrawRejected)',
      description: 'A funded or already rejected draw → 409.',
      body: body('RejectDrawBody', RejectDrawBody),
      response: recorded('DrawRejectionResult', R.DrawRejectionResultSchema, 'The rejection'),
      errors: ['NOT_FOUND', 'CONFLICT'],
    },
    {
      access: 'project',
      scope: 'draws:approve',
      appends: true,
      method: 'POST',
      path: '/api/draws/{id}/accept',
      operationId: 'acceptDrawConditions',
      tag: 'Governance',
      summary:
        "Accept a draw's open conditions (FUNDABLE_WITH_CONDITIONS) or reduced amount (REDUCED), with a reason",
      description:
        'Needs a key with draws:approve. The acceptance covers the findings open for the draw at the head; a condition that arises later must be accepted again. Any other verdict → 409.',
      body: body('AcceptDrawBody', AcceptDrawBody),
      response: recorded('DrawAcceptanceResult', R.DrawAcceptanceResultSchema, 'The acceptance'),
      errors: ['NOT_FOUND', 'CONFLICT'],
    },
    {
      access: 'project',
      scope: 'governance:read',
      method: 'POST',
      path: '/api/audit-verify',
      operationId: 'auditVerify',
      tag: 'Governance',
      summary: 'Is this hash recorded, and does its record still verify?',
      body: body('AuditVerifyBody', AuditVerifyBody),
      response: ok('AuditVerification', R.AuditVerificationSchema),
    },
  ];
}

/** A rail read is recorded (RailScanned / RailsScanned) inside the ledger's commit, as a command is. */
const RECORDED_READ_ERRORS = ['NOT_FOUND', 'CONFLICT', 'LEDGER_INTEGRITY'] as const;

function rails(): OperationSpec[] {
  const each: OperationSpec[] = RAIL_NAMES.map((name) => ({
    ...Rd,
    method: 'GET' as const,
    path: RAIL_PATHS[name],
    operationId: `rail_${name.toLowerCase()}`,
    tag: 'Rails',
    summary: `${name} rail (DOMAIN §8)`,
    query: QUERIES.rail,
    response: ok('RailResult', R.RailResultSchema),
    errors: [...RECORDED_READ_ERRORS],
  }));
  return [
    ...each,
    {
      ...Rd,
      method: 'GET',
      path: '/api/governance-rails',
      operationId: 'scanAll',
      tag: 'Rails',
      summary: 'All eleven rails at once (action=scan_all)',
      query: QUERIES.scanAll,
      response: ok('ScanAllResult', R.ScanAllResultSchema),
      errors: [...RECORDED_READ_ERRORS],
    },
    {
      ...Rd,
      method: 'GET',
      path: '/api/profiles',
      operationId: 'profiles',
      tag: 'Rails',
      summary: 'The five governance profiles as the code runs them',
      response: ok('Profiles', R.ProfilesSchema),
    },
  ];
}

/** The transparency log (docs/transparency-log.md): ledger:read or tlog:read; public with TLOG_PUBLIC=1. */
function transparencyLog(): OperationSpec[] {
  const T = {
    access: 'ledger',
    scope: 'ledger:read',
    tag: 'Transparency log',
    description:
      'Readable with a ledger:read or tlog:read key, or by anyone when the service runs with TLOG_PUBLIC=1.',
  } as const;
  const text = (description: string) => ({
    status: 200,
    description,
    contentType: 'text/plain; charset=utf-8',
  });
  return [
    {
      ...T,
      method: 'GET',
      path: '/tlog/checkpoint',
      operationId: 'tlogCheckpoint',
      summary: 'The latest C2SP checkpoint, signed, with any witness cosignatures',
      response: text('A signed note: origin, size, base64 root; the log signature line, then cosignatures.'),
      errors: ['NOT_FOUND'],
    },
    {
      ...T,
      method: 'GET',
      path: '/tlog/checkpoint/cosigned',
      operationId: 'tlogCosignedCheckpoint',
      summary: 'The latest checkpoint cosigned by every configured witness',
      response: text('A signed note with the log signature and one cosignature per witness.'),
      errors: ['NOT_FOUND'],
    },
    {
      ...T,
      method: 'GET',
      path: '/tlog/tile/*path',
      operationId: 'tlogTile',
      summary:
        'A C2SP tlog-tiles hash tile (tile/<L>/<N>[.p/<W>]) or entry bundle (tile/entries/<N>[.p/<W>])',
      response: {
        status: 200,
        description:
          'Concatenated 32-byte hashes, or leaf inputs each prefixed by a big-endian uint16 length.',
        contentType: 'application/octet-stream',
      },
      errors: ['NOT_FOUND'],
    },
    {
      ...T,
      method: 'GET',
      path: '/api/ledger/receipt',
      operationId: 'ledgerReceipt',
      summary: 'The receipt of an event (by hash or seq) against the latest signed checkpoint',
      query: EventQuery,
      response: ok('Receipt', R.ReceiptSchema),
      errors: ['NOT_FOUND', 'LEDGER_INTEGRITY'],
    },
    {
      ...T,
      method: 'GET',
      path: '/api/ledger/proof/inclusion',
      operationId: 'ledgerInclusionProof',
      summary: 'An RFC 9162 inclusion proof of an event (the receipt form)',
      query: EventQuery,
      response: ok('Receipt', R.ReceiptSchema),
      errors: ['NOT_FOUND', 'LEDGER_INTEGRITY'],
    },
    {
      ...T,
      method: 'GET',
      path: '/api/ledger/proof/consistency',
      operationId: 'ledgerConsistencyProof',
      summary: 'An RFC 9162 consistency proof between two tree sizes',
      query: ConsistencyQuery,
      response: ok('ConsistencyProof', R.ConsistencyProofSchema),
      errors: ['NOT_FOUND', 'LEDGER_INTEGRITY'],
    },
  ];
}

function ledgerAndPlatform(): OperationSpec[] {
  const L = { access: 'ledger', scope: 'ledger:read', tag: 'Ledger' } as const;
  const P = { access: 'public', tag: 'Platform' } as const;
  return [
    {
      ...L,
      method: 'GET',
      path: '/api/ledger',
      operationId: 'ledgerPage',
      summary:
        'Ledger events after a seq or cursor (other orgs redacted); filters by type, stream prefix, entity and recorded_at range search the whole ledger',
      query: QUERIES.ledgerPage,
      response: ok('LedgerPage', R.LedgerPageSchema),
    },
    {
      ...L,
      method: 'GET',
      path: '/api/ledger/verify',
      operationId: 'ledgerVerifyStatus',
      summary: 'The background verifier watermark',
      response: ok('LedgerVerifyStatus', R.LedgerVerifyStatusSchema),
    },
    ...transparencyLog(),
    {
      ...L,
      method: 'GET',
      path: '/api/ledger/:seq',
      operationId: 'ledgerEvent',
      summary: 'One ledger event',
      response: ok('LedgerEntry', R.LedgerEntrySchema),
      errors: ['NOT_FOUND', 'INVALID_REQUEST'],
    },
    {
      access: 'pdf',
      scope: 'credit:read',
      tag: 'Lender credit',
      method: 'GET',
      path: '/api/credit-report-pdf',
      operationId: 'creditReportPdf',
      summary: 'The credit report as a printable PDF (counts against the daily quota)',
      query: QUERIES.pdf,
      response: {
        status: 200,
        description: 'The PDF; header Provenance-Hash.',
        contentType: 'application/pdf',
      },
      // Opening it records the inquiry (CreditReportIssued): refused while an integrity failure stands.
      errors: ['NOT_FOUND', 'CONFLICT', 'LEDGER_INTEGRITY'],
    },
    {
      ...P,
      method: 'GET',
      path: '/healthz',
      operationId: 'healthz',
      summary: 'Liveness',
      response: ok('Health', R.HealthSchema),
    },
    {
      ...P,
      method: 'GET',
      path: '/readyz',
      operationId: 'readyz',
      summary: 'Readiness (503 lists the failing checks)',
      response: ok('Readiness', R.ReadinessSchema),
    },
    {
      ...P,
      method: 'GET',
      path: '/metrics',
      operationId: 'metrics',
      summary: 'Prometheus metrics',
      response: { status: 200, description: 'Prometheus text format.', contentType: 'text/plain' },
    },
  ];
}

/** Developer resources served by src/openapi/routes.ts itself. */
export function developerResources(): OperationSpec[] {
  const D = { access: 'public', tag: 'Developer' } as const;
  return [
    {
      ...D,
      method: 'GET',
      path: '/openapi.json',
      operationId: 'openapi',
      summary: 'This document (OpenAPI 3.1)',
      response: { status: 200, description: 'OpenAPI 3.1', contentType: 'application/json' },
    },
    {
      ...D,
      method: 'GET',
      path: '/docs',
      operationId: 'docs',
      summary: 'API reference rendered from this document',
      response: { status: 200, description: 'HTML', contentType: 'text/html' },
    },
    {
      ...D,
      method: 'GET',
      path: '/docs/init.js',
      operationId: 'docsScript',
      summary: 'Starts Swagger UI on /docs',
      response: { status: 200, description: 'JavaScript', contentType: 'text/javascript' },
    },
    {
      ...D,
      method: 'GET',
      path: '/docs/docs.css',
      operationId: 'docsStyles',
      summary: 'Styles of /docs',
      response: { status: 200, description: 'CSS', contentType: 'text/css' },
    },
    {
      ...D,
      method: 'GET',
      path: '/docs/assets/:file',
      operationId: 'docsAsset',
      summary: 'Swagger UI (swagger-ui-bundle.js, swagger-ui.css, favicon-32x32.png)',
      response: { status: 200, description: 'JavaScript, CSS or PNG', contentType: 'text/javascript' },
      errors: ['NOT_FOUND'],
    },
    {
      ...D,
      method: 'GET',
      path: '/sdk/plumbline.js',
      operationId: 'sdk',
      summary: 'The SDK (ESM, browsers and Node 20+)',
      response: { status: 200, description: 'JavaScript module', contentType: 'text/javascript' },
      errors: ['UNAVAILABLE'],
    },
    {
      ...D,
      method: 'GET',
      path: '/sdk/plumbline.d.ts',
      operationId: 'sdkTypes',
      summary: 'TypeScript declarations of the SDK',
      response: {
        status: 200,
        description: 'TypeScript declarations',
        contentType: 'application/typescript',
      },
      errors: ['UNAVAILABLE'],
    },
  ];
}

/** Signed duties (docs/duties.md): signers, their enrollment, and signatures executing documents. */
function duties(): OperationSpec[] {
  const T = { tag: 'Duties' } as const;
  return [
    {
      ...W,
      ...T,
      method: 'POST',
      path: '/api/signers',
      operationId: 'inviteSigner',
      summary: 'Invite a signer for a party and capacity; answers the one-time enrollment token once',
      body: body('InviteSignerBody', InviteSignerBody),
      response: {
        status: 201,
        description: 'The invited signer and its enrollment token',
        json: { name: 'SignerInvited', schema: SignerInvitedResponse },
      },
      errors: ['INVALID_REQUEST'],
    },
    {
      ...T,
      access: 'public',
      method: 'POST',
      path: '/api/signers/enroll',
      operationId: 'enrollSigner',
      summary: 'Enroll an Ed25519 public key with the enrollment token alone (no API key)',
      body: body('EnrollSignerBody', EnrollSignerBody),
      response: {
        status: 201,
        description: 'The enrolled key',
        json: { name: 'SignerEnrolled', schema: SignerEnrolledResponse },
      },
      errors: ['INVALID_REQUEST', 'UNAUTHENTICATED', 'CONFLICT', 'RATE_LIMITED'],
    },
    {
      ...W,
      ...T,
      method: 'POST',
      path: '/api/signers/:id/revoke',
      operationId: 'revokeSigner',
      summary: 'Revoke a signer and its key: its signatures stop counting',
      body: body('RevokeSignerBody', RevokeSignerBody),
      response: created('Revocation'),
      errors: ['NOT_FOUND'],
    },
    {
      ...Rd,
      ...T,
      method: 'GET',
      path: '/api/signers',
      operationId: 'listSigners',
      summary: "The org's signers",
      query: ListSignersQuery,
      response: ok('SignerList', z.strictObject({ items: z.array(SignerResponse) })),
    },
    {
      ...Rd,
      ...T,
      method: 'GET',
      path: '/api/signers/:id',
      operationId: 'getSigner',
      summary: 'One signer',
      response: ok('Signer', SignerResponse),
      errors: ['NOT_FOUND'],
    },
    {
      ...W,
      ...T,
      method: 'POST',
      path: '/api/documents/:id/signatures',
      operationId: 'signDocument',
      summary: "Execute a lien waiver: its claimant's signer's Ed25519 signature over its terms",
      body: body('SignDocumentBody', SignDocumentBody),
      response: created('DocumentSignature'),
      errors: ['NOT_FOUND'],
    },
    {
      ...W,
      ...T,
      method: 'POST',
      path: '/api/accounts',
      operationId: 'registerAccount',
      summary:
        'Register a lender or payee bank account (ABA + account number, or IBAN + BIC), with its verification',
      body: body('RegisterAccountBody', RegisterAccountBody),
      response: created('Account'),
      errors: ['INVALID_REQUEST'],
    },
    {
      ...W,
      ...T,
      method: 'POST',
      path: '/api/accounts/:id/verify',
      operationId: 'reverifyAccount',
      summary: 'Re-verify an account with a second lender key (not the registering one)',
      body: body('ReverifyAccountBody', ReverifyAccountBody),
      response: created('Re-verification'),
      errors: ['NOT_FOUND'],
    },
    {
      ...W,
      ...T,
      method: 'POST',
      path: '/api/accounts/erase',
      operationId: 'eraseAccounts',
      summary: "Erase a payee's (or the org's) account numbers by deleting their data key (crypto-shredding)",
      body: body('EraseAccountsBody', EraseAccountsBody),
      response: {
        status: 201,
        description: 'The erasure recorded and the data key deleted',
        json: {
          name: 'AccountsErased',
          schema: z.strictObject({
            subject: z.string(),
            key_deleted: z.boolean(),
            ledger: z.strictObject({ seq: z.int(), hash: z.string() }),
          }),
        },
      },
      errors: ['NOT_FOUND'],
    },
    {
      ...Rd,
      ...T,
      method: 'GET',
      path: '/api/accounts',
      operationId: 'listAccounts',
      summary: "The org's bank accounts, masked",
      query: ListAccountsQuery,
      response: ok('AccountList', z.strictObject({ items: z.array(z.record(z.string(), z.unknown())) })),
    },
    {
      ...Rd,
      ...T,
      method: 'GET',
      path: '/api/accounts/:id',
      operationId: 'getAccount',
      summary: 'One bank account, masked (erased: true once its data key is deleted)',
      response: ok('Account', z.record(z.string(), z.unknown())),
      errors: ['NOT_FOUND'],
    },
    {
      ...Rd,
      ...T,
      method: 'GET',
      path: '/api/documents/:id/signatures',
      operationId: 'listDocumentSignatures',
      summary: 'The signatures executing a document',
      response: ok(
        'DocumentSignatureList',
        z.strictObject({ items: z.array(z.record(z.string(), z.unknown())) }),
      ),
      errors: ['NOT_FOUND'],
    },
  ];
}

/** The read views the governance pages and the front door use (issue 18). */
function pageViews(): OperationSpec[] {
  return [
    {
      access: 'public',
      tag: 'Platform',
      method: 'GET',
      path: '/api/status',
      operationId: 'serviceStatus',
      summary: 'The ledger head, how far the chain is verified, and the latest signed checkpoint (public)',
      response: ok('ServiceStatus', R.ServiceStatusSchema),
    },
    {
      access: 'public',
      tag: 'Platform',
      method: 'GET',
      path: '/',
      operationId: 'frontDoor',
      summary: 'The front door: what the service is, its status, and every page',
      response: { status: 200, description: 'HTML', contentType: 'text/html' },
    },
    {
      ...Rd,
      method: 'GET',
      path: '/api/portfolio',
      operationId: 'portfolioView',
      tag: 'Governance',
      summary:
        'Every governed entity with grade, behavioral state, trend and your open findings (sorted, paginated)',
      query: PortfolioQuery,
      response: ok('PortfolioView', R.PortfolioViewSchema),
      errors: ['INVALID_REQUEST'],
    },
    {
      ...Rd,
      method: 'GET',
      path: '/api/entities/:id/credit',
      operationId: 'entityCreditView',
      tag: 'Governance',
      summary:
        'Score history, dimensions, behavioral timeline and inquiries by month (other lenders counted, not named)',
      response: ok('EntityCreditView', R.EntityCreditViewSchema),
      errors: ['NOT_FOUND', 'CONFLICT'],
    },
    {
      ...Rd,
      method: 'GET',
      path: '/api/projects/:id/governance',
      operationId: 'projectGovernanceView',
      tag: 'Governance',
      summary: "A project's findings with evidence and cure status, and its latest certification",
      response: ok('ProjectGovernanceView', R.ProjectGovernanceViewSchema),
      errors: ['NOT_FOUND'],
    },
    {
      ...Rd,
      method: 'GET',
      path: '/api/draws/:id/gates',
      operationId: 'drawGates',
      tag: 'Governance',
      summary:
        'The payment gate a push decided now would evaluate, each gate with its rule in words (records nothing)',
      query: GatesQuery,
      response: ok('DrawGates', R.DrawGatesSchema),
      errors: ['NOT_FOUND'],
    },
  ];
}

export function routeOperations(): OperationSpec[] {
  return [
    ...ingestion(),
    ...duties(),
    ...governance(),
    ...rails(),
    ...ledgerAndPlatform(),
    ...pageViews(),
    ...keyAdminOperations(),
    ...developerResources(),
  ];
}
