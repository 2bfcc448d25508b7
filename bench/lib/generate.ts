/**
 * Deterministic, realistic ledgers for the benchmarks: three lenders issue keys, register firms
 * and jobs, and run monthly draw cycles — invoices, G702/G703 applications, lien waivers,
 * inspections, title date-downs, signatures, field observations (payroll, hours, weather,
 * equipment, deliveries, cost indexes, incidents…), change orders — and governance records them:
 * compilations (with their scans), notarizations of the waivers, payment pushes (or an audited
 * blocked push, a resolution or a lender's acceptance, then the payment — or a rejection) and
 * certifications. Every command, governance included, goes through the service's own deciders
 * (`decideGovernance`, `decidePushPayment`, `decideNotarize`, `decideIssueCertification`, …) on a
 * governance head built over the folded read models (`headFrom`), so a generated ledger cannot
 * drift from what the service records; events are sealed exactly as the Ledger seals them and
 * appended in batches (BatchWriter). The signed duties the payment gate counts (issue 15,
 * docs/duties.md) are performed the same way: bank accounts (`decideRegisterAccount`, numbers in
 * DATA_DIR/vault), signers with seed-derived Ed25519 keys (`decideInviteSigner`,
 * `decideEnrollSigner`), draw signatures, waiver executions and notarial acts. Same seed and size
 * → same ledger bytes (docs/bench-generator.md).
 */
