import { expect } from 'chai';
import { projectsProjection } from '../../../projections/projects.js';
import { idFromUuid } from '../../../src/platform/ids.js';
import { decide, RecordChangeOrderBody } from '../../../src/projects/index.js';
import { deciderSpec } from '../../support/decider.js';
import {
  changeOrderBody,
  ctx,
  D,
  History,
  NOW,
  ORG_A,
  ORG_B,
  projectBody,
  projectHistory,
  uuid,
} from './fixtures.js';

const spec = deciderSpec(projectsProjection, decide);

describe('recording a change order (SPEC §5 POST /api/projects/:id/change-orders)', () => {
  it('records ChangeOrderRecorded on the project stream, unexecuted dates as null', () => {
    const { h, project } = projectHistory();
    const body = changeOrderBody({ executed_on: undefined, lender_approved_on: '2026-02-12' });
    spec
      .given(h.given)
      .when({ type: 'RecordChangeOrder', project_id: project, body }, ctx(ORG_A, 9))
      .then([
        {
          id: uuid(9, 5),
          stream: `project-${project}`,
          type: 'ChangeOrderRecorded',
          schema: 1,
          data: {
            change_order_id: idFromUuid('CO-', uuid(9, 5)),
            project_id: project,
            number: 'CO-001',
            amount: D(25_000),
            lines: [{ line: 2, delta: D(25_000) }],
            description: 'Deeper footings after geotech report',
            executed_on: null,
            lender_approved_on: '2026-02-12',
            work_started_on: null,
          },
        },
      ]);
  });

  it('accepts a deductive (negative) change order', () => {
    const { h, project } = projectHistory();
    const body = changeOrderBody({ amount: -D(5_000), lines: [{ line: 3, delta: -D(5_000) }] });
    spec
      .given(h.given)
      .when({ type: 'RecordChangeOrder', project_id: project, body }, ctx(ORG_A, 9))
      .thenAccepted();
  });

  describe('a deduction takes a line or the contract to zero, never below', () => {
    // Line 1 is $200,000, the contract $1,000,000. Below zero, column C went negative (H −50 %, so
    // no inspection variance could fire) and a contract sum to date of −$500,000 left nothing to
    // complete: lender and cashflow adequacy 100, an out-of-balance project in balance.
    const deduct = (line: number, dollars: number, over: Record<string, unknown> = {}) =>
      changeOrderBody({ amount: -D(dollars), lines: [{ line, delta: -D(dollars) }], ...over });

    it('is refused when an executed change order takes a line below zero, naming the delta', () => {
      const { h, project } = projectHistory();
      spec
        .given(h.given)
        .when({ type: 'RecordChangeOrder', project_id: project, body: deduct(1, 250_000) }, ctx(ORG_A, 9))
        .thenRejects('INVALID_REQUEST', ['lines', 0, 'delta'], 'out_of_range');
    });

    it('counts the change orders executed before it', () => {
      const { h, project } = projectHistory();
      h.run(ORG_A, { type: 'RecordChangeOrder', project_id: project, body: deduct(1, 150_000) });
      spec
        .given(h.given)
        .when(
          { type: 'RecordChangeOrder', project_id: project, body: deduct(1, 100_000, { number: 'CO-002' }) },
          ctx(ORG_A, 9),
        )
        .thenRejects('INVALID_REQUEST', ['lines', 0, 'delta'], 'out_of_range');
    });

    it('is refused when it is dated before an addition that would only later lift the line', () => {
      const { h, project } = projectHistory();
      const addition = changeOrderBody({ executed_on: '2026-03-01' });
      h.run(ORG_A, {
        type: 'RecordChangeOrder',
        project_id: project,
        body: { ...addition, amount: D(100_000), lines: [{ line: 1, delta: D(100_000) }] },
      });
      const earlier = deduct(1, 250_000, { number: 'CO-002', executed_on: '2026-02-01' });
      spec
        .given(h.given)
        .when({ type: 'RecordChangeOrder', project_id: project, body: earlier }, ctx(ORG_A, 9))
        .thenRejects('INVALID_REQUEST', ['lines', 0, 'delta'], 'out_of_range');
    });

    it('is refused when executed deductions take the contract sum below zero, naming the amount', () => {
      const { h, project } = projectHistory();
      const body = changeOrderBody({ amount: -D(1_200_000), lines: [{ line: 3, delta: -D(500_000) }] });
      spec
        .given(h.given)
        .when({ type: 'RecordChangeOrder', project_id: project, body }, ctx(ORG_A, 9))
        .thenRejects('INVALID_REQUEST', ['amount'], 'out_of_range');
    });

    it('is refused when it takes a line or the contract sum past 2^53 − 1 cents (not exact in cents)', () => {
      const { h, project } = projectHistory();
      const max = Number.MAX_SAFE_INTEGER;
      const body = changeOrderBody({ amount: max, lines: [{ line: 1, delta: max }] });
      const decided = decide(
        h.state(),
        { type: 'RecordChangeOrder', project_id: project, body },
        ctx(ORG_A, 9),
      );
      expect(decided.ok).to.equal(false);
      if (decided.ok) return;
      expect(decided.error.errors?.map((e) => [e.path.join('.'), e.code])).to.deep.equal([
        ['amount', 'out_of_range'],
        ['lines.0.delta', 'out_of_range'],
      ]);
    });

    it('takes a line down to exactly zero, and does not judge a change order not executed', () => {
      const { h, project } = projectHistory();
      spec
        .given(h.given)
        .when({ type: 'RecordChangeOrder', project_id: project, body: deduct(1, 200_000) }, ctx(ORG_A, 9))
        .thenAccepted();
      const pending = deduct(1, 250_000, { executed_on: undefined, lender_approved_on: undefined });
      spec
        .given(h.given)
        .when({ type: 'RecordChangeOrder', project_id: project, body: pending }, ctx(ORG_A, 9))
        .thenAccepted();
    });
  });

  it('is NOT_FOUND for an unknown project', () => {
    const { h } = projectHistory();
    const unknown = idFromUuid('prj_', uuid(77, 77));
    spec
      .given(h.given)
      .when({ type: 'RecordChangeOrder', project_id: unknown, body: changeOrderBody() }, ctx(ORG_A, 9))
      .thenRejects('NOT_FOUND');
  });

  it("answers another org's project exactly like an unknown one", () => {
    const { h, project } = projectHistory();
    const foreign = decide(
      h.state(),
      { type: 'RecordChangeOrder', project_id: project, body: changeOrderBody() },
      ctx(ORG_B, 9),
    );
    const unknownId = idFromUuid('prj_', uuid(77, 77));
    const unknown = decide(
      h.state(),
      { type: 'RecordChangeOrder', project_id: unknownId, body: changeOrderBody() },
      ctx(ORG_B, 9),
    );
    expect(foreign.ok).to.equal(false);
    if (foreign.ok || unknown.ok) return;
    expect(foreign.error.code).to.equal('NOT_FOUND');
    expect(foreign.error.detail.replace(project, 'X')).to.equal(unknown.error.detail.replace(unknownId, 'X'));
  });

  it('is refused when a line is not on the SOV, naming the path', () => {
    const { h, project } = projectHistory();
    const body = changeOrderBody({
      lines: [
        { line: 2, delta: 1 },
        { line: 9, delta: 1 },
      ],
    });
    spec
      .given(h.given)
      .when({ type: 'RecordChangeOrder', project_id: project, body }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['lines', 1, 'line'], 'unknown_sov_line');
  });

  it('is refused when executed or lender-approved after today, naming the field; today is taken', () => {
    // Executed ahead, the change order joined the contract (column C, CONTRACT_SUM_MISMATCH,
    // adequacy) on a day the lender chose and stayed out of MARKET_CO_VELOCITY's window until then.
    const { h, project } = projectHistory();
    const today = NOW.toISOString().slice(0, 10);
    const tomorrow = new Date(NOW.getTime() + 86_400_000).toISOString().slice(0, 10);
    for (const field of ['executed_on', 'lender_approved_on']) {
      const body = changeOrderBody({ executed_on: today, [field]: tomorrow });
      spec
        .given(h.given)
        .when({ type: 'RecordChangeOrder', project_id: project, body }, ctx(ORG_A, 9))
        .thenRejects('INVALID_REQUEST', [field], 'out_of_range');
    }
    const dated = { executed_on: today, lender_approved_on: today };
    spec
      .given(h.given)
      .when({ type: 'RecordChangeOrder', project_id: project, body: changeOrderBody(dated) }, ctx(ORG_A, 9))
      .thenAccepted();
  });

  it('takes a work start after today: executed and approved before its scheduled start', () => {
    const { h, project } = projectHistory();
    const today = NOW.toISOString().slice(0, 10);
    const nextWeek = new Date(NOW.getTime() + 7 * 86_400_000).toISOString().slice(0, 10);
    const body = changeOrderBody({
      executed_on: today,
      lender_approved_on: today,
      work_started_on: nextWeek,
    });
    spec
      .given(h.given)
      .when({ type: 'RecordChangeOrder', project_id: project, body }, ctx(ORG_A, 9))
      .thenAccepted();
  });

  it('is a CONFLICT when the project already has a change order with that number', () => {
    const { h, project } = projectHistory();
    h.run(ORG_A, { type: 'RecordChangeOrder', project_id: project, body: changeOrderBody() });
    spec
      .given(h.given)
      .when({ type: 'RecordChangeOrder', project_id: project, body: changeOrderBody() }, ctx(ORG_A, 9))
      .thenRejects('CONFLICT');
  });

  it('allows the same number on another project', () => {
    const h = new History();
    const p1 = h.run(ORG_A, { type: 'RegisterProject', body: projectBody() });
    const p2 = h.run(ORG_A, { type: 'RegisterProject', body: projectBody({ name: 'Second' }) });
    h.run(ORG_A, { type: 'RecordChangeOrder', project_id: p1, body: changeOrderBody() });
    spec
      .given(h.given)
      .when({ type: 'RecordChangeOrder', project_id: p2, body: changeOrderBody() }, ctx(ORG_A, 9))
      .thenAccepted();
  });

  it('contract: refuses fractional cents and repeated lines', () => {
    const raw = JSON.parse(JSON.stringify(changeOrderBody())) as Record<string, unknown>;
    expect(RecordChangeOrderBody.safeParse({ ...raw, amount: 1.5 }).success).to.equal(false);
    const dup = RecordChangeOrderBody.safeParse({
      ...raw,
      lines: [
        { line: 1, delta: 1 },
        { line: 1, delta: 2 },
      ],
    });
    expect(dup.error?.issues.map((i) => i.path.join('.'))).to.deep.equal(['lines.1.line']);
  });
});
