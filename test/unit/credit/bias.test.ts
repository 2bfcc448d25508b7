import { expect } from 'chai';
import {
  biasAnalysis,
  biasGroupsOf,
  gradeFor,
  standardizedMeanDifference,
  type BiasSubject,
} from '../../../src/credit/index.js';

function subject(id: string, score: number, types: string[]): BiasSubject {
  return { entity_id: id, business_types: types, composite_score: score, grade: gradeFor(score) };
}

describe('bias analysis (DOMAIN §7)', () => {
  // Woman-owned (A2/8W): 90 A, 85 B, 70 C, 60 D, 50 F → mean 71, A/B share 0.4.
  // Others (2X):         95 A, 88 B, 82 B, 75 C, 60 D → mean 80, A/B share 0.6.
  // AIR = 0.4 / 0.6 = 0.667 (< 0.8, flagged).
  // Sample variances: group 1120 / 4 = 280, others 718 / 4 = 179.5; pooled SD = √(1838 / 8) = 15.158;
  // SMD = (71 − 80) / 15.158 = −0.594.
  const subjects = [
    subject('w1', 90, ['A2']),
    subject('w2', 85, ['8W']),
    subject('w3', 70, ['A2', '2X']),
    subject('w4', 60, ['A2']),
    subject('w5', 50, ['8W']),
    subject('o1', 95, ['2X']),
    subject('o2', 88, ['2X']),
    subject('o3', 82, []),
    subject('o4', 75, ['2X', 'LJ']),
    subject('o5', 60, ['2X']),
  ];
  const analysis = biasAnalysis(subjects);

  it('reports the woman-owned group against the others with hand-computed figures', () => {
    expect(analysis.groups.find((g) => g.group === 'woman_owned')).to.deep.equal({
      group: 'woman_owned',
      status: 'ANALYZED',
      n: 5,
      reference_n: 5,
      mean: 71,
      reference_mean: 80,
      share_ab: 0.4,
      reference_share_ab: 0.6,
      adverse_impact_ratio: 0.667,
      adverse_impact_flag: true,
      standardized_mean_difference: -0.594,
    });
  });

  it('reports groups under 5 entities as insufficient, without figures', () => {
    const veteran = analysis.groups.find((g) => g.group === 'veteran_owned')!;
    expect(veteran).to.deep.include({
      status: 'INSUFFICIENT',
      n: 0,
      reference_n: 10,
      mean: null,
      adverse_impact_ratio: null,
      adverse_impact_flag: false,
    });
    // 8W puts two entities in small_business: still insufficient.
    expect(analysis.groups.find((g) => g.group === 'small_business')).to.deep.include({
      status: 'INSUFFICIENT',
      n: 2,
    });
  });

  it('does not flag a ratio of 0.8 or more', () => {
    const even = biasAnalysis([
      ...[90, 85, 70, 60, 50].map((s, i) => subject(`m${i}`, s, ['OY'])),
      ...[90, 85, 70, 60, 50].map((s, i) => subject(`o${i}`, s, [])),
    ]).groups.find((g) => g.group === 'minority_owned')!;
    expect(even).to.deep.include({
      adverse_impact_ratio: 1,
      adverse_impact_flag: false,
      standardized_mean_difference: 0,
    });
  });

  it('states that the flags are not inputs, the sample size, and that it is a screen', () => {
    expect(analysis.sample_size).to.equal(10);
    expect(analysis.statements.join(' '))
      .to.match(/not inputs/)
      .and.match(/10 governed entities/)
      .and.match(/screen, not proof/);
  });

  it('maps SAM business type codes to groups, reading an SBA code with its expiry appended', () => {
    expect([...biasGroupsOf(['8W'])].sort()).to.deep.equal(['small_business', 'woman_owned']);
    expect([...biasGroupsOf(['OY', 'QF'])].sort()).to.deep.equal(['minority_owned', 'veteran_owned']);
    expect([...biasGroupsOf(['A620291223'])]).to.deep.equal(['small_business']);
    expect([...biasGroupsOf(['2X', 'LJ'])]).to.deep.equal([]);
  });

  it('has no standardized mean difference when a side has no spread to pool', () => {
    expect(standardizedMeanDifference([70], [70, 80])).to.equal(null);
  });
});
