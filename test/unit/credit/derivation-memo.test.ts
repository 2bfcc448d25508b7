import { expect } from 'chai';
import fc from 'fast-check';
import {
  behaviorFacts,
  COMPOSITE_DROP_POINTS,
  COMPOSITE_DROP_WINDOW_DAYS,
  compositeDropTriggers,
  dropTriggersOf,
  evolveCredit,
  initCreditState,
  scoreEntity,
  scoreHistory,
  type DerivationMemo,
  type ScorePoint,
  type Trigger,
} from '../../../src/credit/index.js';
import { addDays, daysBetween } from '../../../src/credit/dates.js';
import type { SealedEvent } from '../../../src/platform/ledger/index.js';
import { NOW, World } from './fixtures.js';

/** The drop rule as DOMAIN §5 words it, comparing every score with every earlier one. */
function naiveDrops(points: readonly ScorePoint[]): Trigger[] {
  const sorted = [...points].sort((a, b) => a.on.localeCompare(b.on));
  const out: Trigger[] = [];
  sorted.forEach((point, i) => {
    const window = sorted
      .slice(0, i)
      .filter((p) => daysBetween(p.on, point.on) <= COMPOSITE_DROP_WINDOW_DAYS);
    if (window.length === 0) return;
    const peak = Math.max(...window.map((p) => p.composite_score));
    if (peak - point.composite_score < COMPOSITE_DROP_POINTS) return;
    out.push({
      kind: 'COMPOSITE_DROP',
      on: point.on,
      detail: `composite fell from ${peak} to ${point.composite_score} within ${COMPOSITE_DROP_WINDOW_DAYS} days`,
      evidence: [{ kind: 'credit_score', id: point.on }],
    });
  });
  return out;
}

/** A memo that counts what it computed and what it answered from memory. */
class CountingMemo implements DerivationMemo {
  readonly values = new Map<string, unknown>();
  computed = 0;
  hits = 0;
  remember<T>(key: string, compute: () => T): T {
    if (this.values.has(key)) {
      this.hits += 1;
      return this.values.get(key) as T;
    }
    this.computed += 1;
    const value = compute();
    this.values.set(key, value);
    return value;
  }
}

