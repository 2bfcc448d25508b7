/**
 * @module The deterministic demo dataset (`npm run seed-demo`, first `npm start`): three lenders,
 * 59 governed entities, fifteen projects over all five profiles with monthly pay applications,
 * and deliberate problems so that every DOMAIN §2 contradiction, §3 temporal rule, §8 rail finding
 * and posture and §5 behavioral state has facts that drive it. `planDemo` is pure (seed + `today`
 * → dated requests); `runDemo` (run.ts) sends them to the real service.
 *
 * Demo "now": `today` (default 2026-06-15); jobs started 3–9 months earlier; every date below is
 * relative to it. Lenders: A Granite Peak Bank, B Cascade Commercial Capital, C Bluebonnet Federal
 * Savings. Money, progress, identifiers, people and keys come from the seed; the stories do not.
 *
 * | #   | project (profile, lender)                 | GC                    | deliberate problem(s) → what fires                                                   |
 * |-----|-------------------------------------------|-----------------------|--------------------------------------------------------------------------------------|
 * | P01 | Riverside Commons Apartments (constr., A) | Keystone Builders     | clean; approved CO; insured + delivered stored materials (happy paths)               |
 * | P02 | Harbor Point Medical Office (constr., A)  | Harborline            | INSPECTION_VARIANCE 12 pts (BLOCKING) + 7 pts (WARNING); payment push refused (422)  |
 * | P03 | Cedar Ridge Elementary (government, B)    | Bedrock Constructors  | CHANGE_ORDER_PRECEDENCE: $85k unapproved + $18k unexecuted billed (BLOCKING), late   |
 * |     |                                           |                       | execution (WARNING, resolved); MARKET CO velocity + steel +14 %; WEATHER cold pour   |
 * | P04 | Northgate Logistics Center (supply, B)    | Tri-State Industrial  | STORED_MATERIALS_UNSUPPORTED lines 3–4; TITLE_DATE_DOWN none (BLOCKING);             |
 * |     |                                           |                       | PROCUREMENT undelivered stored (CRITICAL + WARNING) + late critical delivery         |
 * | P05 | Lakeshore Senior Living (constr., A)      | Lakeview GC           | INSURANCE_EXPIRY ×3 in 20 days (WARNING) → INSURANCE rail ELEVATED                   |
 * | P06 | Summit Ridge Townhomes (constr., C)       | Redline Homes         | INSURANCE_EXPIRY builder's risk lapsed (BLOCKING, rail CRITICAL); DUPLICATE invoice  |
 * |     |                                           |                       | (BLOCKING); no unconditional waivers for the last payment (LIEN_WAIVER BLOCKING);    |
 * |     |                                           |                       | SCHEDULE_OVERDUE (CRITICAL)                                                          |
 * | P07 | Alder Pharma HQ Renovation (treasury, C)  | Coastal Interiors     | PAY_PERIOD_SEQUENCE app 5 after 3 (BLOCKING) + same month (WARNING);                 |
 * |     |                                           |                       | WAIVER_SEQUENCE unconditional before payment, short through-date; SYSTEM_RAIL_STALE  |
 * | P08 | Mesa Verde Water Plant (government, B)    | Bedrock Constructors  | RETAINAGE_MISCALCULATED rate halved (BLOCKING) + $2,500 short (WARNING); WORKFORCE   |
 * |     |                                           |                       | payroll gap + wage violation + headcount swing → ELEVATED                            |
 * | P09 | Oakmont Corporate Campus (constr., A)     | Pinnacle Commercial   | LIEN_WAIVER_MISMATCH exception + short sub waiver + early final (WARNING ×3);        |
 * |     |                                           |                       | WAIVER_SEQUENCE through-date (after funding); SAFETY serious + willful unabated +    |
 * |     |                                           |                       | past-due abatement + TRIR → CRITICAL                                                 |
 * | P10 | Pinecrest Storm Restoration (insur., C)   | Apex Restoration      | GC SAM-excluded (registry hook); INSPECTION_FRESHNESS none (BLOCKING); TITLE lien    |
 * |     |                                           |                       | $48,200 (BLOCKING); invoices < 90 % (DUPLICATE_OR_UNSUPPORTED WARNING); GL under     |
 * |     |                                           |                       | limit + umbrella missing (INSURANCE_EXPIRY BLOCKING; LIMIT_LOW + MISSING CRITICAL)   |
 * | P11 | Lone Star Data Center (constr., B)        | Bedrock Constructors  | CONTRACT_SUM_MISMATCH project + draw level; ROLL_FORWARD $15,000 on line 2;          |
 * |     |                                           |                       | periods overlap (PAY_PERIOD BLOCKING); EQUIPMENT overdue + failure risk + idle       |
 * |     |                                           |                       | → ELEVATED; WEATHER 6 lost days + heat (org B WEATHER ELEVATED with P03)             |
 * | P12 | Northwind Campus Expansion (treasury, A)  | Meridian Building     | stalled, WARNINGs only: INSPECTION_FRESHNESS 44 days, TITLE 14 days, waiver          |
 * |     |                                           |                       | exception; SCHEDULE slippage ×2 + pace lag, ENVIRONMENTAL over budget + violation    |
 * | P13 | Juniper Street Duplexes (constr., C)      | Northstar Modular     | clean, new GC, first application                                                     |
 * | P14 | Ironwood Cold Storage (supply, A)         | Keystone Builders     | clean                                                                                |
 * | P15 | Canyon View Wildfire Rebuild (insur., B)  | Sierra Vista          | clean now; application 1's short waiver corrected next day (a finding cured)         |
 *
 * Portfolio (COUNTERPARTY): Bedrock holds ~3/4 of lender B's exposure on three problem jobs
 * (concentration, HHI, distressed GC CRITICAL); Keystone > 25 % of A; C is concentrated (HHI).
 * Postures: NOMINAL on the clean jobs' rails; ELEVATED P05 insurance, P08 workforce, P11
 * equipment, P12 schedule/environmental, P03 market; CRITICAL P06 insurance/schedule, P09 safety,
 * P04 procurement, P10 insurance, B counterparty. SYSTEM_RISK reads ledger facts only: rail
 * staleness is P07's and P12's (ELEVATED). A rail with no facts at all answers ELEVATED with
 * INSUFFICIENT_DATA (docs/rails.md); the project profiles make the observation-fed rails optional.
 *
 * Behavioral states (DOMAIN §5) as the credit engine reads the seeded ledger: PROVISIONAL
 * Northstar, Lakeview, Sierra (new; Sierra's one finding was cured the next day → remediation
 * RESPONSIVE); GOOD_STANDING Keystone (P01: 3 funded clean applications); WATCH Meridian (P12
 * WARNINGs open > 14 days, nothing BLOCKING); PROBATION Harborline (BLOCKING variance), Coastal;
 * RESTRICTED Bedrock (a second BLOCKING within 90 days on P03/P08/P11), also Redline, Pinnacle and
 * Tri-State (probation by insurance lapse, citations, BLOCKING findings — then open findings make
 * remediation NON_RESPONSIVE); SUSPENDED Apex (SAM exclusion through the registry import).
 *
 * Phases (steps.ts): sent by default — facts (`ingest`), the lender's reviews, notarizations,
 * payments, certifications and simulations (`governance`, the `governanceSteps` list,
 * governance.ts), unconditional waivers once paid (`after_funding`) and the SAM extracts
 * (`registry`, registry-hook.ts); held back — credit inquiries (`credit`: their events are not yet
 * reproducible). `phases: ['ingest']` seeds the bare facts: then
 * nothing is funded, so scans also show ROLL_FORWARD_MISMATCH on every later application and stale
 * inspections/date-downs on earlier ones still "under review", and no exclusion exists.
 */
