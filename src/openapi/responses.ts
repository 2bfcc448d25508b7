/**
 * Response schemas for OpenAPI where the route's own module declares none (lender results,
 * governance results, ledger, health). They describe the wire shape SPEC §4–§10 fixes; members
 * a 1.x release may add are allowed (loose objects), as SPEC §2 versioning promises.
 */
import { z } from 'zod';

const str = z.string();
const int = z.int();
const num = z.number();
const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const nullable = <T extends z.ZodType>(t: T) => t.nullable();

export const LedgerHeadSchema = z.looseObject({ seq: int, hash: hex64 });
export const ProvenanceSchema = z
  .looseObject({ sha256: hex64, sha3_256: hex64, blake2b_256: hex64, ledger: LedgerHeadSchema })
  .meta({ description: 'ARCHITECTURE §7: digests of the JCS payload and the ledger anchor.' });

const grade = z.enum(['A', 'B', 'C', 'D', 'F']);
const behavioralState = z.enum([
  'PROVISIONAL',
  'GOOD_STANDING',
  'WATCH',
  'PROBATION',
  'RESTRICTED',
  'SUSPENDED',
]);
const velocity = z.enum(['NO_VIOLATIONS', 'RESPONSIVE', 'PARTIAL', 'NON_RESPONSIVE']);
const conflictStatus = z.enum(['CLEAR', 'CONFLICTS_PRESENT']);
const registrySource = z.looseObject({
  kind: z.enum(['sam_extract', 'sam_api']),
  file: str.optional(),
  as_of: str,
  fetched_at: str
    .optional()
    .meta({ description: 'sam_api: when SAM.gov answered (answers are reused for 24 hours).' }),
});
const registryFallback = z
  .looseObject({
    reason: z.enum(['timeout', 'network', 'unauthorized', 'rate_limited', 'http_error', 'bad_response']),
    status: nullable(int),
    detail: str,
  })
  .optional()
  .meta({
    description:
      'Present when the live SAM.gov check (SAM_API_KEY configured) failed and the imported extract answered instead.',
  });
const ok = z.literal(true);

export const CreditReportSchema = z.looseObject({
  ok,
  entity: str,
  entity_id: str,
  as_of: str,
  credit: z.looseObject({
    composite_score: num,
    grade,
    confidence: z.enum(['LOW', 'MEDIUM', 'HIGH']),
    confidence_basis: z.looseObject({ signals: num, projects: num }),
    dimensions: z.record(
      str,
      z.looseObject({
        score: num,
        grade,
        weight: num,
        signals: int,
        furnishers: int,
        insufficient_data: z.boolean(),
        factors: z.array(z.looseObject({ code: str, impact: num, description: str })),
      }),
    ),
    reason_codes: z.array(z.looseObject({ code: str, description: str })).max(4),
  }),
  behavioral: z.looseObject({
    state: behavioralState,
    last_assessed: str,
    since: str,
    previous_state: nullable(behavioralState),
  }),
  conflicts: z.looseObject({
    active_conflicts: int,
    status: conflictStatus,
    items: z.array(z.looseObject({ code: str, project_id: nullable(str), since: str })),
  }),
  remediation: z.looseObject({
    velocity,
    open_findings: int,
    resolved_findings: int,
    median_days_to_cure: nullable(num),
  }),
  contractor_registry: z.looseObject({
    registration: z.enum(['active', 'inactive']),
    exclusions: z.enum(['clear', 'excluded']),
    checked_at: str,
    source: registrySource,
    fallback: registryFallback,
  }),
  provenance_hash: hex64,
  provenance: ProvenanceSchema,
});

export const PortfolioSchema = z.looseObject({
  ok,
  data: z.array(
    z.looseObject({
      entity: str,
      entity_id: str,
      composite_score: num,
      grade,
      behavioral_state: behavioralState,
      conflicts_status: conflictStatus,
      remediation_velocity: velocity,
      last_assessed: str,
    }),
  ),
  next_cursor: nullable(str),
  as_of: str,
});

