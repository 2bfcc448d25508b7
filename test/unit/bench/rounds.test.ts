import { expect } from 'chai';
import { median, medianRound, roundOrder } from '../../../bench/lib/rounds.js';

describe('bench: alternated rounds', () => {
  it('takes the median of odd and even counts, whatever the order', () => {
    expect(median([3, 1, 2])).to.equal(2);
    expect(median([10, 40, 20, 30])).to.equal(25);
    expect(median([7])).to.equal(7);
    expect(() => median([])).to.throw(RangeError);
  });

  it('picks the whole round with the median throughput, the lower middle for an even count', () => {
    const rounds = [
      { requests_per_second: 900, p99_ms: 80 },
      { requests_per_second: 1500, p99_ms: 60 },
      { requests_per_second: 1200, p99_ms: 70 },
    ];
    expect(medianRound(rounds)).to.equal(rounds[2]);
    expect(medianRound(rounds.slice(0, 2))).to.equal(rounds[0]);
    expect(() => medianRound([])).to.throw(RangeError);
  });

  it('rotates the order each round, so every server is first once in as many rounds', () => {
    const names = ['express', 'score', 'usage'] as const;
    const orders = [0, 1, 2, 3].map((r) => roundOrder(names, r).join(','));
    expect(orders).to.deep.equal([
      'express,score,usage',
      'score,usage,express',
      'usage,express,score',
      'express,score,usage',
    ]);
  });
});