import { addDays } from './calendar.js';
import { buildDocuments, InvoiceNumbers } from './documents.js';
import { entitySteps, identifiersFor, type EntityIdentifiers } from './entities.js';
import { buildFigures, skeleton } from './figures.js';
import { creditInquiries } from './governance.js';
import type { ProjectModel, Scenario } from './model.js';
import { baselineObservations } from './observations.js';
import { Rng } from './prng.js';
import { emitProject } from './project-steps.js';
import { emitAccounts } from './duties.js';
import { registrySteps } from './registry-hook.js';
import { LENDERS, ROSTER } from './roster.js';
import { extraScenario, SCENARIOS } from './scenarios.js';
import { Timeline, type DemoStep } from './steps.js';

export const DEMO_TODAY = '2026-06-15';
export const DEFAULT_PROJECTS = SCENARIOS.length;
export const DEFAULT_SEED = '42';
/** The demo clock's reading at the end of the timeline: midday on `today`. */
export const NOW_TIME = 'T12:00:00.000Z';

export interface DemoOptions {
  projects?: number;
  seed?: string;
  /** The demo's "now" (YYYY-MM-DD); every date is relative to it. */
  today?: string;
}

export interface DemoPlan {
  seed: string;
  today: string;
  /** Instant the demo clock ends at. */
  now: string;
  /** Day the timeline starts (entity registration, keys). */
  starts_on: string;
  lenders: string[];
  steps: DemoStep[];
  projects: ProjectModel[];
  identifiers: ReadonlyMap<string, EntityIdentifiers>;
}