export const RegistryVerificationSchema = z.looseObject({
  ok,
  entity: str,
  entity_id: str,
  contractor_registry: z.looseObject({
    registration: z.enum(['active', 'inactive']),
    exclusions: z.enum(['clear', 'excluded']),
    uei: nullable(str),
    cage: nullable(str),
    legal_name: nullable(str),
    registration_expires_on: nullable(str),
    exclusion_records: z.array(
      z.looseObject({
        program: nullable(str),
        type: nullable(str),
        agency: nullable(str),
        active_on: nullable(str),
        terminates_on: nullable(str),
      }),
    ),
    source: registrySource,
    checked_at: str,
    fallback: registryFallback,
  }),
});

export const HistorySchema = z.looseObject({
  ok,
  entity: str,
  entity_id: str,
  events: z.array(
    z.looseObject({
      seq: int,
      type: str,
      occurred_at: str,
      recorded_at: str,
      project_id: nullable(str),
      severity: z.enum(['info', 'warning', 'blocking']),
      summary: str,
      event_hash: hex64,
    }),
  ),
  next_before: nullable(int),
});

export const EligibilitySchema = z.looseObject({
  ok,
  entity: str,
  entity_id: str,
  payment_recommendation: z.looseObject({
    pral: z.enum(['RELEASE', 'RELEASE_WITH_CONDITIONS', 'HOLD', 'DENY']),
    rationale: z.array(str),
  }),
  eligible_payment_rails: z
    .array(z.enum(['ACH', 'Wire', 'RTP', 'SWIFT', 'ESCROW']))
    .meta({ description: 'ESCROW: joint check or escrow only (PRAL HOLD); none at DENY.' }),
  marketplace_access: z.looseObject({
    tier: z.enum(['PREFERRED', 'STANDARD', 'RESTRICTED', 'NONE']),
    programs: z.array(z.enum(['early_payment', 'supply_chain_finance', 'retainage_advance'])),
  }),
  credit_improvement: z.array(
    z.looseObject({
      dimension: str,
      factor: str.meta({ description: 'The reason code whose removal the gain is computed for.' }),
      action: str,
      expected_gain: num.meta({
        description: 'Composite points gained if the factor were removed (recomputed).',
      }),
    }),
  ),
});

export const UsageSchema = z.looseObject({
  ok,
  key_id: str,
  org_id: str,
  limit: int,
  used: int,
  remaining: int,
  window: str,
  resets_at: str,
  by_action: z.record(str, int),
});

export const PdfLinkSchema = z.looseObject({
  ok,
  entity: str.meta({ description: 'The legal name of the entity the reference resolved to.' }),
  entity_id: str.meta({ description: 'Its ent_ id, which the link names.' }),
  url: str.meta({
    description: 'Opens the report of this entity, as the asking key, without a key in the URL.',
  }),
  path: str.meta({
    description: 'The same link relative to the service (path and query), for clients behind a proxy.',
  }),
  expires_at: str.meta({ description: 'At most 300 s after the request.' }),
});

export const DiscoverySchema = z.looseObject({
  ok,
  api: str,
  version: str,
  description: str,
  authentication: str,
  endpoints: z.record(str, z.looseObject({ description: str, body: nullable(z.record(str, str)) })),
  response_schema: z.record(str, z.unknown()),
  rate_limit: str,
});

export const EntitySchema = z.looseObject({
  entity_id: str,
  legal_name: str,
  aliases: z.array(str),
  ein: nullable(str),
  uei: nullable(str),
  cage: nullable(str),
  roles: z.array(str),
  business_types: z.array(str),
  state: nullable(str),
  org_id: nullable(str),
  registered_at: str,
  seq: int,
});
export const EntityPageSchema = z.looseObject({ data: z.array(EntitySchema), next_cursor: nullable(str) });

