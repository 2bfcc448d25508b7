/**
 * DOMAIN §3 rules about order: CHANGE_ORDER_PRECEDENCE and PAY_PERIOD_SEQUENCE.
 */
import { expect } from 'chai';
import type { ChangeOrder } from '../../../src/projects/facts.js';
import { cleanWorld, findingsFor, severities, GC } from '../../support/governance-fixtures.js';

describe('CHANGE_ORDER_PRECEDENCE (DOMAIN §3)', () => {
  /**
   * Application 2 (submitted 2026-04-03) after a change order adding to line 2 (electrical,
   * $500,000 scheduled, $50,000 billed before). `line2` is line 2's this-period billing:
   * $450,000 brings G to exactly the line's value without the change order.
   */
  const billing = (co: Partial<ChangeOrder> & Pick<ChangeOrder, 'lines'>, line2: number) =>
    cleanWorld({
      beforeDraw2: (w) => w.changeOrder({ id: 'CO-1', ...co }),
      draw2: {
        lines: { 1: { this_period: 20_000_000 }, 2: { this_period: line2 }, 3: { this_period: 30_000_000 } },
      },
    }).w;
  const onDraws = (w: ReturnType<typeof billing>) =>
    findingsFor(w, 'CHANGE_ORDER_PRECEDENCE').filter((f) => f.draw_id !== null);

  it('blocks billing one cent of work on a change order that is not executed', () => {
    const w = billing({ lines: [{ line: 2, delta: 1_000_000 }] }, 45_000_001);
    const found = onDraws(w);
    expect(found.map((f) => [f.severity, f.draw_id, f.entity_id, f.curable_by_documents])).to.deep.equal([
      ['BLOCKING', 'DRW-2', GC, false],
    ]);
    expect(found[0]!.evidence).to.deep.include({ kind: 'change_order', id: 'CO-1' });
  });

  it('does not count billing up to the line value without the change order', () => {
    expect(onDraws(billing({ lines: [{ line: 2, delta: 1_000_000 }] }, 45_000_000))).to.deep.equal([]);
  });

  it('accepts execution on the submission day and blocks execution the day after', () => {
    const sameDay = billing(
      { lines: [{ line: 2, delta: 1_000_000 }], executed_on: '2026-04-03' },
      45_500_000,
    );
    expect(onDraws(sameDay)).to.deep.equal([]);
    const dayAfter = billing(
      { lines: [{ line: 2, delta: 1_000_000 }], executed_on: '2026-04-04' },
      45_500_000,
    );
    expect(severities(onDraws(dayAfter))).to.deep.equal(['BLOCKING']);
  });

  it('blocks a change order of exactly $50,000 billed before lender approval', () => {
    // executed in the period, so column C counts it; G goes one cent past the value without it
    const w = billing({ lines: [{ line: 2, delta: 5_000_000 }], executed_on: '2026-03-15' }, 45_000_001);
    const found = onDraws(w);
    expect(found.map((f) => f.severity)).to.deep.equal(['BLOCKING']);
    expect(found[0]!.title).to.contain('before lender approval');
  });

  it('does not require approval one cent under $50,000', () => {
    const w = billing({ lines: [{ line: 2, delta: 4_999_999 }], executed_on: '2026-03-15' }, 45_000_001);
    expect(onDraws(w)).to.deep.equal([]);
  });

  it('accepts approval on the submission day and blocks approval the day after', () => {
    const co = { lines: [{ line: 2, delta: 5_000_000 }], executed_on: '2026-03-15' };
    expect(onDraws(billing({ ...co, lender_approved_on: '2026-04-03' }, 45_000_001))).to.deep.equal([]);
    expect(
      severities(onDraws(billing({ ...co, lender_approved_on: '2026-04-04' }, 45_000_001))),
    ).to.deep.equal(['BLOCKING']);
  });

  it('never treats a deductive change order as billed', () => {
    const w = billing({ lines: [{ line: 2, delta: -1_000_000 }] }, 45_000_001);
    expect(onDraws(w)).to.deep.equal([]);
  });

  it('warns on a change order executed a day after its work started, not on the same day', () => {
    const late = cleanWorld().w;
    late.changeOrder({
      id: 'CO-1',
      lines: [{ line: 1, delta: 10 }],
      work_started_on: '2026-03-01',
      executed_on: '2026-03-02',
    });
    const found = findingsFor(late, 'CHANGE_ORDER_PRECEDENCE');
    expect(found.map((f) => [f.severity, f.draw_id])).to.deep.equal([['WARNING', null]]);

    const onTime = cleanWorld().w;
    onTime.changeOrder({
      id: 'CO-1',
      lines: [{ line: 1, delta: 10 }],
      work_started_on: '2026-03-01',
      executed_on: '2026-03-01',
    });
    expect(findingsFor(onTime, 'CHANGE_ORDER_PRECEDENCE')).to.deep.equal([]);
  });

  it('warns on work already started under a change order still not executed, not on future work', () => {
    const started = cleanWorld().w;
    started.changeOrder({ id: 'CO-1', lines: [{ line: 1, delta: 10 }], work_started_on: '2026-04-15' });
    expect(severities(findingsFor(started, 'CHANGE_ORDER_PRECEDENCE'))).to.deep.equal(['WARNING']);

    const planned = cleanWorld().w;
    planned.changeOrder({ id: 'CO-1', lines: [{ line: 1, delta: 10 }], work_started_on: '2026-04-16' });
    expect(findingsFor(planned, 'CHANGE_ORDER_PRECEDENCE')).to.deep.equal([]);
  });
});

