/**
 * The Plumbline client: one method per lender action (SPEC §4), ingestion and governance endpoint
 * (§5–§7) and ledger read (§9). Appending calls send an Idempotency-Key — the caller's, or a fresh
 * one — that every retry of that call reuses.
 */
import { newIdempotencyKey, Transport, type PlumblineOptions, type RequestSpec } from './transport.js';
import type {
  AdequacyResult,
  AuditVerification,
  CertificationResult,
  ChangeOrder,
  CompileResult,
  CreateEntityBody,
  Created,
  CreditReport,
  Discovery,
  Document,
  Draw,
  Eligibility,
  Entity,
  GovernanceProfile,
  History,
  HistoryOptions,
  LedgerEntry,
  LedgerConsistencyProof,
  LedgerPage,
  LedgerReceipt,
  LedgerVerifyStatus,
  NotarizationResult,
  NotarizeBody,
  Observation,
  Page,
  PageOptions,
  PaymentRail,
  PaymentResult,
  DrawAcceptanceResult,
  DrawRejectionResult,
  Portfolio,
  PortfolioOptions,
  Project,
  RailName,
  RailResult,
  RecordChangeOrderBody,
  RecordDocumentBody,
  RecordObservationBody,
  RegisterProjectBody,
  RegistryVerification,
  ResolveFindingBody,
  ScanAllResult,
  ScanResult,
  SignDrawBody,
  SimulationResult,
  SubmitDrawBody,
  PdfLink,
  Usage,
} from './types.js';

/** Options of a call that appends to the ledger. */
export interface AppendOptions {
  /** Reuse a key of your own (e.g. to retry across process restarts); default: a fresh UUID. */
  idempotencyKey?: string;
}

export interface CertificationOptions extends AppendOptions {
  /** Let the public badge show the project's name (the lender's choice; default: it names none). */
  show_project_name?: boolean;
}

/** The GET path of each rail (SPEC §7). */
export const RAIL_PATHS: Readonly<Record<RailName, string>> = {
  SYSTEM_RISK: '/api/system-risk',
  WORKFORCE: '/api/workforce-rail',
  SCHEDULE: '/api/schedule-rail',
  SAFETY: '/api/safety-governance',
  INSURANCE: '/api/insurance-rail',
  ENVIRONMENTAL: '/api/environmental-rail',
  PROCUREMENT: '/api/procurement-rail',
  EQUIPMENT: '/api/equipment-rail',
  WEATHER: '/api/weather-rail',
  COUNTERPARTY: '/api/counterparty-rail',
  MARKET: '/api/market-rail',
};

const LENDER = '/api/lender-credit';
const seg = (id: string | number): string => encodeURIComponent(String(id));

export class Plumbline {
  readonly #http: Transport;

  constructor(options: PlumblineOptions) {
    this.#http = new Transport(options);
  }

  // -- lender credit API (x-plumbline-api-key, credit:read) -----------------------------------