import {
  accountIdOf,
  accountsProjection,
  decideRegisterAccount,
  maskAccount,
  revealAccount,
  sealAccount,
  subjectOf,
  vaultDir,
  type AccountPurpose,
} from '../../src/accounts/index.js';
import {
  decideEnrollSigner,
  decideInviteSigner,
  drawSigningDocument,
  getSigner,
  notarialActDocument,
  signersProjection,
  waiverSigningDocument,
  type InviteSigner,
} from '../../src/signers/index.js';
import { enrollmentToken } from '../../src/signers/routes.js';
import { demoAccountNumber, demoRouting, demoSignerKey } from '../../src/demo/duties.js';
import { signingDigestHex } from '../../src/platform/crypto/ed25519.js';
import { canonicalJson } from '../../src/platform/ledger/canonical.js';
import { createHash, sign as ed25519Sign, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { credit as creditProjection } from '../../projections/credit.js';
import { governance, type GovernanceState } from '../../projections/governance.js';
import { keys as keysProjection } from '../../projections/keys.js';
import { observationsProjection } from '../../projections/observations.js';
import { projectsProjection } from '../../projections/projects.js';
import { registryProjection } from '../../projections/registry.js';
import { decideIssueCertification } from '../../src/certification/decide.js';
import { decideGovernance } from '../../src/governance/decide.js';
import { drawStream, governanceEvent, type PaymentPushedData } from '../../src/governance/events.js';
import { headFrom } from '../../src/governance/head.js';
import type { GovernanceCtx, GovernanceDecided } from '../../src/governance/record.js';
import { creditView } from '../../src/lender-api/entity-facts.js';
import { decideNotarize } from '../../src/notarization/decide.js';
import { decidePushPayment, instructionOf, requiredWaivers } from '../../src/payments/index.js';
import { sha256Hex } from '../../src/platform/crypto/hash.js';
import { decideIssueKey, type IssuedKey } from '../../src/orgs/keys.js';
import type { ApiKeyScope } from '../../src/platform/crypto/api-key.js';
import { SqliteEventStore } from '../../src/platform/event-store/sqlite.js';
import { derivedEventId } from '../../src/platform/ids.js';
import {
  EMPTY_HEAD,
  type EventInput,
  type EventMeta,
  type LedgerHead,
} from '../../src/platform/ledger/envelope.js';
import { loadOrCreateSecrets } from '../../src/platform/secrets.js';
import { decide, type ProjectsCommand } from '../../src/projects/decide.js';
import type { Draw, LienWaiver, ProjectsState } from '../../src/projects/facts.js';
import { US_JURISDICTIONS } from '../../src/projects/jurisdictions.js';
import { PROFILES } from '../../src/projects/profiles.js';
import type { RegisterEntityBody } from '../../src/registry/contract.js';
import { decideRegisterEntity } from '../../src/registry/decide.js';
import type { RegistryState } from '../../src/registry/state.js';
import { BatchWriter, Fold, FoldReadModels } from './ledger-writer.js';
import { NameBook, TRADES, type FirmKind, type Trade } from './names.js';
import { Rng } from './prng.js';
import {
  dateIn,
  drawBody,
  inspectionBody,
  observationBodies,
  PROFILE_MIX,
  registerBody,
  sovFor,
  waiverBody,
  type Firm,
  type JobPlan,
} from './project-plan.js';

/** Bump when the generator's output changes, so cached datasets are regenerated. */
export const GENERATOR_VERSION = 9; // 9: a SignerEnrolled is the inviting org's event, as the enrollment route records it
const BASE_YEAR = 2020;
/** A generated job yields about this many events; sizes the start rate to the requested total. */
const EVENTS_PER_JOB = 700;
/** Jobs start over about this many months, so the ledger spans a realistic few years. */
const START_SPREAD_MONTHS = 48;
const LENDERS = ['First Builders Bank', 'Second Street Capital', 'Granite Trust Lending'];
const SCOPES: ApiKeyScope[] = [
  'credit:read',
  'governance:read',
  'governance:write',
  'ledger:read',
  'draws:approve',
];
/** A notary's commission runs this many years from the day it is enrolled (then a renewed one enrolls). */
const COMMISSION_YEARS = 4;
/** The base URL certification badges name (a generated ledger is opened by services anywhere). */
const PUBLIC_BASE_URL = 'https://plumbline.example';
const CITIES = [
  'Austin',
  'Denver',
  'Tampa',
  'Raleigh',
  'Boise',
  'Tucson',
  'Omaha',
  'Reno',
  'Fresno',
  'Dayton',
];

export interface GenerateOptions {
  /** DATA_DIR to create (it must hold no ledger yet). */
  dataDir: string;
  events: number;
  seed: string;
  batch?: number;
  onProgress?: (done: number) => void;
}

export interface GeneratedDataset {
  generator_version: number;
  seed: string;
  events: number;
  head: LedgerHead;
  seconds: number;
  counts: Record<string, number>;
  jobs: number;
  /** The lenders' keys (valid against this DATA_DIR's secrets). */
  keys: IssuedKey[];
}

/** Thrown when the requested number of events is reached, to unwind the month loop. */
class Enough extends Error {}

interface Lender {
  key: IssuedKey;
}

/** A signer the generator invited and enrolled, with the Ed25519 key derived from the seed. */
interface Enrolled {
  id: string;
  key: KeyObject;
}

/** Ed25519 over the SHA-256 of the document's JCS bytes (docs/duties.md), standard base64. */
const signDocument = (key: KeyObject, document: Record<string, unknown>): string =>
  ed25519Sign(null, Buffer.from(signingDigestHex(document), 'hex'), key).toString('base64');

export async function generateDataset(opts: GenerateOptions): Promise<GeneratedDataset> {
  const started = performance.now();
  const gen = new Generator(opts);
  try {
    await gen.run();
  } catch (error) {
    if (!(error instanceof Enough)) throw error;
  }
  await gen.writer.flush();
  await gen.store.close();
  return {
    generator_version: GENERATOR_VERSION,
    seed: opts.seed,
    events: gen.writer.seq,
    head: gen.writer.head,
    seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    counts: gen.writer.counts,
    jobs: gen.jobCount,
    keys: gen.lenders.map((l) => l.key),
  };
}

class Generator {
  readonly store: SqliteEventStore;
  readonly writer: BatchWriter;
  readonly lenders: Lender[] = [];
  jobCount = 0;
  readonly #opts: GenerateOptions;
  readonly #rng: Rng;
  readonly #names: NameBook;
  readonly #secrets: { keyPepper: string; signingKey: string };
  readonly #keys = new Fold(keysProjection);
  readonly #registry = new Fold<RegistryState>(registryProjection);
  readonly #projects = new Fold<ProjectsState>(projectsProjection);
  readonly #governance = new Fold<GovernanceState>(governance);
  readonly #observations = new Fold(observationsProjection);
  readonly #credit = new Fold(creditProjection);
  readonly #signers = new Fold(signersProjection);
  readonly #accounts = new Fold(accountsProjection);
  readonly #reads: FoldReadModels;
  readonly #creditView: ReturnType<typeof creditView>;
  readonly #pools: Record<'general_contractor' | 'architect' | 'inspector' | 'supplier', Firm[]>;
  readonly #subs = new Map<Trade, Firm[]>();
  /** Signers by `<lender>|<label>`; notaries by `<lender>|<state>` with their commission's end. */
  readonly #enrolled = new Map<string, Enrolled>();
  readonly #notaries = new Map<string, Enrolled & { expires_on: string }>();
  /** `<lender>|<payee entity id>` of the registered payee accounts. */
  readonly #payees = new Set<string>();
  #firms = 0;
  #ids = 0;
  #now = 0;
  #step = 1000;

  constructor(opts: GenerateOptions) {
    this.#opts = opts;
    this.#rng = new Rng(`plumbline-bench:${opts.seed}`);
    this.#names = new NameBook(this.#rng.fork('names'));
    const digest = (label: string) => createHash('sha256').update(`${opts.seed}:${label}`).digest('hex');
    this.#secrets = loadOrCreateSecrets(opts.dataDir, {
      KEY_PEPPER: digest('pepper'),
      LEDGER_SIGNING_KEY: digest('signing'),
    });
    this.store = SqliteEventStore.open(join(opts.dataDir, 'ledger.db'));
    const folds = [
      this.#keys,
      this.#registry,
      this.#projects,
      this.#governance,
      this.#observations,
      this.#credit,
      this.#signers,
      this.#accounts,
    ] as Fold<unknown>[];
    this.writer = new BatchWriter(this.store, EMPTY_HEAD, folds, opts.batch ?? 2000);
    this.#reads = new FoldReadModels(folds);
    this.#creditView = creditView({ runtime: this.#reads });
    const scale = Math.max(1, Math.round(opts.events / 50_000));
    const pool = (kind: FirmKind, n: number) => Array.from({ length: n }, () => this.#firm(kind));
    this.#pools = {
      general_contractor: pool('general_contractor', 8 * scale),
      architect: pool('architect', 4 * scale),
      inspector: pool('inspector', 3 * scale),
      supplier: pool('supplier', 5 * scale),
    };
    for (const [trade, label] of TRADES)
      this.#subs.set(
        trade,
        Array.from({ length: 3 * scale }, () => this.#firm('subcontractor', label)),
      );
  }

  async run(): Promise<void> {
    this.#now = Date.UTC(BASE_YEAR, 0, 1);
    for (const name of LENDERS) this.#issueKey(name);
    // The lenders' own accounts, verified the day the ledger starts (years before any payment).
    LENDERS.forEach((name, lender) => {
      this.#account(lender, 'DISBURSEMENT', null, name);
      this.#account(lender, 'ESCROW', null, name);
    });
    const perMonth = Math.max(1, Math.ceil(this.#opts.events / EVENTS_PER_JOB / START_SPREAD_MONTHS));
    const jobs: JobPlan[] = [];
    for (let m = 0; ; m += 1) {
      for (let k = 0; k < perMonth; k += 1) jobs.push(this.#planJob(m));
      const active = jobs.filter((j) => j.start <= m && m <= j.start + j.months);
      // Facts of month m carry dates up to the 25th; the ledger records them over days 26–28.
      this.#now = Math.max(this.#now, Date.UTC(BASE_YEAR, m, 26));
      this.#step = Math.floor((60 * 3600 * 1000) / Math.max(1, active.length * 40));
      for (const job of active) this.#fieldMonth(job, m);
      const cycles = active.map((job) => this.#drawCycle(job, m));
      for (const cycle of cycles) cycle?.sign();
      for (const cycle of cycles) cycle?.govern();
      for (const job of active) this.#changeOrder(job, m);
      for (let i = jobs.length - 1; i >= 0; i -= 1)
        if (jobs[i]!.start + jobs[i]!.months <= m) jobs.splice(i, 1);
      this.#opts.onProgress?.(this.writer.seq);
      await this.writer.flush();
    }
  }

  // -------------------------------------------------------------------------------------------
  // Writing
  // -------------------------------------------------------------------------------------------

  #nextId(): string {
    this.#ids += 1;
    return derivedEventId(`${this.#opts.seed}:${this.#ids}`);
  }

  #emit(input: EventInput, meta: EventMeta, id = this.#nextId()): void {
    if (this.writer.seq >= this.#opts.events) throw new Enough();
    this.#now += this.#step;
    this.#reads.applied(this.writer.emit({ ...input, id }, meta, new Date(this.#now).toISOString()));
    if (this.writer.full) void this.writer.flush();
  }

  #meta(lender: number, what: string): EventMeta {
    const key = this.lenders[lender]!.key;
    return { org_id: key.org_id, actor: key.key_id, request_id: `bench-${what}-${this.#ids}` };
  }

  #issueKey(orgName: string): void {
    const eventId = this.#nextId();
    const decided = decideIssueKey(this.#keys.state, {
      org_name: orgName,
      scopes: SCOPES,
      mode: 'live',
      event_id: eventId,
      pepper: this.#secrets.keyPepper,
      signingKey: this.#secrets.signingKey,
      randomBytes: (n) => Uint8Array.from({ length: n }, () => this.#rng.int(0, 255)),
    });
    const meta = { org_id: decided.result.org_id, actor: 'system', request_id: `issue-key-${eventId}` };
    decided.events.forEach((e, i) => this.#emit(e, meta, i === 0 ? eventId : this.#nextId()));
    this.lenders.push({ key: decided.result });
  }

  /** A projects command through the real decider; a rejection is a generator bug. */
  #command(lender: number, command: ProjectsCommand): string {
    const eventId = this.#nextId();
    const org_id = this.lenders[lender]!.key.org_id;
    const decided = decide(this.#projects.state, command, {
      org_id,
      now: new Date(this.#now),
      eventId,
      lookups: {
        entityExists: (id) => Object.hasOwn(this.#registry.state.entities, id),
        findingAt: (org, id) => {
          const finding = this.#governance.state.findings[id];
          return finding !== undefined && this.#projects.state.projects[finding.project_id]?.org_id === org
            ? { opened_on: finding.opened_on, severity: finding.severity, evidence: finding.evidence }
            : undefined;
        },
        signer: (org, id) => getSigner(this.#signers.state, org, id),
      },
    });
    if (!decided.ok) throw new Error(`generator: ${command.type} refused: ${JSON.stringify(decided.error)}`);
    for (const event of decided.events) this.#emit(event, this.#meta(lender, command.type), event.id);
    return decided.result.id;
  }

  // -------------------------------------------------------------------------------------------
  // Firms and jobs
  // -------------------------------------------------------------------------------------------

  #firm(kind: FirmKind, trade?: string): Firm {
    this.#firms += 1;
    const k = this.#firms;
    const ein = `${String(20 + Math.floor(k / 9_000_000)).padStart(2, '0')}-${1_000_000 + (k % 9_000_000)}`;
    return {
      kind,
      name: this.#names.firm(kind, trade),
      ein,
      state: this.#rng.pick(US_JURISDICTIONS),
      id: null,
    };
  }

  /** The firm's entity id, registering it (by the lender naming it first) when new. */
  #entity(lender: number, firm: Firm): string {
    if (firm.id !== null) return firm.id;
    const eventId = this.#nextId();
    const decided = decideRegisterEntity(this.#registry.state, {
      body: {
        legal_name: firm.name,
        roles: [firm.kind],
        ein: firm.ein,
        state: firm.state as NonNullable<RegisterEntityBody['state']>,
      },
      org_id: this.lenders[lender]!.key.org_id,
      event_id: eventId,
    });
    if (!decided.ok) throw new Error(`generator: entity refused: ${decided.rejection.detail}`);
    this.#emit(decided.events[0], this.#meta(lender, 'RegisterEntity'), eventId);
    firm.id = decided.entity_id;
    return firm.id;
  }

  #planJob(start: number): JobPlan {
    this.jobCount += 1;
    const rng = this.#rng;
    const contract = rng.int(20, 400) * 5_000_000;
    const months = rng.int(10, 20);
    return {
      ordinal: this.jobCount,
      lender: this.jobCount % LENDERS.length,
      name: this.#names.project(rng.pick(CITIES)),
      jurisdiction: rng.pick(US_JURISDICTIONS),
      profile: rng.pick(PROFILE_MIX),
      start,
      months,
      borrower: this.#firm('owner'),
      gc: rng.pick(this.#pools.general_contractor),
      architect: rng.pick(this.#pools.architect),
      inspector: rng.pick(this.#pools.inspector),
      supplier: rng.pick(this.#pools.supplier),
      sov: sovFor(rng, contract, (trade) => rng.pick(this.#subs.get(trade)!)),
      retainage_pct: rng.pick([5, 10, 10]),
      milestones: [
        { name: 'Foundation complete', due: Math.round(months * 0.25) },
        { name: 'Dried in', due: Math.round(months * 0.55) },
        { name: 'Substantial completion', due: months },
      ],
      id: null,
      billed: [],
      funded: 0,
      last_draw: null,
      applications: 0,
      change_orders: 0,
    };
  }

  #register(job: JobPlan, m: number): void {
    const ids = (f: Firm) => this.#entity(job.lender, f);
    const body = registerBody(job, dateIn(BASE_YEAR, m, 3), ids);
    job.id = this.#command(job.lender, { type: 'RegisterProject', body });
    job.billed = job.sov.map(() => 0);
    this.#insurance(job, m);
    this.#parties(job);
  }

  #insurance(job: JobPlan, m: number): void {
    // In force from the 1st, before the job registers on the 3rd (a coverage not in force on a
    // project puts its GC on PROBATION, DOMAIN §5); now and then a certificate arrives late.
    const effective = dateIn(BASE_YEAR, m, this.#rng.chance(0.01) ? 20 : 1);
    const expires = dateIn(BASE_YEAR, m + 12, 4);
    for (const coverage of ['GL', 'BUILDERS_RISK', 'WORKERS_COMP'] as const) {
      this.#command(job.lender, {
        type: 'RecordDocument',
        project_id: job.id!,
        body: {
          type: 'INSURANCE_CERTIFICATE',
          insured: job.gc.id!,
          coverage_type: coverage,
          limit: coverage === 'BUILDERS_RISK' ? job.sov.reduce((a, l) => a + l.value, 0) : 200_000_000,
          effective_on: effective,
          expires_on: expires,
          additional_insured: true,
        },
      });
    }
  }

  /** Registration in the job's first month; observations, renewals and milestones every month. */
  #fieldMonth(job: JobPlan, m: number): void {
    const a = m - job.start;
    if (a === 0) this.#register(job, m);
    if (a > 0 && a % 12 === 0) this.#insurance(job, m);
    const sub = this.#rng.pick(job.sov).sub;
    // The supplier stays a registered firm (name lookups read it) but takes no part in the project.
    this.#entity(job.lender, job.supplier);
    const ids = { gc: job.gc.id!, sub: sub ? this.#entity(job.lender, sub) : null };
    const day = (d: number) => dateIn(BASE_YEAR, m, d);
    for (const body of observationBodies(this.#rng, job, job.id!, day, ids))
      this.#command(job.lender, { type: 'RecordObservation', body });
    for (const milestone of job.milestones.filter((ms) => ms.due === a && a > 0)) {
      this.#command(job.lender, {
        type: 'RecordObservation',
        body: {
          project_id: job.id!,
          observed_on: day(22),
          kind: 'milestone',
          name: milestone.name,
          completed_on: day(this.#rng.int(15, 22)),
        },
      });
    }
  }

  // -------------------------------------------------------------------------------------------
  // Signed duties (docs/duties.md), through the signers and accounts deciders
  // -------------------------------------------------------------------------------------------

  /**
   * The job's parties, the day it registers: the signers of its certification chain, of each
   * subcontractor that will claim waivers, a notary commissioned in its state, and the GC's payee
   * account with this lender — weeks before the first payment (outside the payee-account window).
   */
  #parties(job: JobPlan): void {
    PROFILES[job.profile].certification_chain.forEach((_, index) => this.#chainSigner(job, index));
    for (const line of job.sov) if (line.sub) this.#claimantSigner(job, this.#entity(job.lender, line.sub));
    if (PROFILES[job.profile].notarized_document_types.length > 0) this.#notary(job);
    const gc = job.gc.id!;
    if (!this.#payees.has(`${job.lender}|${gc}`)) {
      this.#payees.add(`${job.lender}|${gc}`);
      this.#account(job.lender, 'PAYEE', gc, job.gc.name);
    }
  }

  /**
   * The lender's signer under `label`, invited (`decideInviteSigner`, with the enrollment token the
   * route would answer) and enrolled with its seed-derived key (`decideEnrollSigner`) on first use.
   */
  #signer(lender: number, label: string, invite: Omit<InviteSigner, 'org_id' | 'token_sha256'>): Enrolled {
    const name = `${lender}|${label}`;
    const known = this.#enrolled.get(name);
    if (known) return known;
    const ctx = (eventId: string) => ({
      now: new Date(this.#now),
      eventId,
      entityExists: (id: string) => Object.hasOwn(this.#registry.state.entities, id),
    });
    const inviteId = this.#nextId();
    const token = enrollmentToken(this.#secrets.signingKey, inviteId);
    const token_sha256 = createHash('sha256').update(token, 'utf8').digest('hex');
    const org_id = this.lenders[lender]!.key.org_id;
    const invited = decideInviteSigner(
      this.#signers.state,
      { ...invite, org_id, token_sha256 },
      ctx(inviteId),
    );
    if (!invited.ok) throw new Error(`generator: signer invitation refused: ${invited.detail}`);
    this.#emit(invited.events[0]!, this.#meta(lender, 'InviteSigner'), inviteId);
    const { privateKey, publicKey } = demoSignerKey(`bench|${this.#opts.seed}`, name);
    // The enrollment route's event id: derived from the token's hash (the signer holds no API key).
    const enrollId = derivedEventId(`signer-enrollment/${token_sha256}`);
    const enrolled = decideEnrollSigner(
      this.#signers.state,
      { token_sha256, public_key: publicKey },
      ctx(enrollId),
    );
    if (!enrolled.ok) throw new Error(`generator: signer enrollment refused: ${enrolled.detail}`);
    // Recorded as the route records it: the inviting org's event (another org reads it redacted),
    // made by no key — the signer presents the token alone.
    this.#emit(
      enrolled.events[0]!,
      { org_id, actor: 'anonymous', request_id: `bench-EnrollSigner-${this.#ids}` },
      enrollId,
    );
    const signer = { id: invited.signer_id, key: privateKey };
    this.#enrolled.set(name, signer);
    return signer;
  }

  /** The signer of the chain's role `index`: 0 for the GC, 1 for the architect, 2 for the lender org. */
  #chainSigner(job: JobPlan, index: number): Enrolled {
    const role = PROFILES[job.profile].certification_chain[index]!;
    const party = index === 0 ? job.gc.id! : index === 1 ? job.architect.id! : null;
    return this.#signer(job.lender, `${role}|${party ?? 'org'}`, {
      name: this.#names.person(),
      capacity: role,
      entity_id: party,
      commission: null,
    });
  }

  /** Who executes a claimant's waivers: the GC's chain signer, else the subcontractor's own. */
  #claimantSigner(job: JobPlan, claimant: string): Enrolled {
    if (claimant === job.gc.id) return this.#chainSigner(job, 0);
    return this.#signer(job.lender, `Claimant|${claimant}`, {
      name: this.#names.person(),
      capacity: 'Claimant',
      entity_id: claimant,
      commission: null,
    });
  }

  /**
   * The lender's notary commissioned in the job's state, valid on `on` (today by default): a
   * commission runs COMMISSION_YEARS; once it has expired a renewed one (a new signer) enrolls.
   */
  #notary(job: JobPlan, on = this.#today()): Enrolled & { expires_on: string } {
    const slot = `${job.lender}|${job.jurisdiction}`;
    const current = this.#notaries.get(slot);
    if (current && on <= current.expires_on) return current;
    const today = this.#today();
    const commission = {
      number: `${job.jurisdiction}-${String(job.lender + 1).padStart(2, '0')}${today.replaceAll('-', '')}`,
      state: job.jurisdiction,
      expires_on: `${Number(today.slice(0, 4)) + COMMISSION_YEARS}${today.slice(4)}`,
    };
    const signer = this.#signer(job.lender, `Notary|${commission.number}`, {
      name: `${this.#names.person()}, Notary Public (${job.jurisdiction})`,
      capacity: 'Notary',
      entity_id: null,
      commission,
    });
    const notary = { ...signer, expires_on: commission.expires_on };
    this.#notaries.set(slot, notary);
    return notary;
  }

  /** A notarial act (acknowledgment of the claimant's signer) over the waiver as recorded. */
  #notarize(job: JobPlan, documentId: string): void {
    const waiver = this.#projects.state.documents[documentId] as LienWaiver;
    const act_date = this.#today();
    const notary = this.#notary(job, act_date);
    const appeared = this.#claimantSigner(job, waiver.claimant);
    const commission = this.#signers.state.signers[notary.id]!;
    const terms = {
      notary_signer_id: notary.id,
      notary_name: commission.name,
      commission_number: commission.commission!.number,
      commission_state: commission.commission!.state,
      commission_expires_on: commission.commission!.expires_on,
      act_type: 'acknowledgment' as const,
      act_date,
      appeared_signer_id: appeared.id,
      document_id: documentId,
      document_sha256: sha256Hex(canonicalJson(waiver)),
    };
    this.#decideGovernance(job.lender, 'Notarize', (head, ctx) =>
      decideNotarize(
        head,
        {
          type: 'NotarizeDocument',
          document_type: 'LIEN_WAIVER',
          document_id: documentId,
          jurisdiction: job.jurisdiction,
          act: {
            notary_signer_id: notary.id,
            act_type: terms.act_type,
            act_date,
            appeared_signer_id: appeared.id,
            signature: signDocument(notary.key, notarialActDocument(terms)),
          },
        },
        ctx,
      ),
    );
  }

  /**
   * A bank account registered as `POST /api/accounts` does (`decideRegisterAccount`), verified by
   * call-back today; its number, derived from the seed, is sealed in DATA_DIR/vault once recorded.
   */
  #account(lender: number, purpose: AccountPurpose, entity_id: string | null, holder: string): void {
    const eventId = this.#nextId();
    const org_id = this.lenders[lender]!.key.org_id;
    const account_id = accountIdOf(eventId);
    const subject = subjectOf(org_id, entity_id);
    const label = `bench|${this.#opts.seed}|${lender}|${purpose}|${entity_id ?? 'org'}`;
    const number = demoAccountNumber(label);
    const decided = decideRegisterAccount(
      this.#accounts.state,
      {
        account_id,
        purpose,
        entity_id,
        subject,
        holder_name: holder,
        scheme: 'US_ABA',
        aba_routing: demoRouting(entity_id === null ? `bench|lender${lender}` : label),
        bic: null,
        masked: maskAccount(number),
        verification: {
          method: 'callback',
          reference: 'call-back to the number on file',
          verified_on: this.#today(),
        },
      },
      {
        org_id,
        eventId,
        now: new Date(this.#now),
        entityExists: (id) => Object.hasOwn(this.#registry.state.entities, id),
      },
    );
    if (!decided.ok) throw new Error(`generator: account refused: ${decided.detail}`);
    this.#emit(decided.events[0]!, this.#meta(lender, 'RegisterAccount'), eventId);
    sealAccount(vaultDir(this.#opts.dataDir), subject, account_id, number);
  }

  #today(): string {
    return new Date(this.#now).toISOString().slice(0, 10);
  }

  #changeOrder(job: JobPlan, m: number): void {
    const a = m - job.start;
    if (a < 2 || a > job.months - 2 || !this.#rng.chance(0.15)) return;
    const line = this.#rng.pick(job.sov);
    const delta = this.#rng.int(1, 40) * 250_000;
    job.change_orders += 1;
    this.#command(job.lender, {
      type: 'RecordChangeOrder',
      project_id: job.id!,
      body: {
        number: `CO-${String(job.change_orders).padStart(3, '0')}`,
        amount: delta,
        lines: [{ line: line.line, delta }],
        description: `Owner-requested scope change to ${line.description.toLowerCase()}`,
        executed_on: dateIn(BASE_YEAR, m, 10),
        lender_approved_on: dateIn(BASE_YEAR, m, 12),
        work_started_on: dateIn(BASE_YEAR, m, 15),
      },
    });
    line.value += delta;
  }

  // -------------------------------------------------------------------------------------------
  // The monthly draw cycle
  // -------------------------------------------------------------------------------------------

  /** Invoices, the application, waivers, inspection and title for the previous month's work. */
  #drawCycle(job: JobPlan, m: number): { sign(): void; govern(): void } | null {
    const a = m - job.start;
    if (a < 1 || job.id === null) return null;
    const rng = this.#rng;
    const day = (d: number) => dateIn(BASE_YEAR, m, d);
    const period = { from: dateIn(BASE_YEAR, m - 1, 1), to: dateIn(BASE_YEAR, m, 0), submitted: day(3) };
    const preview = drawBody(job, a, period, []);
    const billedLines = job.sov.filter((_, i) => preview.perLine[i]! > 0);
    // One invoice per billed line, from whoever does the work: Σ invoices supports the request.
    const invoices = billedLines.map((l) =>
      this.#command(job.lender, {
        type: 'RecordDocument',
        project_id: job.id!,
        body: {
          type: 'INVOICE',
          vendor: this.#entity(job.lender, l.sub ?? job.gc),
          number: `${job.ordinal}-${a}-${l.line}`,
          amount: preview.perLine[l.line - 1]!,
          line: l.line,
        },
      }),
    );
    const { body, perLine, requested } = drawBody(job, a, period, invoices);
    const drawId = this.#command(job.lender, { type: 'SubmitDraw', project_id: job.id, body });
    job.applications += 1;
    const waivers = this.#waivers(job, drawId, requested, period.to, day(4));
    const completed = job.sov.map((_, i) => job.billed[i]! + perLine[i]!);
    this.#command(job.lender, {
      type: 'RecordDocument',
      project_id: job.id,
      body: inspectionBody(rng, job, job.inspector.id!, drawId, day(5), completed),
    });
    this.#command(job.lender, {
      type: 'RecordDocument',
      project_id: job.id,
      body: { type: 'TITLE_DATE_DOWN', effective_on: day(21), new_liens: [] },
    });
    return {
      // Each role's enrolled signer signs the application as it stands (docs/duties.md).
      sign: () => {
        PROFILES[job.profile].certification_chain.forEach((role, index) => {
          const signer = this.#chainSigner(job, index);
          const draw = this.#projects.state.draws[drawId]!;
          this.#command(job.lender, {
            type: 'SignDraw',
            draw_id: drawId,
            body: {
              role,
              signer_id: signer.id,
              signature: signDocument(signer.key, drawSigningDocument(draw)),
              signed_on: day(rng.int(7, 9)),
            },
          });
        });
      },
      govern: () => {
        if (this.#govern(job, a, drawId, waivers)) {
          job.billed = job.billed.map((b, i) => b + perLine[i]!);
          job.last_draw = { id: drawId, amount: requested, through: period.to };
        }
      },
    };
  }

  // -------------------------------------------------------------------------------------------
  // Governance, through the service's deciders
  // -------------------------------------------------------------------------------------------

  /**
   * Runs one governance decider on the head of the folded read models, as `governanceCommand`
   * does inside the Ledger's commit, and appends what it decided (an audited rejection too).
   * The decision's events go in together or not at all: a ledger never ends mid-decision.
   */
  #decideGovernance(
    lender: number,
    what: string,
    decide: (head: ReturnType<typeof headFrom>, ctx: GovernanceCtx) => GovernanceDecided,
  ): GovernanceDecided {
    const eventId = this.#nextId();
    const ctx: GovernanceCtx = {
      org_id: this.lenders[lender]!.key.org_id,
      now: new Date(this.#now),
      eventId,
      publicBaseUrl: PUBLIC_BASE_URL,
    };
    const decided = decide(
      headFrom(this.#reads, this.writer.head, this.#creditView, this.#opts.dataDir),
      ctx,
    );
    if (this.writer.seq + decided.events.length > this.#opts.events) throw new Enough();
    for (const event of decided.events)
      this.#emit(event, this.#meta(lender, what), event.id ?? this.#nextId());
    return decided;
  }

  /** The waivers the payment gate requires for this draw (`requiredWaivers`), each for its amount. */
  #waivers(job: JobPlan, drawId: string, requested: number, through: string, signed: string): string[] {
    const projects = this.#projects.state;
    const project = projects.projects[job.id!]!;
    const draws = (projects.by_project[job.id!]?.draw_ids ?? []).map((id) => projects.draws[id]!);
    const draw = projects.draws[drawId]!;
    const net = (d: Draw, claimant: string) =>
      Math.round(
        (project.sov.reduce((t, l) => {
          const line = d.lines.find((x) => x.line === l.line);
          return t + (l.subcontractor === claimant && line ? line.this_period + line.stored_materials : 0);
        }, 0) *
          (100 - d.retainage_pct)) /
          100,
      );
    return requiredWaivers(project, draw, draws).map((r) => {
      const of = projects.draws[r.draw_id]!;
      const gc = r.claimant === project.general_contractor;
      const amount =
        r.kind === 'CONDITIONAL'
          ? gc
            ? requested
            : net(of, r.claimant)
          : gc
            ? (of.funded_amount ?? 0)
            : net(of, r.claimant);
      const throughDate = r.kind === 'CONDITIONAL' ? through : of.period_to;
      const documentId = this.#command(job.lender, {
        type: 'RecordDocument',
        project_id: job.id!,
        body: waiverBody(
          this.#rng,
          r.claimant,
          r.draw_id,
          amount,
          throughDate,
          signed,
          r.kind === 'UNCONDITIONAL',
        ),
      });
      // Executed by the claimant's signer: an Ed25519 signature over the waiver's terms.
      const signer = this.#claimantSigner(job, r.claimant);
      const waiver = this.#projects.state.documents[documentId] as LienWaiver;
      this.#command(job.lender, {
        type: 'SignDocument',
        document_id: documentId,
        body: {
          signer_id: signer.id,
          signature: signDocument(signer.key, waiverSigningDocument(waiver)),
          signed_on: signed,
        },
      });
      return documentId;
    });
  }

  /**
   * Notarize the waivers, push (the push compiles the draw at the head and records that
   * compilation with its scan); when the push is refused, do what a lender does — resolve
   * the BLOCKING findings the corrected paperwork cures, accept conditions or a reduced amount,
   * take escrow under a HOLD PRAL — and push again; a draw that still cannot pay is rejected.
   * Certifies twice a year. True when the draw was paid.
   */
  #govern(job: JobPlan, a: number, drawId: string, waivers: string[]): boolean {
    const projectId = job.id!;
    const lender = job.lender;
    if (PROFILES[job.profile].notarized_document_types.includes('LIEN_WAIVER'))
      for (const documentId of waivers) this.#notarize(job, documentId);
    const rail = this.#rng.chance(0.7) ? 'ACH' : 'Wire';
    const push = (asked: string) =>
      this.#decideGovernance(lender, 'PaymentPush', (head, ctx) =>
        decidePushPayment(head, { type: 'PushPayment', draw_id: drawId, rail: asked }, ctx),
      );
    // Room for the payment and its delivery together: a ledger never ends between the two.
    if (this.writer.seq + 4 > this.#opts.events) throw new Enough();
    let pushed = push(rail);
    if (!pushed.ok) pushed = this.#cure(job, drawId, pushed, push, rail);
    if (!pushed.ok) {
      const reasons = failedGates(pushed).map((g) => `${g.gate}: ${g.detail}`);
      this.#decideGovernance(lender, 'RejectDraw', (head, ctx) =>
        decideGovernance(head, { type: 'RejectDraw', draw_id: drawId, reasons }, ctx),
      );
      // A rejected application leaves the sequence: the next one takes its number (DOMAIN §3).
      job.applications -= 1;
    } else {
      this.#delivered(job, pushed);
    }
    if (a % 6 === 0)
      this.#decideGovernance(lender, 'Certify', (head, ctx) =>
        decideIssueCertification(head, { type: 'IssueCertification', project_id: projectId }, ctx),
      );
    return pushed.ok;
  }

  /** What a lender does about a refused push, then the push again (or the refusal, when nothing cures it). */
  #cure(
    job: JobPlan,
    drawId: string,
    refused: GovernanceDecided,
    push: (rail: string) => GovernanceDecided,
    rail: string,
  ): GovernanceDecided {
    const failed = failedGates(refused);
    // PRAL DENY: no rail may carry the money and no paperwork changes that (DOMAIN §6).
    if (failed.some((g) => g.gate === 'eligibility' && / allows no rail;/.test(g.detail))) return refused;
    const blocked = refused.events.find((e) => e.type === 'PaymentPushBlocked')?.data as
      { draw_verdict: string } | undefined;
    const scanned = refused.events.find((e) => e.type === 'ProjectScanned')?.data as
      { findings: { id: string; severity: string }[] } | undefined;
    const on = new Date(this.#now).toISOString().slice(0, 10);
    if (failed.some((g) => g.gate === 'verdict_fundable')) {
      // The lender works every open finding: corrected paperwork for the BLOCKING ones, a review
      // for the conditions (so the GC's remediation stays responsive, DOMAIN §5).
      for (const finding of scanned?.findings ?? [])
        this.#command(job.lender, {
          type: 'ResolveFinding',
          finding_id: finding.id,
          body: {
            resolution:
              finding.severity === 'BLOCKING'
                ? 'Corrected application received and reviewed by the lender'
                : 'Condition reviewed and cleared by the lender',
            resolved_on: on,
          },
        });
      if (blocked && ['FUNDABLE_WITH_CONDITIONS', 'REDUCED'].includes(blocked.draw_verdict))
        this.#decideGovernance(job.lender, 'AcceptDrawConditions', (head, ctx) =>
          decideGovernance(
            head,
            {
              type: 'AcceptDrawConditions',
              draw_id: drawId,
              reason: 'Conditions reviewed; fund as compiled',
            },
            ctx,
          ),
        );
    }
    const escrow = failed.some((g) => g.gate === 'eligibility' && /allows ESCROW;/.test(g.detail));
    return push(escrow ? 'ESCROW' : rail);
  }

  /** A historic payment was delivered to its rail at the time, as the outbox records it. */
  #delivered(job: JobPlan, pushed: GovernanceDecided): void {
    const event = pushed.events.find((e) => e.type === 'PaymentPushed')!;
    const payment = event.data as PaymentPushedData;
    this.#emit(
      governanceEvent('PaymentInstructionDelivered', drawStream(payment.draw_id), {
        payment_id: payment.payment_id,
        draw_id: payment.draw_id,
        message_id: payment.message_id,
        location: `${payment.message_id}.xml`,
        // The pain.001 as the outbox builds it, with the numbers the vault reveals.
        sha256: sha256Hex(instructionOf(payment, (id) => revealAccount(vaultDir(this.#opts.dataDir), id))),
        attempt: 1,
        delivered_at: new Date(this.#now).toISOString(),
      }),
      { ...this.#meta(job.lender, 'PaymentPush'), actor: 'payment-outbox' },
    );
    job.funded += payment.amount;
  }
}

/** The gates a refused push failed (from its audited `PaymentPushBlocked`). */
function failedGates(decided: GovernanceDecided): { gate: string; detail: string }[] {
  const blocked = decided.events.find((e) => e.type === 'PaymentPushBlocked')?.data as
    { gates: { gate: string; passed: boolean; detail: string }[] } | undefined;
  return (blocked?.gates ?? []).filter((g) => !g.passed);
}
