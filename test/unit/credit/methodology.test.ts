import { expect } from 'chai';
import {
  BEHAVIORAL_STATES,
  DIMENSION_WEIGHTS,
  EXCLUSION_COMPOSITE_CAP,
  METHODOLOGY,
  REASON_CODES,
  TRANSITION_CAUSES,
} from '../../../src/credit/index.js';

describe('methodology (SPEC §8: printed from the scoring code)', () => {
  it('lists the six dimensions with the weights scoring uses and every reason code once', () => {
    expect(METHODOLOGY.dimensions.map((d) => [d.name, d.weight])).to.deep.equal(
      Object.entries(DIMENSION_WEIGHTS),
    );
    expect(METHODOLOGY.dimensions.flatMap((d) => d.factors.map((f) => f.code))).to.deep.equal([
      ...REASON_CODES,
    ]);
  });

  it('prints the scoring constants and grade floors', () => {
    expect(METHODOLOGY.scoring).to.deep.include({
      recency_half_life_days: 180,
      min_signals_per_dimension: 3,
      neutral_prior_score: 70,
      exclusion_composite_cap: EXCLUSION_COMPOSITE_CAP,
    });
    expect(METHODOLOGY.grades.map((g) => g.min)).to.deep.equal([90, 80, 65, 50, 0]);
  });

  it('describes every state and every transition cause', () => {
    expect(METHODOLOGY.state_machine.states).to.deep.equal(BEHAVIORAL_STATES);
    expect(new Set(METHODOLOGY.state_machine.transitions.map((t) => t.cause))).to.deep.equal(
      new Set(TRANSITION_CAUSES),
    );
  });

  it('is plain JSON, so the page can print it as is', () => {
    expect(JSON.parse(JSON.stringify(METHODOLOGY))).to.deep.equal(METHODOLOGY);
  });
});