const finding = z.looseObject({
  id: str,
  code: str,
  severity: z.enum(['WARNING', 'BLOCKING']),
  draw_id: nullable(str),
  entity_id: nullable(str),
  title: str,
  detail: str,
  evidence: z.array(z.looseObject({ kind: str, id: str })),
  detected_on: str,
});
/** DOMAIN §4: a member (and the overall) is an integer score 0–100 with its grade. */
const gradedScore = z.looseObject({ score: int.min(0).max(100), grade });
const adequacyVector = z.looseObject({
  lender: gradedScore,
  contractor: gradedScore,
  project: gradedScore,
  cashflow: gradedScore,
  compliance: gradedScore,
  risk: gradedScore,
});
const overall = gradedScore;

export const ScanResultSchema = z.looseObject({
  scan_id: str,
  project_id: str,
  scan_verdict: str,
  contradictions: z.looseObject({ count: int, items: z.array(finding) }),
  temporal: z.looseObject({ count: int, items: z.array(finding) }),
  adequacy: z.looseObject({ overall, vector: adequacyVector }),
  as_of: str,
  provenance: ProvenanceSchema,
});

export const CompileResultSchema = z.looseObject({
  compilation: z.looseObject({
    compilation_id: str,
    draw_id: str,
    verdict_status: str,
    draw_verdict: str,
    layers_executed: int,
    trace: z.array(
      z.looseObject({
        engine: str,
        layer: int,
        status: z.enum(['FIRED', 'SKIPPED', 'BLOCKED', 'FAILED']),
        detail: str.optional(),
      }),
    ),
    evidence_available: z.array(z.unknown()),
  }),
  project_id: str,
  as_of: str,
  provenance: ProvenanceSchema,
});

export const AdequacyResultSchema = z.looseObject({
  assessment_id: str,
  project_id: str,
  adequacy: z.looseObject({ overall, vector: adequacyVector, in_balance: z.unknown(), figures: z.unknown() }),
  as_of: str,
  provenance: ProvenanceSchema,
});

export const SimulationResultSchema = z.looseObject({
  simulation_id: str,
  draw_id: str,
  recommendation: str,
  scenarios: z.array(
    z.looseObject({
      name: str,
      capital: z.looseObject({
        disbursed_after: int,
        undisbursed_after: int,
        cost_to_complete: int,
        in_balance_gap: int,
        interest_carry: int,
        retainage_held: int,
      }),
      risk: z.looseObject({ score: num, posture: str, open_blocking: int, expected_loss: int }),
    }),
  ),
  as_of: str,
  provenance: ProvenanceSchema,
});

export const CertificationResultSchema = z.looseObject({
  certification: z.looseObject({
    id: str,
    project_id: str,
    grade: str,
    score: num,
    issued_on: str,
    valid_until: str,
    badge_url: str,
  }),
  as_of: str,
  provenance: ProvenanceSchema,
});

export const NotarizationResultSchema = z.looseObject({
  notarization_id: str,
  document_type: str,
  document_id: str,
  jurisdiction: str,
  notarized_at: str,
  multi_hash: z.looseObject({ sha256: hex64, sha3: hex64, blake2b: hex64 }),
  /** NOTARIAL_ACT (a verified act) or HASH_STAMPED (bare digests; never satisfies the gate). */
  status: z.enum(['NOTARIAL_ACT', 'HASH_STAMPED']),
  act: z.looseObject({ notary_signer_id: str, act_type: str, act_date: str, signature: str }).nullable(),
  ledger: LedgerHeadSchema,
});

export const PaymentResultSchema = z.looseObject({
  payment: z.looseObject({
    id: str,
    draw_id: str,
    amount: int,
    rail: z.enum(['ACH', 'Wire', 'RTP', 'SWIFT', 'ESCROW']),
    status: z.literal('SUBMITTED'),
    instruction: z.looseObject({ format: z.literal('pain.001'), message_id: str }),
  }),
  provenance: ProvenanceSchema,
});

