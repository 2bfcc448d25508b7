import { expect } from 'chai';
import { projectsProjection } from '../../../projections/projects.js';
import { idFromUuid } from '../../../src/platform/ids.js';
import { decide, RegisterProjectBody, US_JURISDICTIONS } from '../../../src/projects/index.js';
import { deciderSpec } from '../../support/decider.js';
import { ctx, D, ENT, History, NOW, ORG_A, ORG_B, projectBody, uuid } from './fixtures.js';

const spec = deciderSpec(projectsProjection, decide);

describe('registering a project (SPEC §5 POST /api/projects)', () => {
  it('records ProjectRegistered on the project stream with absent values as null and the default profile', () => {
    const body = projectBody({ architect: undefined, contingency: D(50_000) });
    const id = idFromUuid('prj_', uuid(1, 5));
    spec
      .given([])
      .when({ type: 'RegisterProject', body }, ctx(ORG_A, 1))
      .then([
        {
          id: uuid(1, 5),
          stream: `project-${id}`,
          type: 'ProjectRegistered',
          schema: 1,
          data: {
            project_id: id,
            name: 'Harbor View Lofts',
            profile: 'construction',
            borrower: ENT.borrower,
            general_contractor: ENT.gc,
            architect: null,
            inspector: ENT.inspector,
            jurisdiction: 'CA',
            loan_amount: D(800_000),
            equity: D(200_000),
            contract_sum: D(1_000_000),
            contingency: D(50_000),
            retainage_pct: 10,
            interest_rate_pct: 7.5,
            start_date: '2026-01-05',
            completion_date: '2026-12-18',
            maturity_date: '2027-06-30',
            sov: [
              {
                line: 1,
                description: 'Sitework',
                scheduled_value: D(200_000),
                trade: 'sitework',
                subcontractor: null,
              },
              {
                line: 2,
                description: 'Concrete',
                scheduled_value: D(300_000),
                trade: 'concrete',
                subcontractor: ENT.sub,
              },
              {
                line: 3,
                description: 'Framing',
                scheduled_value: D(500_000),
                trade: 'carpentry',
                subcontractor: null,
              },
            ],
            required_coverages: [{ type: 'GL', min_limit: D(1_000_000) }],
            milestones: [{ name: 'Foundation complete', due_on: '2026-04-30', completed_on: null }],
          },
        },
      ]);
  });

  it('defaults contingency to 0 when registration names none', () => {
    const [event] = spec
      .given([])
      .when({ type: 'RegisterProject', body: projectBody() }, ctx(ORG_A, 1))
      .thenAccepted();
    expect(event?.data).to.include({ contingency: 0 });
  });

  it('is refused when the general contractor is not in the registry, naming the path', () => {
    spec
      .given([])
      .when(
        { type: 'RegisterProject', body: projectBody({ general_contractor: ENT.stranger }) },
        ctx(ORG_A, 1),
      )
      .thenRejects('INVALID_REQUEST', ['general_contractor'], 'unknown_entity');
  });

  it('is refused when an SOV subcontractor is not in the registry', () => {
    const sov = projectBody().sov.map((l) => (l.line === 3 ? { ...l, subcontractor: ENT.stranger } : l));
    spec
      .given([])
      .when({ type: 'RegisterProject', body: projectBody({ sov }) }, ctx(ORG_A, 1))
      .thenRejects('INVALID_REQUEST', ['sov', 2, 'subcontractor'], 'unknown_entity');
  });

  it('is refused when a milestone is registered as reached after today, naming it; today is taken', () => {
    // Reached ahead, the milestone never slipped (SCHEDULE_SLIPPAGE, the GC's schedule_performance)
    // whenever it was really reached. Its due day, like start and completion, may lie ahead.
    const today = NOW.toISOString().slice(0, 10);
    const tomorrow = new Date(NOW.getTime() + 86_400_000).toISOString().slice(0, 10);
    const milestones = (completed_on: string) => [
      { name: 'Mobilized', due_on: '2026-02-01', completed_on: '2026-02-03' },
      { name: 'Foundation complete', due_on: '2026-04-30', completed_on },
    ];
    spec
      .given([])
      .when(
        { type: 'RegisterProject', body: projectBody({ milestones: milestones(tomorrow) }) },
        ctx(ORG_A, 1),
      )
      .thenRejects('INVALID_REQUEST', ['milestones', 1, 'completed_on'], 'out_of_range');
    spec
      .given([])
      .when({ type: 'RegisterProject', body: projectBody({ milestones: milestones(today) }) }, ctx(ORG_A, 1))
      .thenAccepted();
  });

  it('is a CONFLICT when the org already has a project of that name (case and spacing ignored)', () => {
    const h = new History();
    h.run(ORG_A, { type: 'RegisterProject', body: projectBody() });
    spec
      .given(h.given)
      .when({ type: 'RegisterProject', body: projectBody({ name: '  harbor view LOFTS ' }) }, ctx(ORG_A, 2))
      .thenRejects('CONFLICT');
  });

  it('lets another org register a project of the same name', () => {
    const h = new History();
    h.run(ORG_A, { type: 'RegisterProject', body: projectBody() });
    spec.given(h.given).when({ type: 'RegisterProject', body: projectBody() }, ctx(ORG_B, 2)).thenAccepted();
  });
});

