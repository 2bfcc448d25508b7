import { expect } from 'chai';
import { projectsProjection } from '../../../projections/projects.js';
import { idFromUuid } from '../../../src/platform/ids.js';
import { decide, SubmitDrawBody, type Draw } from '../../../src/projects/index.js';
import { deciderSpec } from '../../support/decider.js';
import {
  changeOrderBody,
  ctx,
  D,
  drawBody,
  History,
  invoiceBody,
  NOW,
  ORG_A,
  ORG_B,
  projectBody,
  projectHistory,
  uuid,
} from './fixtures.js';

const spec = deciderSpec(projectsProjection, decide);

describe('submitting a draw (SPEC §5 POST /api/projects/:id/draws)', () => {
  it('records DrawSubmitted on the draw stream with only the stated columns; unstated figures null', () => {
    const { h, project } = projectHistory();
    const inv = h.run(ORG_A, { type: 'RecordDocument', project_id: project, body: invoiceBody() });
    const body = drawBody({ invoices: [inv] });
    const id = idFromUuid('DRW-', uuid(9, 5));
    spec
      .given(h.given)
      .when({ type: 'SubmitDraw', project_id: project, body }, ctx(ORG_A, 9))
      .then([
        {
          id: uuid(9, 5),
          stream: `draw-${id}`,
          type: 'DrawSubmitted',
          schema: 1,
          data: {
            draw_id: id,
            project_id: project,
            application_no: 1,
            period_from: '2026-02-01',
            period_to: '2026-02-28',
            submitted_on: '2026-03-15', // the command's `now`, as no date was stated
            lines: body.lines,
            retainage_pct: 10,
            retainage_withheld: null,
            previous_certificates_total: null,
            requested_amount: D(83_111.1),
            invoices: [inv],
          },
        },
      ]);
  });

  it('is NOT_FOUND for an unknown project and for another org’s project alike', () => {
    const { h, project } = projectHistory();
    spec
      .given(h.given)
      .when({ type: 'SubmitDraw', project_id: project, body: drawBody() }, ctx(ORG_B, 9))
      .thenRejects('NOT_FOUND');
    const unknown = idFromUuid('prj_', uuid(3, 33));
    spec
      .given(h.given)
      .when({ type: 'SubmitDraw', project_id: unknown, body: drawBody() }, ctx(ORG_A, 9))
      .thenRejects('NOT_FOUND');
  });

  it('is refused when submitted after today, and taken submitted today', () => {
    // Dated ahead, CHANGE_ORDER_PRECEDENCE judged billing against a day the lender chose, and the
    // GC's draw-accuracy signals (credit, every lender's report) skipped the draw until then.
    const { h, project } = projectHistory();
    const today = NOW.toISOString().slice(0, 10);
    const tomorrow = new Date(NOW.getTime() + 86_400_000).toISOString().slice(0, 10);
    spec
      .given(h.given)
      .when(
        { type: 'SubmitDraw', project_id: project, body: drawBody({ submitted_on: tomorrow }) },
        ctx(ORG_A, 9),
      )
      .thenRejects('INVALID_REQUEST', ['submitted_on'], 'out_of_range');
    const decided = decide(
      h.state(),
      { type: 'SubmitDraw', project_id: project, body: drawBody({ submitted_on: today }) },
      ctx(ORG_A, 9),
    );
    expect(decided.ok).to.equal(true);
  });

  it('is refused when a line is not on the SOV', () => {
    const { h, project } = projectHistory();
    const lines = [...drawBody().lines, { line: 4, previous: 0, this_period: 1, stored_materials: 0 }];
    spec
      .given(h.given)
      .when({ type: 'SubmitDraw', project_id: project, body: drawBody({ lines }) }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['lines', 3, 'line'], 'unknown_sov_line');
  });

  it('is refused when it leaves out an SOV line (a G703 lists them all)', () => {
    const { h, project } = projectHistory();
    const lines = drawBody().lines.filter((l) => l.line !== 2);
    spec
      .given(h.given)
      .when({ type: 'SubmitDraw', project_id: project, body: drawBody({ lines }) }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['lines'], 'missing_sov_lines');
  });

  it('is refused when it lists an invoice of another project', () => {
    const h = new History();
    const p1 = h.run(ORG_A, { type: 'RegisterProject', body: projectBody() });
    const p2 = h.run(ORG_A, { type: 'RegisterProject', body: projectBody({ name: 'Second' }) });
    const inv2 = h.run(ORG_A, { type: 'RecordDocument', project_id: p2, body: invoiceBody() });
    spec
      .given(h.given)
      .when({ type: 'SubmitDraw', project_id: p1, body: drawBody({ invoices: [inv2] }) }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['invoices', 0], 'foreign_document');
  });

  it("reports another org's invoice as unknown", () => {
    const h = new History();
    const p1 = h.run(ORG_A, { type: 'RegisterProject', body: projectBody() });
    const pb = h.run(ORG_B, { type: 'RegisterProject', body: projectBody() });
    const invB = h.run(ORG_B, { type: 'RecordDocument', project_id: pb, body: invoiceBody() });
    spec
      .given(h.given)
      .when({ type: 'SubmitDraw', project_id: p1, body: drawBody({ invoices: [invB] }) }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['invoices', 0], 'unknown_document');
  });

  it('is a CONFLICT when the application number was already used on the project', () => {
    const { h, project } = projectHistory();
    h.run(ORG_A, { type: 'SubmitDraw', project_id: project, body: drawBody() });
    spec
      .given(h.given)
      .when(
        {
          type: 'SubmitDraw',
          project_id: project,
          body: drawBody({ period_from: '2026-03-01', period_to: '2026-03-31' }),
        },
        ctx(ORG_A, 9),
      )
      .thenRejects('CONFLICT');
  });

  it('contract: refuses a period that ends before it starts and repeated invoices', () => {
    const raw = JSON.parse(JSON.stringify(drawBody())) as Record<string, unknown>;
    const inv = idFromUuid('INV-', uuid(1));
    const r = SubmitDrawBody.safeParse({ ...raw, period_to: '2026-01-31', invoices: [inv, inv] });
    expect(r.error?.issues.map((i) => i.path.join('.')).sort()).to.deep.equal(['invoices.1', 'period_to']);
  });
});