export const DrawRejectionResultSchema = z.looseObject({
  rejection: z.looseObject({
    id: str,
    draw_id: str,
    project_id: str,
    reasons: z.array(str),
    rejected_on: str,
  }),
  provenance: ProvenanceSchema,
});

export const DrawAcceptanceResultSchema = z.looseObject({
  acceptance: z.looseObject({
    id: str,
    draw_id: str,
    draw_verdict: str,
    accepted_codes: z.array(str),
    finding_ids: z.array(str),
    fundable_amount: int,
    reason: str,
    accepted_on: str,
  }),
  provenance: ProvenanceSchema,
});

/** A transparency-log receipt (docs/transparency-log.md): base64 proof hashes, hex event fields. */
export const ReceiptSchema = z.looseObject({
  event: z.looseObject({ seq: int, prev_hash: str, content_hash: str, hash: str }),
  leaf_index: int,
  tree_size: int,
  inclusion_proof: z.array(str),
  checkpoint: str,
});

export const ConsistencyProofSchema = z.looseObject({
  from: int,
  to: int,
  consistency_proof: z.array(str),
  checkpoint: nullable(str),
});

export const AuditVerificationSchema = z.looseObject({
  verdict: z.enum(['AUTHENTIC', 'TAMPERED']),
  reason: z.enum([
    'EVENT_VERIFIED',
    'ARTIFACT_VERIFIED',
    'UNKNOWN_HASH',
    'CONTENT_MISMATCH',
    'CHAIN_BROKEN',
    'TREE_MISMATCH',
  ]),
  detail: str.optional(),
  seq: int.optional(),
  match: z
    .looseObject({ kind: str, seq: int, event_id: nullable(str), type: str, recorded_at: nullable(str) })
    .optional(),
  chain: z.looseObject({ verified_through: int, head: int }),
  /** AUTHENTIC answers: the recording event's transparency-log receipt (docs/transparency-log.md). */
  receipt: nullable(ReceiptSchema).optional(),
  receipt_url: str.optional(),
});

const railFinding = z.looseObject({
  code: str,
  severity: z.enum(['INFO', 'WARNING', 'CRITICAL']),
  project_id: nullable(str),
  entity_id: nullable(str),
  title: str,
  detail: str,
  evidence: z.unknown(),
  observed_on: str,
});
const posture = z.enum(['NOMINAL', 'ELEVATED', 'CRITICAL']);
/** Which of the facts a rail reads it had; none → ELEVATED with INSUFFICIENT_DATA (issue 14). */
const railCoverage = z.looseObject({ facts_present: z.array(str), facts_missing: z.array(str) });

export const RailResultSchema = z.looseObject({
  rail: str,
  posture,
  score: num,
  findings: z.array(railFinding),
  coverage: railCoverage,
  as_of: str,
  provenance_hash: hex64,
  provenance: ProvenanceSchema,
});

export const ScanAllResultSchema = z.looseObject({
  governance_posture: posture,
  composite_score: num,
  rails: z.array(
    z.looseObject({
      name: str,
      posture,
      score: num,
      findings: z.array(railFinding),
      coverage: railCoverage,
      counted: z.boolean(),
    }),
  ),
  total_findings: int,
  not_clear: z.array(str),
  as_of: str,
  provenance_hash: hex64.meta({
    description: 'SHA-256 of the JCS of the answer without provenance_hash, provenance and ledger.',
  }),
  provenance: ProvenanceSchema,
  ledger: LedgerHeadSchema.meta({ description: 'The recording event (RailsScanned): provenance.ledger.' }),
});

export const ProfilesSchema = z.looseObject({
  data: z.array(
    z.looseObject({
      name: str,
      engines: int,
      gates: z.array(str),
      gate_count: int,
      payment_rails: z.array(str),
      certification_chain: z.array(str),
      notarized_document_types: z.array(str),
      optional_rails: z.array(str),
    }),
  ),
});