describe('credit derivations', () => {
  describe('composite drop rule (sliding-window maximum)', () => {
    const point = fc.record({
      on: fc.integer({ min: 0, max: 120 }).map((d) => addDays('2026-01-01', d)),
      composite_score: fc.integer({ min: 0, max: 100 }),
    });

    it('gives exactly the triggers of the every-pair reading, in the same order', () => {
      fc.assert(
        fc.property(fc.array(point, { maxLength: 60 }), (points) => {
          expect(compositeDropTriggers(points)).to.deep.equal(naiveDrops(points));
        }),
        { numRuns: 2000 },
      );
    });

    it('counts a same-day earlier report and forgets one 31 days back', () => {
      expect(
        compositeDropTriggers([
          { on: '2026-03-01', composite_score: 90 },
          { on: '2026-03-31', composite_score: 80 },
          { on: '2026-04-01', composite_score: 79 },
          { on: '2026-04-05', composite_score: 95 },
          { on: '2026-04-05', composite_score: 85 },
        ]).map((t) => [t.on, t.detail]),
      ).to.deep.equal([
        ['2026-03-31', 'composite fell from 90 to 80 within 30 days'],
        ['2026-04-05', 'composite fell from 95 to 85 within 30 days'],
      ]);
    });

    it('stays linear on a much-inquired entity (20,000 reports)', () => {
      const points = Array.from({ length: 20_000 }, (_, i) => ({
        on: addDays('2026-01-01', Math.floor(i / 200)),
        composite_score: 90 - (i % 20),
      }));
      const triggers = compositeDropTriggers(points);
      expect(triggers.length).to.equal(points.filter((p) => p.composite_score <= 80).length);
    });
  });

  describe('drop rule kept in the credit read model', () => {
    const inquiry = (seq: number, on: string, composite_score: number) =>
      ({
        seq,
        type: 'CreditReportIssued',
        meta: { org_id: 'org_a', actor: 'key_a', request_id: `req-${seq}` },
        data: {
          entity_id: 'ent_a',
          composite_score,
          grade: 'C',
          provenance_hash: 'f'.repeat(64),
          as_of: `${on}T12:00:00.000Z`,
          artifacts: [],
        },
      }) as unknown as SealedEvent;
    const day = fc.integer({ min: 0, max: 90 }).map((d) => addDays('2026-01-01', d));
    const score = fc.integer({ min: 0, max: 1000 }).map((n) => n / 10);

    it('gives the triggers of the whole history plus the current score, in order or not, at any day', () => {
      fc.assert(
        fc.property(
          fc.array(fc.record({ on: day, composite_score: score }), { maxLength: 40 }),
          fc.boolean(),
          fc.record({ on: day, composite_score: score }),
          (points, inOrder, current) => {
            const ordered = inOrder
              ? [...points].sort((a, b) => (a.on < b.on ? -1 : a.on > b.on ? 1 : 0))
              : points;
            let state = initCreditState();
            ordered.forEach((p, i) => (state = evolveCredit(state, inquiry(i + 1, p.on, p.composite_score))));
            const expected = compositeDropTriggers(
              [...scoreHistory(state, 'ent_a'), current].filter((p) => p.on <= current.on),
            );
            expect(dropTriggersOf(state, 'ent_a', current)).to.deep.equal(expected);
          },
        ),
        { numRuns: 3000 },
      );
    });

    it('keeps the watch while reports come in day order and drops it on the first one dated earlier', () => {
      let state = initCreditState();
      state = evolveCredit(state, inquiry(1, '2026-03-01', 90));
      state = evolveCredit(state, inquiry(2, '2026-03-05', 70));
      expect(state.entities['ent_a']!.drops!.triggers.map((t) => t.on)).to.deep.equal(['2026-03-05']);
      state = evolveCredit(state, inquiry(3, '2026-03-04', 95));
      expect(state.entities['ent_a']!.drops).to.equal(null);
    });
  });

  describe('memoized facts derivations', () => {
    function world(): World {
      const w = new World();
      const p = w.project('prj_a');
      w.draw(p, { id: 'DRW-1', application_no: 1, period_to: '2026-03-01', funded_on: '2026-03-10' });
      return w;
    }

    it('answer what a fresh computation answers, computing once per day', () => {
      const w = world();
      const memo = new CountingMemo();
      const fresh = w.facts();
      const remembered = { ...w.facts(), memo };
      expect(scoreEntity(remembered, NOW)).to.deep.equal(scoreEntity(fresh, NOW));
      expect(scoreEntity(remembered, new Date(NOW.getTime() + 3_600_000))).to.deep.equal(
        scoreEntity(fresh, NOW),
      );
      const scores: ScorePoint[] = [
        { on: '2026-03-01', composite_score: 95 },
        { on: '2026-03-02', composite_score: 70 },
      ];
      expect(behaviorFacts(remembered, scores, NOW)).to.deep.equal(behaviorFacts(fresh, scores, NOW));
      expect(behaviorFacts(remembered, [], NOW)).to.deep.equal(behaviorFacts(fresh, [], NOW));
      // Each once: the context (participation, findings), the observations (read by the safety
      // record, the citation triggers and the first fact day), the six dimensions' signals and
      // their six scores, the composite, the behavioral basis and its standing part (which reuse
      // the context).
      expect(memo.computed).to.equal(17);
      expect([...memo.values.keys()].map((k) => k.split(':').slice(0, -1).join(':')).sort()).to.deep.equal(
        [
          'behavior',
          'context',
          'observations',
          'score',
          'standing',
          ...[
            'compliance_standing',
            'draw_accuracy',
            'payment_integrity',
            'remediation_responsiveness',
            'safety_record',
            'schedule_performance',
          ].flatMap((d) => [`signals:${d}`, `dimension:${d}`]),
        ].sort(),
      );
      // The second score and behavior of the day; the behavioral basis's context, and its two reads
      // of the observations (citation triggers, first fact day) the safety record already made.
      expect(memo.hits).to.equal(5);
      const tomorrow = new Date(NOW.getTime() + 86_400_000);
      expect(scoreEntity(remembered, tomorrow)).to.deep.equal(scoreEntity(fresh, tomorrow));
      // Tomorrow's score: the context, the observations, six dimensions' signals and scores, and
      // the composite.
      expect(memo.computed).to.equal(17 + 15);
    });

    it('keep the registry check of the facts at hand, not the remembered one', () => {
      const w = world();
      const memo = new CountingMemo();
      const first = { ...w.facts(), memo };
      behaviorFacts(first, [], NOW);
      const later = {
        ...w.facts(),
        memo,
        registry: { ...first.registry, checked_at: '2026-06-01T12:00:00.000Z' },
      };
      expect(behaviorFacts(later, [], NOW).registry.checked_at).to.equal('2026-06-01T12:00:00.000Z');
    });
  });
});
