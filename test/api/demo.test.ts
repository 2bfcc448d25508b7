import { expect } from 'chai';
import request from 'supertest';
import { observationsProjection } from '../../projections/observations.js';
import { projectsProjection } from '../../projections/projects.js';
import {
  DEFAULT_PROJECTS,
  ENTITY_COUNT,
  governanceSteps,
  planDemo,
  type DemoPlan,
} from '../../src/demo/dataset.js';
import { EXCLUDED_ENTITY } from '../../src/demo/registry-hook.js';
import { runDemo, type DemoRun } from '../../src/demo/run.js';
import { FINDING_ENGINES, scanInputFor, scanProject } from '../../src/governance/scan.js';
import type { Draw, ProjectsState } from '../../src/projects/facts.js';
import { OBSERVATION_KINDS } from '../../src/projects/facts.js';
import { PROFILE_NAMES } from '../../src/projects/profiles.js';
import { startService, type TestService } from '../support/service.js';

/** Findings as `CODE/SEVERITY@where` (where = latest | previous | project), counted. */
type Tally = Record<string, number>;

function findingsOf(state: ProjectsState, run: DemoRun, plan: DemoPlan, ref: string): Tally {
  const model = plan.projects.find((p) => p.ref === ref)!;
  const latest = run.refs[model.draws.at(-1)!.ref];
  const previous = model.draws.length > 1 ? run.refs[model.draws.at(-2)!.ref] : undefined;
  const result = scanProject(scanInputFor(state, run.refs[ref]!)!, new Date(plan.now));
  const tally: Tally = {};
  for (const f of [...result.contradictions, ...result.temporal]) {
    const where =
      f.draw_id === null
        ? 'project'
        : f.draw_id === latest
          ? 'latest'
          : f.draw_id === previous
            ? 'previous'
            : 'earlier';
    const key = `${f.code}/${f.severity}@${where}`;
    tally[key] = (tally[key] ?? 0) + 1;
  }
  return tally;
}

/** Each project's deliberate findings on the demo's "now" (the plan table in src/demo/dataset.ts). */
const PLANNED: Record<string, Tally> = {
  P01: {},
  P02: { 'INSPECTION_VARIANCE/BLOCKING@latest': 1, 'INSPECTION_VARIANCE/WARNING@latest': 1 },
  P03: { 'CHANGE_ORDER_PRECEDENCE/BLOCKING@latest': 2, 'CHANGE_ORDER_PRECEDENCE/WARNING@project': 1 },
  P04: { 'STORED_MATERIALS_UNSUPPORTED/BLOCKING@latest': 2, 'TITLE_DATE_DOWN/BLOCKING@latest': 1 },
  P05: { 'INSURANCE_EXPIRY/WARNING@project': 3 },
  P06: {
    'DUPLICATE_OR_UNSUPPORTED_COST/BLOCKING@latest': 1,
    'INSURANCE_EXPIRY/BLOCKING@project': 1,
    'LIEN_WAIVER_MISMATCH/BLOCKING@latest': 1,
  },
  P07: {
    'PAY_PERIOD_SEQUENCE/BLOCKING@latest': 1,
    'PAY_PERIOD_SEQUENCE/WARNING@latest': 1,
    'WAIVER_SEQUENCE/WARNING@latest': 2,
  },
  P08: { 'RETAINAGE_MISCALCULATED/BLOCKING@latest': 1, 'RETAINAGE_MISCALCULATED/WARNING@latest': 1 },
  P09: { 'LIEN_WAIVER_MISMATCH/WARNING@latest': 3, 'WAIVER_SEQUENCE/WARNING@previous': 1 },
  // Nothing is ever paid on the excluded GC's job, so application 2 cannot roll forward either.
  P10: {
    'DUPLICATE_OR_UNSUPPORTED_COST/WARNING@latest': 1,
    'INSPECTION_FRESHNESS/BLOCKING@latest': 1,
    'INSPECTION_FRESHNESS/WARNING@previous': 1,
    'INSURANCE_EXPIRY/BLOCKING@project': 2,
    'ROLL_FORWARD_MISMATCH/BLOCKING@latest': 2,
    'TITLE_DATE_DOWN/BLOCKING@latest': 1,
    'TITLE_DATE_DOWN/BLOCKING@previous': 1,
  },
  P11: {
    'CONTRACT_SUM_MISMATCH/BLOCKING@project': 1,
    'CONTRACT_SUM_MISMATCH/BLOCKING@latest': 1,
    'PAY_PERIOD_SEQUENCE/BLOCKING@latest': 1,
    'ROLL_FORWARD_MISMATCH/BLOCKING@latest': 1,
  },
  P12: {
    'INSPECTION_FRESHNESS/WARNING@latest': 1,
    'LIEN_WAIVER_MISMATCH/WARNING@latest': 1,
    'TITLE_DATE_DOWN/WARNING@latest': 1,
  },
  P13: {},
  P14: {},
  P15: {},
};