function scenariosFor(count: number, rng: Rng): Scenario[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError('projects must be a positive integer');
  const extra = Array.from({ length: Math.max(0, count - SCENARIOS.length) }, (_, i) =>
    extraScenario(SCENARIOS.length + i + 1, rng.fork(`extra${i}`)),
  );
  return [...SCENARIOS.slice(0, count), ...extra];
}

function buildModel(scn: Scenario, today: string, rng: Rng, numbers: InvoiceNumbers): ProjectModel {
  const m = skeleton(scn, today, rng.fork('skeleton'));
  const ctx = { today, rng: rng.fork('problems') };
  for (const p of scn.problems) p.shape?.(m, ctx);
  buildFigures(m);
  buildDocuments(m, today, rng.fork('documents'), numbers);
  for (const p of scn.problems) p.tweak?.(m, ctx);
  baselineObservations(m, today, rng.fork('observations'));
  for (const p of scn.problems) p.observe?.(m, ctx);
  return m;
}

/** The lender that first works with an entity onboards it (lenders register their own entities). */
function lenderOf(projects: readonly ProjectModel[]): (key: string) => number {
  return (key) => {
    const own = LENDERS.findIndex((l) => l.key === key);
    if (own >= 0) return own;
    const first = projects.find(({ scenario: s, sov }) =>
      [s.gc, s.owner, s.architect, s.inspector, ...sov.map((l) => l.vendor)].includes(key),
    );
    return first?.scenario.lender ?? 0;
  };
}

/** Every GC with the lender of its first project (who makes its credit inquiries). */
function gcLenders(projects: readonly ProjectModel[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const { scenario } of projects) if (!out.has(scenario.gc)) out.set(scenario.gc, scenario.lender);
  return out;
}

export function planDemo(opts: DemoOptions = {}): DemoPlan {
  const seed = opts.seed ?? DEFAULT_SEED;
  const today = opts.today ?? DEMO_TODAY;
  const rng = Rng.of(seed);
  const numbers = new InvoiceNumbers(rng.fork('invoices'));
  const projects = scenariosFor(opts.projects ?? DEFAULT_PROJECTS, rng).map((scn) =>
    buildModel(scn, today, rng.fork(scn.code), numbers),
  );
  const starts_on = addDays(projects.map((p) => p.registered_on).sort()[0]!, -1);
  const identifiers = identifiersFor(rng.fork('identifiers'));
  const t = new Timeline();
  entitySteps(t, identifiers, starts_on, lenderOf(projects));
  for (const s of registrySteps(identifiers, starts_on, today)) t.add(s.date, s.draft);
  // Accounts the day the entities are onboarded: long before any payment (docs/duties.md).
  emitAccounts(
    t,
    starts_on,
    LENDERS.map((l, index) => ({ name: l.legal_name, index })),
    [
      ...new Map(
        projects.map((p) => [
          `${p.scenario.lender}|${p.scenario.gc}`,
          { gc: p.scenario.gc, lender: p.scenario.lender },
        ]),
      ).values(),
    ],
  );
  for (const m of projects) emitProject(m, t, today, seed);
  for (const s of creditInquiries(gcLenders(projects), today)) t.add(s.date, s.draft);
  const steps = t.finalize();
  const late = steps.find((s) => s.date > today);
  if (late) throw new Error(`plan bug: step ${late.n} (${late.label}) is dated after ${today}`);
  return {
    seed,
    today,
    now: `${today}${NOW_TIME}`,
    starts_on,
    lenders: LENDERS.map((l) => l.legal_name),
    steps,
    projects,
    identifiers,
  };
}

/** The hook list: every step beyond the bare facts (governance, after-funding, registry). */
export function governanceSteps(plan: DemoPlan): DemoStep[] {
  return plan.steps.filter((s) => s.phase !== 'ingest');
}

/** How many governed entities the plan registers. */
export const ENTITY_COUNT = ROSTER.length;
