/**
 * Deterministic, realistic ledgers for the benchmarks: three lenders issue keys, register firms
 * and jobs, and run monthly draw cycles — invoices, G702/G703 applications, lien waivers,
 * inspections, title date-downs, signatures, field observations (payroll, hours, weather,
 * equipment, deliveries, cost indexes, incidents…), change orders — and governance records them:
 * real kernel scans (`scanProject` + `decideScan`), compilations, notarizations of the waivers,
 * payments (or an audited blocked push, a resolution and then the payment) and certifications.
 * Commands go through the real deciders against folded read models; events are sealed exactly as
 * the Ledger seals them and appended in batches (BatchWriter). Same seed and size → same bytes.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { governance, type GovernanceState } from '../../projections/governance.js';
import { keys as keysProjection } from '../../projections/keys.js';
import { projectsProjection } from '../../projections/projects.js';
import { registryProjection } from '../../projections/registry.js';
import { gradeFor } from '../../src/governance/constants.js';
import { CERTIFICATION_VALID_DAYS } from '../../src/certification/certify.js';
import {
  drawStream,
  governanceEvent,
  payloadHash,
  projectStream,
  type DrawVerdict,
} from '../../src/governance/events.js';
import { decideScan, scanInputFor, scanProject } from '../../src/governance/scan.js';
import { asPlatformMultiHash, notarize } from '../../src/notarization/notarize.js';
import { instructionOf } from '../../src/payments/push.js';
import { sha256Hex } from '../../src/platform/crypto/hash.js';
import { decideIssueKey, type IssuedKey } from '../../src/orgs/keys.js';
import type { ApiKeyScope } from '../../src/platform/crypto/api-key.js';
import { SqliteEventStore } from '../../src/platform/event-store/sqlite.js';
import { derivedEventId, idFromUuid } from '../../src/platform/ids.js';
import {
  EMPTY_HEAD,
  type EventInput,
  type EventMeta,
  type LedgerHead,
} from '../../src/platform/ledger/envelope.js';
import { loadOrCreateSecrets } from '../../src/platform/secrets.js';
import { decide, type ProjectsCommand } from '../../src/projects/decide.js';
import type { ProjectsState } from '../../src/projects/facts.js';
import { US_JURISDICTIONS } from '../../src/projects/jurisdictions.js';
import { PROFILES } from '../../src/projects/profiles.js';
import type { RegisterEntityBody } from '../../src/registry/contract.js';
import { decideRegisterEntity } from '../../src/registry/decide.js';
import type { RegistryState } from '../../src/registry/state.js';
import { BatchWriter, Fold } from './ledger-writer.js';
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
export const GENERATOR_VERSION = 3;
const BASE_YEAR = 2020;
/** A generated job yields about this many events; sizes the start rate to the requested total. */
const EVENTS_PER_JOB = 700;
/** Jobs start over about this many months, so the ledger spans a realistic few years. */
const START_SPREAD_MONTHS = 48;
const LENDERS = ['First Builders Bank', 'Second Street Capital', 'Granite Trust Lending'];
const SCOPES: ApiKeyScope[] = ['credit:read', 'governance:read', 'governance:write', 'ledger:read'];
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
  readonly #pools: Record<'general_contractor' | 'architect' | 'inspector' | 'supplier', Firm[]>;
  readonly #subs = new Map<Trade, Firm[]>();
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
    this.writer = new BatchWriter(
      this.store,
      EMPTY_HEAD,
      [this.#keys, this.#registry, this.#projects, this.#governance] as Fold<unknown>[],
      opts.batch ?? 2000,
    );
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
    this.writer.emit({ ...input, id }, meta, new Date(this.#now).toISOString());
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
        findingExists: (org, id) => {
          const finding = this.#governance.state.findings[id];
          return finding !== undefined && this.#projects.state.projects[finding.project_id]?.org_id === org;
        },
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
  }

  #insurance(job: JobPlan, m: number): void {
    const effective = dateIn(BASE_YEAR, m, this.#rng.chance(0.03) ? 20 : 4);
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
    const waiver = (claimant: string, amount: number) =>
      this.#command(job.lender, {
        type: 'RecordDocument',
        project_id: job.id!,
        body: waiverBody(rng, claimant, drawId, amount, period.to, day(4), false),
      });
    const waivers = [waiver(job.gc.id!, requested)];
    if (job.last_draw) {
      const last = job.last_draw;
      this.#command(job.lender, {
        type: 'RecordDocument',
        project_id: job.id,
        body: waiverBody(rng, job.gc.id!, last.id, last.amount, last.through, day(4), true),
      });
    }
    // Two of the subcontractors billing this period waive what the application asks for them.
    const subs = [...new Set(billedLines.flatMap((l) => (l.sub ? [l.sub] : [])))];
    for (const sub of rng.sample(subs, 2)) {
      const gross = job.sov.reduce((t, l, i) => t + (l.sub === sub ? perLine[i]! : 0), 0);
      waivers.push(
        waiver(this.#entity(job.lender, sub), Math.round((gross * (100 - job.retainage_pct)) / 100)),
      );
    }
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
      sign: () => {
        for (const role of PROFILES[job.profile].certification_chain)
          this.#command(job.lender, {
            type: 'SignDraw',
            draw_id: drawId,
            body: { role, signer_name: this.#names.person(), signed_on: day(rng.int(7, 9)) },
          });
      },
      govern: () => {
        this.#govern(job, a, drawId, requested, perLine, waivers);
        job.last_draw = { id: drawId, amount: requested, through: period.to };
      },
    };
  }

  /** Scan, compile, notarize the waivers, then pay (or block, resolve and pay), certify twice a year. */
  #govern(
    job: JobPlan,
    a: number,
    drawId: string,
    requested: number,
    perLine: number[],
    waivers: string[],
  ): void {
    const projectId = job.id!;
    const now = () => new Date(this.#now);
    const meta = (what: string) => this.#meta(job.lender, what);
    const scanId = this.#nextId();
    const input = scanInputFor(this.#projects.state, projectId)!;
    const result = scanProject(input, now());
    const scanPayload = {
      scan_id: idFromUuid('SCN-', scanId),
      project_id: projectId,
      result,
      as_of: now().toISOString(),
    };
    for (const e of decideScan(this.#governance.state, result, {
      scan_id: scanPayload.scan_id,
      now: now(),
      payload_hash: payloadHash(scanPayload),
      event_id: scanId,
    }))
      this.#emit(e, meta('KernelScan'), scanId);
    const blocking = [...result.contradictions, ...result.temporal].filter((f) => f.severity === 'BLOCKING');
    const verdict: DrawVerdict =
      blocking.length > 0
        ? 'HOLD'
        : result.scan_verdict === 'WARNING'
          ? 'FUNDABLE_WITH_CONDITIONS'
          : 'FUNDABLE';
    const on = now().toISOString().slice(0, 10);
    const hashed = <T extends object>(kind: string, data: T) => {
      const hash = payloadHash(data);
      return { ...data, payload_hash: hash, artifacts: [{ kind, hash }] };
    };
    const cmpId = this.#nextId();
    this.#emit(
      governanceEvent(
        'DrawCompiled',
        drawStream(drawId),
        hashed('compilation', {
          compilation_id: idFromUuid('CMP-', cmpId),
          draw_id: drawId,
          project_id: projectId,
          draw_verdict: verdict,
          verdict_status: verdict === 'HOLD' ? ('BLOCKED' as const) : ('READY' as const),
          layers_executed: 6,
          compiled_on: on,
        }),
      ),
      meta('Compile'),
      cmpId,
    );
    if (PROFILES[job.profile].notarized_document_types.includes('LIEN_WAIVER')) {
      for (const documentId of waivers) this.#notarize(job, documentId, meta('Notarize'));
    }
    if (blocking.length > 0) {
      this.#emit(
        governanceEvent(
          'PaymentPushBlocked',
          drawStream(drawId),
          hashed('payment_blocked', {
            draw_id: drawId,
            project_id: projectId,
            rail: 'ACH' as const,
            gates: [{ gate: 'verdict_fundable', passed: false, detail: `draw verdict ${verdict}` }],
            compilation_id: idFromUuid('CMP-', cmpId),
            draw_verdict: verdict,
            attempted_on: on,
          }),
        ),
        meta('PaymentPush'),
      );
      for (const finding of blocking)
        this.#command(job.lender, {
          type: 'ResolveFinding',
          finding_id: finding.id,
          body: { resolution: 'Corrected application received and reviewed by the lender', resolved_on: on },
        });
    }
    const payId = this.#nextId();
    const paymentId = idFromUuid('PAY-', payId);
    const payment = {
      payment_id: paymentId,
      draw_id: drawId,
      project_id: projectId,
      amount: requested,
      rail: this.#rng.chance(0.7) ? ('ACH' as const) : ('Wire' as const),
      message_id: `MSG-${paymentId.slice(4)}`,
      funded_on: on,
      compilation_id: idFromUuid('CMP-', cmpId),
      draw_verdict: verdict,
      instruction: {
        created_at: now().toISOString(),
        requested_execution_date: on,
        debtor: { name: LENDERS[job.lender]!, account: this.lenders[job.lender]!.key.org_id, agent: null },
        creditor: { name: job.gc.id!, account: job.gc.id!, agent: null },
        currency: 'USD' as const,
        end_to_end_id: drawId,
        remittance_info: `Draw ${a} ${drawId}`,
      },
    };
    // The payment and its delivery go in together: a ledger never ends between the two.
    if (this.writer.seq + 2 > this.#opts.events) throw new Enough();
    this.#emit(
      governanceEvent('PaymentPushed', drawStream(drawId), hashed('payment', payment)),
      meta('PaymentPush'),
      payId,
    );
    // A historic payment was delivered to its rail at the time, as the outbox records it; a service
    // opening this ledger has nothing left to deliver.
    this.#emit(
      governanceEvent('PaymentInstructionDelivered', drawStream(drawId), {
        payment_id: paymentId,
        draw_id: drawId,
        message_id: payment.message_id,
        location: `${payment.message_id}.xml`,
        sha256: sha256Hex(instructionOf(payment)),
        attempt: 1,
        delivered_at: now().toISOString(),
      }),
      { ...meta('PaymentPush'), actor: 'payment-outbox' },
    );
    job.billed = job.billed.map((b, i) => b + perLine[i]!);
    job.funded += requested;
    if (a % 6 === 0) {
      const score = result.scan_verdict === 'CLEAN' ? 92 : result.scan_verdict === 'WARNING' ? 81 : 68;
      const certId = this.#nextId();
      const validUntil = new Date(this.#now + CERTIFICATION_VALID_DAYS * 86_400_000)
        .toISOString()
        .slice(0, 10);
      this.#emit(
        governanceEvent(
          'CertificationIssued',
          projectStream(projectId),
          hashed('certification', {
            certification_id: idFromUuid('CERT-', certId),
            project_id: projectId,
            grade: gradeFor(score),
            score,
            issued_on: on,
            valid_until: validUntil,
          }),
        ),
        meta('Certify'),
        certId,
      );
    }
  }

  #notarize(job: JobPlan, documentId: string, meta: EventMeta): void {
    const document = this.#projects.state.documents[documentId]!;
    const notarized = notarize(document, {
      jurisdiction: job.jurisdiction,
      notarized_at: new Date(this.#now).toISOString(),
    });
    if (!notarized.ok) throw new Error(`generator: notarization refused: ${notarized.error.message}`);
    const v = notarized.value;
    const id = this.#nextId();
    const multi = asPlatformMultiHash(v.multi_hash);
    const data = {
      notarization_id: idFromUuid('NOT-', id),
      document_id: v.document_id,
      document_type: v.document_type,
      project_id: v.project_id,
      jurisdiction: v.jurisdiction,
      notarized_at: v.notarized_at,
      multi_hash: multi,
    };
    const hash = payloadHash(data);
    this.#emit(
      governanceEvent('DocumentNotarized', projectStream(v.project_id), {
        ...data,
        payload_hash: hash,
        artifacts: [
          { kind: 'notarization', hash },
          { kind: 'document', hash: multi.sha256 },
        ],
      }),
      meta,
      id,
    );
  }
}