  #lender<T>(action: string, body?: unknown, idempotencyKey?: string): Promise<T> {
    const spec: RequestSpec = { method: 'POST', path: LENDER, query: { action }, body, auth: 'api-key' };
    // Actions that record an event (score, verify) honour Idempotency-Key: a retry replays.
    if (idempotencyKey !== undefined) spec.idempotencyKey = idempotencyKey;
    return this.#http.request<T>(spec);
  }

  /** The discovery document (public, free). */
  discovery(): Promise<Discovery> {
    return this.#http.request({ method: 'GET', path: LENDER, auth: 'none' });
  }

  /** The credit report of an entity (legal name, alias, EIN or ent_ id); records an inquiry. */
  score(entity: string, options: AppendOptions = {}): Promise<CreditReport> {
    return this.#lender('score', { entity }, options.idempotencyKey ?? newIdempotencyKey());
  }

  portfolio(options: PortfolioOptions = {}): Promise<Portfolio> {
    return this.#lender('portfolio', options);
  }

  /** SAM.gov registration and exclusions check; records RegistryVerified. */
  verify(entity: string, options: AppendOptions = {}): Promise<RegistryVerification> {
    return this.#lender('verify', { entity }, options.idempotencyKey ?? newIdempotencyKey());
  }

  history(entity: string, options: HistoryOptions = {}): Promise<History> {
    return this.#lender('history', { entity, ...options });
  }

  eligibility(entity: string): Promise<Eligibility> {
    return this.#lender('eligibility', { entity });
  }

  /** Today's quota use of this key (does not count). */
  usage(): Promise<Usage> {
    return this.#lender('usage');
  }

  /**
   * A signed link that opens the printable report of `entity` for 300 seconds, as this key, without
   * the key in the URL (`action=pdf_link`; asking does not count, opening counts like `score`).
   */
  creditReportPdfLink(entity: string): Promise<PdfLink> {
    return this.#lender('pdf_link', { entity });
  }

  /**
   * @deprecated The key rides in the query string, where browsers, proxies and logs keep it; use
   * `creditReportPdfLink`. Works only for keys that hold `credit:read` themselves.
   */
  creditReportPdfUrl(entity: string): string {
    return this.#http.url('/api/credit-report-pdf', { entity, key: this.#http.apiKey });
  }

  // -- registry and ingestion (Bearer, governance:write / governance:read) --------------------

  #append<T>(path: string, body: unknown, options: AppendOptions): Promise<T> {
    const spec: RequestSpec = {
      method: 'POST',
      path,
      body,
      auth: 'bearer',
      idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
    };
    return this.#http.request<T>(spec);
  }

  #get<T>(path: string, query?: Record<string, string | number | undefined>): Promise<T> {
    return this.#http.request<T>(
      query ? { method: 'GET', path, query, auth: 'bearer' } : { method: 'GET', path, auth: 'bearer' },
    );
  }

  createEntity(body: CreateEntityBody, options: AppendOptions = {}): Promise<Created> {
    return this.#append('/api/entities', body, options);
  }

  /** An entity by ent_ id, EIN or name. */
  getEntity(ref: string): Promise<Entity> {
    return this.#get(`/api/entities/${seg(ref)}`);
  }

  listEntities(options: PageOptions & { q?: string } = {}): Promise<Page<Entity>> {
    return this.#get('/api/entities', { ...options });
  }

  registerProject(body: RegisterProjectBody, options: AppendOptions = {}): Promise<Created> {
    return this.#append('/api/projects', body, options);
  }

  getProject(projectId: string): Promise<Project> {
    return this.#get(`/api/projects/${seg(projectId)}`);
  }

  listProjects(options: PageOptions = {}): Promise<Page<Project>> {
    return this.#get('/api/projects', { ...options });
  }

  recordChangeOrder(
    projectId: string,
    body: RecordChangeOrderBody,
    options: AppendOptions = {},
  ): Promise<Created> {
    return this.#append(`/api/projects/${seg(projectId)}/change-orders`, body, options);
  }

  listChangeOrders(projectId: string, options: PageOptions = {}): Promise<Page<ChangeOrder>> {
    return this.#get(`/api/projects/${seg(projectId)}/change-orders`, { ...options });
  }

  recordDocument(projectId: string, body: RecordDocumentBody, options: AppendOptions = {}): Promise<Created> {
    return this.#append(`/api/projects/${seg(projectId)}/documents`, body, options);
  }

  getDocument(documentId: string): Promise<Document> {
    return this.#get(`/api/documents/${seg(documentId)}`);
  }

  listDocuments(projectId: string, options: PageOptions = {}): Promise<Page<Document>> {
    return this.#get(`/api/projects/${seg(projectId)}/documents`, { ...options });
  }

  submitDraw(projectId: string, body: SubmitDrawBody, options: AppendOptions = {}): Promise<Created> {
    return this.#append(`/api/projects/${seg(projectId)}/draws`, body, options);
  }

  getDraw(drawId: string): Promise<Draw> {
    return this.#get(`/api/draws/${seg(drawId)}`);
  }

  listDraws(projectId: string, options: PageOptions = {}): Promise<Page<Draw>> {
    return this.#get(`/api/projects/${seg(projectId)}/draws`, { ...options });
  }

  signDraw(drawId: string, body: SignDrawBody, options: AppendOptions = {}): Promise<Created> {
    return this.#append(`/api/draws/${seg(drawId)}/signatures`, body, options);
  }

  recordObservation(body: RecordObservationBody, options: AppendOptions = {}): Promise<Created> {
    return this.#append('/api/observations', body, options);
  }

  getObservation(observationId: string): Promise<Observation> {
    return this.#get(`/api/observations/${seg(observationId)}`);
  }

  listObservations(options: PageOptions = {}): Promise<Page<Observation>> {
    return this.#get('/api/observations', { ...options });
  }

  resolveFinding(findingId: string, body: ResolveFindingBody, options: AppendOptions = {}): Promise<Created> {
    return this.#append(`/api/findings/${seg(findingId)}/resolve`, body, options);
  }

  // -- project governance (SPEC §6) ----------------------------------------------------------

  /** Kernel full scan: contradictions, temporal rules and adequacy; recorded. */
  scan(projectId: string, options: AppendOptions = {}): Promise<ScanResult> {
    return this.#append('/api/kernel-core', { action: 'full_scan', project_id: projectId }, options);
  }

  /** Compiles the engine DAG for a draw (default: the latest unfunded one); recorded. */
  compileDraw(projectId: string, drawId?: string, options: AppendOptions = {}): Promise<CompileResult> {
    const body = {
      action: 'compile_for_draw',
      project_id: projectId,
      ...(drawId === undefined ? {} : { draw_id: drawId }),
    };
    return this.#append('/api/dependency-graph', body, options);
  }

  adequacy(projectId: string, options: AppendOptions = {}): Promise<AdequacyResult> {
    return this.#append('/api/adequacy', { action: 'project', project_id: projectId }, options);
  }

  simulateDraw(drawId: string, options: AppendOptions = {}): Promise<SimulationResult> {
    return this.#append('/api/simulate', { action: 'simulate_draw', draw_id: drawId }, options);
  }

  issueCertification(projectId: string, options: CertificationOptions = {}): Promise<CertificationResult> {
    const { show_project_name, ...append } = options;
    const shown = show_project_name === undefined ? {} : { show_project_name };
    return this.#append('/api/certification', { action: 'issue', project_id: projectId, ...shown }, append);
  }

  /** The public SVG badge of a certification (no key needed to open it). */
  badgeUrl(certificationId: string): string {
    return this.#http.url('/api/certification', { action: 'badge', cert: certificationId });
  }

  notarize(body: NotarizeBody, options: AppendOptions = {}): Promise<NotarizationResult> {
    return this.#append('/api/notarization', { action: 'notarize', ...body }, options);
  }

  /** Pushes a draw's payment; a 422 GATE_UNMET PlumblineError lists every gate in `problem.gates`. */
  pushPayment(drawId: string, rail?: PaymentRail, options: AppendOptions = {}): Promise<PaymentResult> {
    return this.#append(
      '/api/payment-push',
      { draw_id: drawId, ...(rail === undefined ? {} : { rail }) },
      options,
    );
  }

  /**
   * Accepts the conditions a draw has open at the head (FUNDABLE_WITH_CONDITIONS) or its reduced
   * amount (REDUCED), with a reason; needs a key with the `draws:approve` scope. A 409 CONFLICT
   * PlumblineError when the draw is not in an acceptable verdict (or already funded/rejected).
   */
  acceptDraw(drawId: string, reason: string, options: AppendOptions = {}): Promise<DrawAcceptanceResult> {
    return this.#append(`/api/draws/${seg(drawId)}/accept`, { reason }, options);
  }

  /** Rejects a draw with its reasons (1–20): it becomes REJECTED and can never be paid. */
  rejectDraw(drawId: string, reasons: string[], options: AppendOptions = {}): Promise<DrawRejectionResult> {
    return this.#append(`/api/draws/${seg(drawId)}/reject`, { reasons }, options);
  }

  /** Is this hash something the ledger recorded, and does the record still verify? (reads only) */
  auditVerify(hash: string): Promise<AuditVerification> {
    return this.#http.request({ method: 'POST', path: '/api/audit-verify', body: { hash }, auth: 'bearer' });
  }

  // -- rails and profiles (SPEC §7) ----------------------------------------------------------

  rail(name: RailName, options: { project_id?: string } = {}): Promise<RailResult> {
    return this.#get(RAIL_PATHS[name], { ...options });
  }

  scanAll(options: { project_id?: string } = {}): Promise<ScanAllResult> {
    return this.#get('/api/governance-rails', { action: 'scan_all', ...options });
  }

  profiles(): Promise<{ data: GovernanceProfile[] }> {
    return this.#get('/api/profiles');
  }

  // -- ledger read API (SPEC §9, ledger:read) ------------------------------------------------

  /** Events after `after` (default 0), up to `limit` (1–500, default 100), and the head. */
  ledgerPage(options: { after?: number; limit?: number } = {}): Promise<LedgerPage> {
    return this.#get('/api/ledger', { ...options });
  }

  ledgerEvent(seq: number): Promise<LedgerEntry> {
    return this.#get(`/api/ledger/${seg(seq)}`);
  }

  /** The server's verification watermark (not a rerun: use verifyChain for your own check). */
  ledgerVerifyStatus(): Promise<LedgerVerifyStatus> {
    return this.#get('/api/ledger/verify');
  }

  // -- transparency log (docs/transparency-log.md): check what these return with verifyReceipt,
  // verifyCheckpoint and verifyConsistency before trusting it ------------------------------------

  /** A receipt for the event of `seq` or `hash` against the latest checkpoint. */
  inclusionProof(of: { seq: number } | { hash: string }): Promise<LedgerReceipt> {
    return this.#get('/api/ledger/proof/inclusion', { ...of });
  }

  /** The consistency proof from the tree of size `from` to `to` (default: the latest checkpoint). */
  consistencyProof(from: number, to?: number): Promise<LedgerConsistencyProof> {
    return this.#get('/api/ledger/proof/consistency', { from, to });
  }
}