describe('PAY_PERIOD_SEQUENCE (DOMAIN §3)', () => {
  it('finds nothing for consecutive numbers, adjoining periods and different months', () => {
    expect(findingsFor(cleanWorld().w, 'PAY_PERIOD_SEQUENCE')).to.deep.equal([]);
  });

  it('blocks an application number that skips one', () => {
    const found = findingsFor(cleanWorld({ draw2: { application_no: 3 } }).w, 'PAY_PERIOD_SEQUENCE');
    expect(found.map((f) => [f.severity, f.draw_id, f.curable_by_documents])).to.deep.equal([
      ['BLOCKING', 'DRW-2', false],
    ]);
    expect(found[0]!.detail).to.contain('Expected application number 2');
  });

  it('blocks a period that starts on the day the previous one ended', () => {
    const found = findingsFor(cleanWorld({ draw2: { period_from: '2026-02-28' } }).w, 'PAY_PERIOD_SEQUENCE');
    expect(severities(found)).to.deep.equal(['BLOCKING']);
    expect(found[0]!.evidence).to.deep.include({ kind: 'draw', id: 'DRW-1' });
  });

  it('warns on two draws submitted in the same calendar month, not in adjoining months', () => {
    // application 1 was submitted 2026-03-02
    const sameMonth = findingsFor(
      cleanWorld({ draw2: { submitted_on: '2026-03-31' } }).w,
      'PAY_PERIOD_SEQUENCE',
    );
    expect(severities(sameMonth)).to.deep.equal(['WARNING']);
    expect(
      findingsFor(cleanWorld({ draw2: { submitted_on: '2026-04-01' } }).w, 'PAY_PERIOD_SEQUENCE'),
    ).to.deep.equal([]);
  });

  it('leaves a rejected draw out of the sequence', () => {
    // given application 3 rejected, and its resubmission again numbered 3
    const { w } = cleanWorld();
    const lines = { 1: { this_period: 1 } };
    w.draw({
      id: 'DRW-3x',
      application_no: 3,
      period_from: '2026-04-01',
      period_to: '2026-04-30',
      submitted_on: '2026-05-02',
      lines,
      status: 'REJECTED',
    });
    w.draw({
      id: 'DRW-3',
      application_no: 3,
      period_from: '2026-04-01',
      period_to: '2026-04-30',
      submitted_on: '2026-06-01',
      lines,
    });
    expect(findingsFor(w, 'PAY_PERIOD_SEQUENCE')).to.deep.equal([]);
  });
});