describe('the project registration contract', () => {
  const raw = () => JSON.parse(JSON.stringify(projectBody())) as Record<string, unknown>;
  const issuePaths = (body: unknown) =>
    (RegisterProjectBody.safeParse(body).error?.issues ?? []).map((i) => i.path.join('.'));

  it('accepts the fixture body', () => {
    expect(RegisterProjectBody.safeParse(raw()).success).to.equal(true);
  });

  it('knows the 50 states, DC and the five inhabited territories, and nothing else', () => {
    expect(US_JURISDICTIONS).to.have.length(56);
    expect(new Set(US_JURISDICTIONS).size).to.equal(56);
    for (const code of ['DC', 'PR', 'GU', 'VI', 'AS', 'MP', 'WY']) expect(US_JURISDICTIONS).to.include(code);
    expect(issuePaths({ ...raw(), jurisdiction: 'ZZ' })).to.deep.equal(['jurisdiction']);
    expect(issuePaths({ ...raw(), jurisdiction: 'ca' })).to.deep.equal(['jurisdiction']);
  });

  it('rejects unknown fields (strict objects)', () => {
    expect(RegisterProjectBody.safeParse({ ...raw(), color: 'blue' }).error?.issues[0]?.code).to.equal(
      'unrecognized_keys',
    );
  });

  it('takes money only as non-negative integer cents', () => {
    expect(issuePaths({ ...raw(), loan_amount: 10.5 })).to.deep.equal(['loan_amount']);
    expect(issuePaths({ ...raw(), equity: -1 })).to.deep.equal(['equity']);
    expect(issuePaths({ ...raw(), contract_sum: '100' })).to.deep.equal(['contract_sum']);
  });

  it('takes dates only as real calendar dates', () => {
    expect(issuePaths({ ...raw(), start_date: '2026-02-30' })).to.include('start_date');
    expect(issuePaths({ ...raw(), start_date: '2026-1-05' })).to.include('start_date');
    expect(
      issuePaths({
        ...raw(),
        start_date: '2028-02-29',
        completion_date: '2028-12-01',
        maturity_date: '2029-01-01',
      }),
    ).to.be.empty;
  });

  it('refuses a completion or maturity before the start', () => {
    expect(issuePaths({ ...raw(), completion_date: '2025-12-31' })).to.deep.equal(['completion_date']);
    expect(issuePaths({ ...raw(), maturity_date: '2025-12-31' })).to.deep.equal(['maturity_date']);
  });

  it('requires SOV line numbers to be unique, naming the repeat', () => {
    const body = raw();
    const sov = body.sov as { line: number }[];
    sov[2]!.line = 1;
    expect(issuePaths(body)).to.deep.equal(['sov.2.line']);
  });

  it('bounds percentages to 0–100', () => {
    expect(issuePaths({ ...raw(), retainage_pct: 101 })).to.deep.equal(['retainage_pct']);
    expect(issuePaths({ ...raw(), interest_rate_pct: -0.5 })).to.deep.equal(['interest_rate_pct']);
  });

  it('accepts only the five profiles', () => {
    expect(issuePaths({ ...raw(), profile: 'treasury' })).to.be.empty;
    expect(issuePaths({ ...raw(), profile: 'retail' })).to.deep.equal(['profile']);
  });
});