export const LedgerEventSchema = z.looseObject({
  seq: int,
  id: str,
  stream: str,
  type: str,
  schema: int,
  data: z.unknown(),
  meta: z.looseObject({
    org_id: nullable(str),
    actor: str,
    request_id: str,
    correlation_id: str.optional(),
    causation_id: str.optional(),
  }),
  recorded_at: str,
  content_hash: hex64,
  prev_hash: hex64,
  hash: hex64,
});
export const RedactedEventSchema = z
  .strictObject({
    seq: int,
    type: z.literal('Redacted'),
    recorded_at: str,
    content_hash: hex64,
    prev_hash: hex64,
    hash: hex64,
  })
  .meta({ description: "Another org's event: the chain fields only, so every link still verifies." });
export const LedgerEntrySchema = z.union([RedactedEventSchema, LedgerEventSchema]);
export const LedgerPageSchema = z.looseObject({
  events: z.array(LedgerEntrySchema),
  head: LedgerHeadSchema,
  next_cursor: nullable(str),
  scanned_through: int.optional(),
});
export const LedgerVerifyStatusSchema = z.looseObject({
  ok: z.boolean(),
  verified_through: int,
  head: LedgerHeadSchema,
  issues: z.array(z.looseObject({ code: str, seq: int, expected: str, actual: str })),
  last_run_at: nullable(str),
});

export const HealthSchema = z.looseObject({ status: z.literal('ok') });
export const ReadinessSchema = z.looseObject({
  status: z.enum(['ready', 'not_ready']),
  checks: z.record(str, z.looseObject({ ok: z.boolean(), detail: str })),
  ledger: z.looseObject({ head: int, verified_through: int, chain_ok: z.boolean() }),
});

export const ServiceStatusSchema = z.looseObject({
  service: str,
  version: str,
  head: z.looseObject({ seq: int }),
  chain: z.looseObject({ ok: z.boolean(), verified_through: int, last_run_at: nullable(str) }),
  checkpoint: nullable(z.looseObject({ origin: str, size: int, root: str, key_id: str })),
  as_of: str,
});
export const PortfolioViewSchema = z.looseObject({
  data: z.array(
    z.looseObject({
      entity: str,
      entity_id: str,
      composite_score: z.number(),
      grade: str,
      behavioral_state: str,
      trend: z.array(z.number()),
      open_findings: int,
    }),
  ),
  total: int,
  next_cursor: nullable(str),
  as_of: str,
});
export const EntityCreditViewSchema = z.looseObject({
  entity_id: str,
  legal_name: str,
  current: z.looseObject({ composite_score: z.number(), grade: str, confidence: str }),
  dimensions: z.array(
    z.looseObject({
      name: str,
      score: z.number(),
      grade: str,
      weight: z.number(),
      insufficient_data: z.boolean(),
    }),
  ),
  score_history: z.array(
    z.looseObject({ on: str, composite_score: z.number(), grade: str, yours: z.boolean() }),
  ),
  behavioral: z.looseObject({ state: str, since: str, transitions: z.array(z.looseObject({})) }),
  inquiries_by_month: z.array(z.looseObject({ month: str, yours: int, other_lenders: int })),
  as_of: str,
});
export const ProjectGovernanceViewSchema = z.looseObject({
  project_id: str,
  findings: z.array(
    z.looseObject({
      id: str,
      code: str,
      title: str,
      cure: z.looseObject({ status: z.enum(['OPEN', 'RESOLVED']) }),
    }),
  ),
  open_findings: int,
  certification: nullable(z.looseObject({ id: str, grade: str, score: int, status: str, badge_url: str })),
  as_of: str,
});
export const DrawGatesSchema = z.looseObject({
  draw_id: str,
  project_id: str,
  status: str,
  rail: str,
  draw_verdict: str,
  fundable: z.boolean(),
  gates: z.array(z.looseObject({ gate: str, passed: z.boolean(), detail: str, title: str, rule: str })),
  as_of: str,
});