/** The behavioral state each GC's story leads to (DOMAIN §5; plan table). */
const STATES: Record<string, string> = {
  'gc.northstar': 'PROVISIONAL',
  'gc.keystone': 'GOOD_STANDING',
  'gc.meridian': 'WATCH',
  'gc.harborline': 'PROBATION',
  'gc.bedrock': 'RESTRICTED',
  [EXCLUDED_ENTITY]: 'SUSPENDED',
};

describe('demo dataset (seed-demo, first start)', function () {
  this.timeout(60_000);

  describe('the plan', () => {
    const plan = planDemo();

    it('has three lenders, ≥ 40 entities, ≥ 12 projects over all five profiles and ≥ 2 applications a project', () => {
      expect(plan.lenders).to.have.length(3);
      expect(ENTITY_COUNT).to.be.at.least(40);
      expect(plan.projects).to.have.length(DEFAULT_PROJECTS).and.length.at.least(12);
      expect(new Set(plan.projects.map((p) => p.scenario.profile))).to.have.all.keys(...PROFILE_NAMES);
      const draws = plan.projects.reduce((n, p) => n + p.draws.length, 0);
      expect(draws / plan.projects.length).to.be.at.least(2);
    });

    it('dates every step on or before its "now", in timeline order', () => {
      const instants = plan.steps.map((s) => s.at);
      expect(instants).to.deep.equal([...instants].sort());
      expect(plan.steps.every((s) => s.date >= plan.starts_on && s.date <= plan.today)).to.equal(true);
      expect(plan.steps.map((s) => s.n)).to.deep.equal(plan.steps.map((_, i) => i + 1));
    });

    it('lists the governance, after-funding and registry hooks apart from the facts', () => {
      const hooks = governanceSteps(plan);
      expect(new Set(hooks.map((s) => s.phase))).to.have.all.keys(
        'governance',
        'after_funding',
        'registry',
        'credit',
      );
      const pushes = hooks.filter((s) => s.path === '/api/payment-push' && s.expect.includes(201));
      // P01 is the GOOD_STANDING story: three applications funded clean.
      expect(pushes.filter((s) => s.label.startsWith('P01.'))).to.have.length(3);
      const exclusions = hooks.find((s) => s.raw?.content_type === 'text/csv')!;
      expect(exclusions.raw!.text).to.include(plan.identifiers.get(EXCLUDED_ENTITY)!.uei!);
      expect(exclusions.raw!.text).to.include('"Indefinite"');
    });

    it('takes money and identifiers from the seed, not the stories', () => {
      const other = planDemo({ seed: 'another' });
      expect(other.projects.map((p) => p.scenario.code)).to.deep.equal(
        plan.projects.map((p) => p.scenario.code),
      );
      expect(other.projects[0]!.contract_sum).to.not.equal(plan.projects[0]!.contract_sum);
      expect(other.identifiers.get('gc.keystone')).to.not.deep.equal(plan.identifiers.get('gc.keystone'));
    });
  });

  describe('seeded through the service', () => {
    const plan = planDemo();
    let svc: TestService;
    let run: DemoRun;
    let state: ProjectsState;
    const drawOf = (ref: string): Draw => state.draws[run.refs[ref]!]!;
    const drawsOf = (p: string): Draw[] =>
      plan.projects.find((m) => m.ref === p)!.draws.map((d) => drawOf(d.ref));
    const demoKey = () => ({ 'x-plumbline-api-key': run.demo_key.key });
    const lenderOf = (p: string) => ({
      Authorization: `Bearer ${run.lenders[plan.projects.find((m) => m.ref === p)!.scenario.lender]!.key}`,
    });

    before(async function () {
      // Seeding the whole demo is the heaviest step of the file; with spec files running side by
      // side (npm test) it can take well over the file's 60 s.
      this.timeout(180_000);
      svc = await startService();
      run = await runDemo(svc.composed.deps, plan);
      state = svc.composed.deps.runtime.state(projectsProjection);
    });
    after(async () => {
      await svc.close();
    });

    it('records three lenders, every entity, project and §8 observation kind, and funds every earlier application', () => {
      const c = run.counts;
      expect(c.lenders).to.equal(3);
      expect(c.entities).to.equal(ENTITY_COUNT);
      expect(c.projects).to.equal(DEFAULT_PROJECTS);
      expect(Object.keys(c.projects_by_profile)).to.have.members([...PROFILE_NAMES]);
      expect(Object.keys(c.observations_by_kind)).to.have.members([...OBSERVATION_KINDS]);
      const toFund = plan.projects.flatMap((p) => p.draws.filter((d) => d.fund)).length;
      expect(c.draws_by_status).to.deep.equal({ COMPILED: c.draws - toFund, FUNDED: toFund });
      // Only credit inquiries are held back by default (their event ids are not reproducible).
      const credit = plan.steps.filter((s) => s.phase === 'credit').length;
      expect(c.deferred_steps).to.deep.equal({
        ingest: 0,
        after_funding: 0,
        governance: 0,
        registry: 0,
        credit,
      });
      expect(c.events).to.equal(svc.composed.deps.ledger.head.seq);
      expect(run.demo_key.org_name).to.equal(plan.lenders[0]);
      expect(run.demo_key.scopes).to.have.members([
        'credit:read',
        'governance:read',
        'governance:write',
        'ledger:read',
        'admin',
      ]);
    });

    it('leaves a recorded trace of every hook (scans, compilations, notarizations, payments, refusals, …)', async () => {
      const events = await svc.composed.store.read(1, run.head.seq);
      expect(new Set(events.map((e) => e.type))).to.include.all.keys(
        'ProjectScanned',
        'DrawCompiled',
        'DocumentNotarized',
        'PaymentPushed',
        'PaymentPushBlocked',
        'CertificationIssued',
        'DrawSimulated',
        'FindingResolved',
      );
    });

    it('keeps each planned problem as a fact', () => {
      const [p02] = drawsOf('P02').slice(-1);
      const inspection = Object.values(state.documents).find(
        (d) => d.type === 'INSPECTION_REPORT' && d.draw_id === p02!.id,
      );
      const gaps = p02!.lines.map((l) => {
        const seen =
          inspection?.type === 'INSPECTION_REPORT'
            ? inspection.lines.find((x) => x.line === l.line)
            : undefined;
        return l.percent_complete - (seen?.percent_complete ?? l.percent_complete);
      });
      expect(Math.max(...gaps)).to.be.greaterThan(10);
      expect(gaps.filter((g) => g > 5 && g <= 10)).to.have.length(1);

      const p07 = drawsOf('P07');
      expect(p07.map((d) => d.application_no)).to.deep.equal([1, 2, 3, 5]);
      expect(p07[2]!.submitted_on.slice(0, 7)).to.equal(p07[3]!.submitted_on.slice(0, 7));

      const p08 = drawsOf('P08').at(-1)!;
      expect(p08.retainage_pct).to.be.lessThan(state.projects[p08.project_id]!.retainage_pct);
      expect(Math.abs(p08.retainage_withheld - p08.retainage_expected)).to.be.greaterThan(100);

      const [prior, last] = drawsOf('P11').slice(-2);
      expect(last!.lines[1]!.previous - prior!.lines[1]!.completed_and_stored).to.equal(1_500_000);
      expect(last!.period_from <= prior!.period_to).to.equal(true);

      const invoice = (id: string) => {
        const d = state.documents[id];
        return d?.type === 'INVOICE' ? `${d.vendor}|${d.number}` : '';
      };
      const p06 = drawsOf('P06');
      const rebilled = p06.at(-1)!.invoices.map(invoice);
      expect(p06[0]!.invoices.map(invoice).some((n) => rebilled.includes(n))).to.equal(true);

      const expiries = (p: string, type: string) =>
        Object.values(state.documents).flatMap((c) =>
          c.type === 'INSURANCE_CERTIFICATE' && c.project_id === run.refs[p] && c.coverage_type === type
            ? [c.expires_on]
            : [],
        );
      for (const type of ['GL', 'WORKERS_COMP', 'AUTO'])
        expect(
          expiries('P05', type).every((e) => e > plan.today && e <= '2026-07-15'),
          type,
        ).to.equal(true);
      expect(expiries('P06', 'BUILDERS_RISK').every((e) => e < plan.today)).to.equal(true);

      const p10 = drawsOf('P10').at(-1)!;
      const p10Docs = Object.values(state.documents).filter((d) => d.project_id === p10.project_id);
      expect(p10Docs.some((d) => d.type === 'INSPECTION_REPORT' && d.draw_id === p10.id)).to.equal(false);
      expect(p10Docs.some((d) => d.type === 'TITLE_DATE_DOWN' && d.new_liens.length > 0)).to.equal(true);
    });

    it('feeds the rails the troubled series the plan names', () => {
      const observations = Object.values(
        svc.composed.deps.runtime.state(observationsProjection).observations,
      );
      const of = (p: string) => observations.filter((o) => o.project_id === run.refs[p]);
      expect(
        of('P09').some((o) => o.kind === 'osha_citation' && o.type === 'W' && o.abated_on === null),
      ).to.equal(true);
      expect(of('P08').some((o) => o.kind === 'certified_payroll' && !o.prevailing_wage_ok)).to.equal(true);
      expect(
        of('P04').some((o) => o.kind === 'material_delivery' && o.delivered_on === null && o.critical),
      ).to.equal(true);
      expect(of('P03').some((o) => o.kind === 'thermal_scan' && o.concrete_pour && o.temp_c < 5)).to.equal(
        true,
      );
      const lost = of('P11').filter(
        (o) => o.kind === 'weather_forecast' && (o.precip_mm >= 10 || o.wind_kph >= 45),
      );
      expect(lost).to.have.length.at.least(5);
    });

    it('makes exactly the planned contradictions and temporal rules fire, and leaves the clean projects CLEAN', () => {
      for (const [ref, planned] of Object.entries(PLANNED)) {
        expect(findingsOf(state, run, plan, ref), ref).to.deep.equal(planned);
      }
      expect(Object.values(PLANNED).filter((p) => Object.keys(p).length === 0)).to.have.length.at.least(3);
    });

    it('resolves a finding the engines really find (its id matches)', () => {
      const p03 = run.refs.P03!;
      const now = new Date(plan.now);
      const raw = Object.values(FINDING_ENGINES).flatMap((engine) => engine(scanInputFor(state, p03)!, now));
      const resolved = Object.keys(state.resolutions);
      expect(resolved).to.have.length(1);
      expect(raw.map((f) => f.id)).to.include(resolved[0]);
    });

    it('drives every behavioral state, each GC to the state its story plans', async () => {
      const seen = new Set<string>();
      for (const entity of plan.projects.map((p) => p.scenario.gc)) {
        const res = await request(svc.app)
          .post('/api/lender-credit?action=score')
          .set(demoKey())
          .send({ entity: run.refs[entity] });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        seen.add(res.body.behavioral.state as string);
        if (STATES[entity]) expect(res.body.behavioral.state, entity).to.equal(STATES[entity]);
      }
      expect([...seen]).to.include.members([
        'PROVISIONAL',
        'GOOD_STANDING',
        'WATCH',
        'PROBATION',
        'RESTRICTED',
        'SUSPENDED',
      ]);
    });

    it('puts rails in every posture: NOMINAL, ELEVATED and CRITICAL', async () => {
      const postures = new Map<string, Map<string, string>>();
      for (const m of plan.projects) {
        const res = await request(svc.app)
          .get(`/api/governance-rails?action=scan_all&project_id=${run.refs[m.ref]}`)
          .set(lenderOf(m.ref));
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        postures.set(
          m.ref,
          new Map((res.body.rails as { name: string; posture: string }[]).map((r) => [r.name, r.posture])),
        );
      }
      expect(postures.get('P01')!.get('INSURANCE')).to.equal('NOMINAL');
      expect(postures.get('P05')!.get('INSURANCE')).to.equal('ELEVATED');
      expect(postures.get('P06')!.get('INSURANCE')).to.equal('CRITICAL');
      expect(postures.get('P09')!.get('SAFETY')).to.equal('CRITICAL');
      expect(postures.get('P08')!.get('WORKFORCE')).to.equal('ELEVATED');
      const counterparty = await request(svc.app).get('/api/counterparty-rail').set(lenderOf('P11'));
      const codes = (counterparty.body.findings as { code: string }[]).map((f) => f.code);
      expect(codes).to.include('COUNTERPARTY_DISTRESSED_GC');
    });
  });

  it('seeds the bare facts with phases [ingest]: nothing funded, the hooks counted as not sent', async () => {
    const svc = await startService();
    try {
      const plan = planDemo({ projects: 1 });
      const run = await runDemo(svc.composed.deps, plan, { phases: ['ingest'] });
      expect(run.counts.draws_by_status).to.not.have.property('FUNDED');
      const held = governanceSteps(plan);
      expect(Object.values(run.counts.deferred_steps).reduce((a, b) => a + b, 0)).to.equal(held.length);
    } finally {
      await svc.close();
    }
  });

  it('gives byte-identical ledgers for the same seed and different ones for another seed', async () => {
    const seed = async (s: string) => {
      const svc = await startService();
      try {
        const run = await runDemo(svc.composed.deps, planDemo({ projects: 1, seed: s }));
        return { head: run.head, events: run.counts.events, key: run.demo_key.key };
      } finally {
        await svc.close();
      }
    };
    const [first, second, other] = [await seed('7'), await seed('7'), await seed('8')];
    expect(second).to.deep.equal(first);
    expect(first.events).to.be.greaterThan(100);
    expect(other.head.hash).to.not.equal(first.head.hash);
    expect(other.key).to.not.equal(first.key);
  });
});
