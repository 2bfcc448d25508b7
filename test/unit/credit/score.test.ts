import { expect } from 'chai';
import {
  DIMENSIONS,
  DIMENSION_WEIGHTS,
  FACTORS,
  REASON_CODES,
  confidenceOf,
  gatherSignals,
  gradeFor,
  makeSignal,
  scoreEntity,
  scoreSignals,
  type EntityFacts,
  type Signal,
} from '../../../src/credit/index.js';
import type { OshaCitation } from '../../../src/projects/facts.js';
import { GC, NOW, TODAY, World, fundedWithWaivers } from './fixtures.js';

const day = { today: TODAY };

describe('credit scoring (DOMAIN §5)', () => {
  describe('given a thin-file entity (no project, no finding)', () => {
    const score = scoreEntity(new World().facts(), NOW);

    it('scores every dimension at the neutral prior 70, marked insufficient_data, with no factors', () => {
      for (const d of DIMENSIONS) {
        expect(score.dimensions[d]).to.deep.include({
          score: 70,
          grade: 'C',
          insufficient_data: true,
          factors: [],
        });
        expect(score.dimensions[d].weight).to.equal(DIMENSION_WEIGHTS[d]);
      }
    });

    it('has composite 70 (C), LOW confidence and no reason codes', () => {
      expect(score).to.deep.include({ composite_score: 70, grade: 'C', confidence: 'LOW', reason_codes: [] });
    });
  });

  it('weights the composite 25/20/15/15/15/10', () => {
    expect(Object.values(DIMENSION_WEIGHTS).reduce((a, b) => a + b, 0)).to.equal(100);
    // payment_integrity 60 and remediation 100 from signals; the four other dimensions at the prior 70.
    const signals: Signal[] = [
      ...[1, 2, 3].map((n) =>
        makeSignal(day, 'PI01', 'share', 1, TODAY, 'prj_a', [{ kind: 'draw', id: `D${n}` }]),
      ),
      ...[1, 2, 3].map((n) =>
        makeSignal(day, 'RR01', 'share', 0, TODAY, 'prj_a', [{ kind: 'finding', id: `F${n}` }]),
      ),
    ];
    const score = scoreSignals(signals);
    expect(score.dimensions.payment_integrity.score).to.equal(60);
    expect(score.dimensions.remediation_responsiveness.score).to.equal(100);
    // 0.25 × 60 + 0.10 × 100 + 0.65 × 70
    expect(score.composite_score).to.equal(70.5);
  });

  it('grades A ≥ 90, B ≥ 80, C ≥ 65, D ≥ 50, F below', () => {
    expect([90, 89.9, 80, 79.9, 65, 64.9, 50, 49.9, 0].map(gradeFor)).to.deep.equal([
      'A',
      'B',
      'B',
      'C',
      'C',
      'D',
      'D',
      'F',
      'F',
    ]);
  });

  it('needs 3 signals for a dimension: 2 keep the prior', () => {
    const two = [1, 2].map((n) =>
      makeSignal(day, 'SR01', 'points', 25, TODAY, null, [{ kind: 'observation', id: `O${n}` }]),
    );
    expect(scoreSignals(two).dimensions.safety_record).to.include({ score: 70, insufficient_data: true });
    const three = [
      ...two,
      makeSignal(day, 'SR01', 'points', 25, TODAY, null, [{ kind: 'observation', id: 'O3' }]),
    ];
    expect(scoreSignals(three).dimensions.safety_record).to.include({ score: 25, insufficient_data: false });
  });

  it('scores a dimension as 100 plus its factor impacts as printed, so the report adds up', () => {
    // SR01 costs 12.24 points (printed −12.2) and SR03 5.24 (printed −5.2): 100 − 17.48 rounds to
    // 82.5, but a reader of the report adds 100 − 12.2 − 5.2 = 82.6, and that is the score.
    const signals = [
      ...[1, 2, 3].map((n) =>
        makeSignal(day, 'SR01', 'points', 4.08, TODAY, null, [{ kind: 'observation', id: `O${n}` }]),
      ),
      makeSignal(day, 'SR03', 'points', 5.24, TODAY, null, [{ kind: 'observation', id: 'O4' }]),
    ];
    const safety = scoreSignals(signals).dimensions.safety_record;
    expect(safety.factors.map((f) => [f.code, f.impact])).to.deep.equal([
      ['SR01', -12.2],
      ['SR03', -5.2],
    ]);
    expect(safety.score).to.equal(82.6);
    // The composite is the weighted mean of the printed dimension scores: 0.15 × 82.6 + 0.85 × 70.
    expect(scoreSignals(signals).composite_score).to.equal(71.9);
  });

  describe('confidence', () => {
    const on = (project: string, n: number) =>
      makeSignal(day, 'RR01', 'share', 0, TODAY, project, [{ kind: 'finding', id: `F${project}${n}` }]);
    const many = (count: number, projects: string[]) =>
      Array.from({ length: count }, (_, i) => on(projects[i % projects.length]!, i));

    it('is HIGH with 20 signals across 2 projects', () =>
      expect(confidenceOf(many(20, ['a', 'b']))).to.equal('HIGH'));
    it('is MEDIUM with 20 signals on one project', () =>
      expect(confidenceOf(many(20, ['a']))).to.equal('MEDIUM'));
    it('is MEDIUM with 19 signals across 2 projects', () =>
      expect(confidenceOf(many(19, ['a', 'b']))).to.equal('MEDIUM'));
    it('is MEDIUM with 5 signals', () => expect(confidenceOf(many(5, ['a']))).to.equal('MEDIUM'));
    it('is LOW with 4 signals', () => expect(confidenceOf(many(4, ['a', 'b']))).to.equal('LOW'));
    it('shows in the report what it was judged on: the signal count and the distinct projects', () => {
      const score = scoreSignals(many(20, ['a']));
      expect(score.confidence).to.equal('MEDIUM');
      expect(score.confidence_basis).to.deep.equal({ signals: 20, projects: 1 });
      const signals = Object.values(score.dimensions).reduce((n, d) => n + d.signals, 0);
      expect(signals).to.equal(score.confidence_basis.signals);
    });
  });

  describe('reason codes', () => {
    it('lists at most the 4 factors costing the composite most, most adverse first, with stable codes', () => {
      const three = (code: Signal['code'], unit: Signal['unit'], value: number) =>
        [1, 2, 3].map((n) =>
          makeSignal(day, code, unit, value, TODAY, 'prj_a', [{ kind: 'x', id: `${code}${n}` }]),
        );
      const signals = [
        ...three('PI01', 'share', 1), // −40 × 25 % = −10
        ...three('DA03', 'share', 1), // −40 × 20 % = −8
        ...three('SR01', 'points', 2), // −6 × 15 % = −0.9
        ...three('SP01', 'share', 0.5), // −20 × 15 % = −3
        ...three('RR01', 'share', 1), // −50 × 10 % = −5
        ...three('CS04', 'points', 4), // −12 × 15 % = −1.8
      ];
      const { reason_codes } = scoreSignals(signals);
      expect(reason_codes).to.deep.equal([
        { code: 'PI01', description: 'Unconditional waivers delivered late or missing' },
        { code: 'DA03', description: 'Invoices billed twice' },
        { code: 'RR01', description: 'Findings left uncured' },
        { code: 'SP01', description: 'Milestones completed late' },
      ]);
    });

    it('publishes one entry per code, each naming its dimension, description and action', () => {
      expect(REASON_CODES).to.have.length(17);
      for (const code of REASON_CODES) {
        expect(FACTORS[code].code).to.equal(code);
        expect(code.slice(0, 2)).to.equal(
          {
            payment_integrity: 'PI',
            draw_accuracy: 'DA',
            compliance_standing: 'CS',
            safety_record: 'SR',
            schedule_performance: 'SP',
            remediation_responsiveness: 'RR',
          }[FACTORS[code].dimension],
        );
        expect(FACTORS[code].description).to.not.equal('');
        expect(FACTORS[code].action).to.not.equal('');
      }
    });
  });

  describe('given an excluded entity with an otherwise spotless record', () => {
    function spotless(): World {
      const w = new World();
      fundedWithWaivers(w, w.project('prj_a'), ['2026-04-26', '2026-04-26', '2026-04-26'], '2026-05-01');
      return w;
    }

    it('caps the composite at 49 (F) and leads the reason codes with CS02', () => {
      const w = spotless();
      expect(scoreEntity(w.facts(), NOW).composite_score).to.be.greaterThan(80);
      w.registry = { ...w.registry, exclusions: 'excluded', exclusion_active_since: '2026-02-01' };
      const score = scoreEntity(w.facts(), NOW);
      expect(score).to.deep.include({ composite_score: 49, grade: 'F' });
      expect(score.reason_codes[0]).to.deep.equal({ code: 'CS02', description: 'Active federal exclusion' });
    });
  });

  describe('protected attributes are not inputs', () => {
    it('rejects business types at compile time', () => {
      const facts = new World().facts();
      // @ts-expect-error SAM business types must not reach scoring (DOMAIN §5)
      const withTypes: EntityFacts = { ...facts, business_types: ['A2', 'OY'] };
      expect(withTypes.entity_id).to.equal(GC);
    });

    it('gives the same signals and score whatever business types ride along at runtime', () => {
      const w = new World();
      const p = w.project('prj_a');
      w.observe<OshaCitation>({
        id: 'OBS-1',
        kind: 'osha_citation',
        project_id: p.id,
        entity_id: GC,
        observed_on: TODAY,
        activity_nr: '1',
        type: 'S',
        penalty: 0,
        abate_by: '2026-07-01',
        abated_on: null,
      });
      const base = w.facts();
      const as = (types: string[]) => ({ ...base, business_types: types }) as unknown as EntityFacts;
      const a = scoreEntity(as(['A2', '8W', 'OY', 'A5']), NOW);
      const b = scoreEntity(as(['2X']), NOW);
      expect(a).to.deep.equal(b);
      expect(a).to.deep.equal(scoreEntity(base, NOW));
      expect(gatherSignals(as(['QF']), NOW)).to.deep.equal(gatherSignals(base, NOW));
    });
  });
});