describe('the G702/G703 a submitted draw projects to', () => {
  /** SOV 200k/300k/500k; CO +25k on line 2 executed in the period; two that must not count. */
  function submitted(): { draw: Draw; h: History; project: string } {
    const { h, project } = projectHistory();
    h.run(ORG_A, { type: 'RecordChangeOrder', project_id: project, body: changeOrderBody() });
    const late = { number: 'CO-002', lines: [{ line: 3, delta: D(10_000) }], executed_on: '2026-03-10' };
    h.run(ORG_A, { type: 'RecordChangeOrder', project_id: project, body: changeOrderBody(late) });
    const unexecuted = { number: 'CO-003', lines: [{ line: 1, delta: D(7_000) }], executed_on: undefined };
    h.run(ORG_A, { type: 'RecordChangeOrder', project_id: project, body: changeOrderBody(unexecuted) });
    const id = h.run(ORG_A, { type: 'SubmitDraw', project_id: project, body: drawBody() });
    return { draw: h.state().draws[id]!, h, project };
  }

  it('derives C from the SOV plus change orders executed by the period end, and G, H, I, J per line', () => {
    const { draw } = submitted();
    const cols = draw.lines.map((l) => [
      l.line,
      l.scheduled_value,
      l.completed_and_stored,
      l.percent_complete,
      l.balance_to_finish,
      l.retainage,
    ]);
    expect(cols).to.deep.equal([
      [1, 20_000_000, 5_000_000, 25, 15_000_000, 500_000],
      // G = 3,000,000 + 1,234,567; H = 4,234,567 / 32,500,000 = 13.0294… → 13.03; J = 423,456.7 → 423,457
      [2, 32_500_000, 4_234_567, 13.03, 28_265_433, 423_457],
      [3, 50_000_000, 0, 0, 50_000_000, 0],
    ]);
    expect(draw.lines[1]).to.include({
      original_scheduled_value: 30_000_000,
      change_order_delta: 2_500_000,
      description: 'Concrete',
    });
  });

  it('derives the G702 summary and defaults unstated retainage and previous certificates', () => {
    const { draw } = submitted();
    expect(draw.retainage_expected).to.equal(923_457);
    expect(draw.retainage_withheld).to.equal(923_457);
    expect(draw.previous_certificates_total).to.equal(0);
    expect(draw.summary).to.deep.equal({
      original_contract_sum: 100_000_000,
      net_change_orders: 2_500_000,
      contract_sum_to_date: 102_500_000,
      total_completed_and_stored: 9_234_567,
      retainage: 923_457,
      total_earned_less_retainage: 8_311_110,
      previous_certificates: 0,
      current_payment_due: 8_311_110,
      balance_to_finish_including_retainage: 94_188_890,
    });
    expect(draw).to.include({ status: 'SUBMITTED', funded_amount: null, compiled_seq: null });
  });

  it('keeps stated retainage and previous certificates beside what they should be', () => {
    const { h, project } = submitted();
    const first = h.state().by_project[project]!.draw_ids[0]!;
    h.governance(ORG_A, 'PaymentPushed', {
      draw_id: first,
      amount: 8_311_110,
      payment_id: 'PAY-x',
      rail: 'ACH',
    });
    const body = drawBody({
      application_no: 2,
      period_from: '2026-03-01',
      period_to: '2026-03-31',
      retainage_withheld: 900_000,
      previous_certificates_total: 8_000_000,
    });
    const id = h.run(ORG_A, { type: 'SubmitDraw', project_id: project, body });
    const second = h.state().draws[id]!;
    expect(second).to.include({
      retainage_withheld: 900_000,
      retainage_expected: 923_457,
      previous_certificates_total: 8_000_000,
      previous_funded_total: 8_311_110,
    });
    // Now in the period: CO-002 (executed 2026-03-10) counts on line 3.
    expect(second.lines[2]!.scheduled_value).to.equal(51_000_000);
    expect(second.summary.current_payment_due).to.equal(9_234_567 - 900_000 - 8_000_000);
  });
});
