import { expect } from 'chai';
import { summarizeTrace } from '../../../bench/lib/thread-trace.js';

/**
 * `npm run bench -- --only read --trace` summarizes what held the service's thread during the
 * `score` load from the lines the service child wrote (bench/lib/thread-trace.ts).
 */
describe('bench: what held the service thread (--trace)', () => {
  const lines = [
    'flush 999.0 500.00', // before the window: not counted
    'gap 1000.0 30.00',
    'flush 1010.0 20.00', // inside that gap
    'flush 2000.0 10.00',
    'gap 2500.0 40.00', // no flush in it
    'flush 3000.0 70.00',
    'gap 2999.0 80.00',
    'flush 4000.0 30.00',
    'gc 2510.0 25.00 major', // inside the gap at 2500
    'gc 4500.0 12.00 minor', // in no gap
    'gc 9100.0 50.00 major', // after the window
    'noise line',
    'gap 9000.0 99.00', // after the window
    '',
  ].join('\n');

  it('counts flushes, long collections and loop gaps of the window, and which gaps a flush or a collection began in', () => {
    expect(summarizeTrace(lines, 1000, 5000)).to.deep.equal({
      flushes: 4,
      flush_median_ms: 30,
      flush_p90_ms: 70,
      flush_max_ms: 70,
      gaps: 3,
      gaps_with_a_flush: 2,
      gaps_with_a_gc: 1,
      long_gcs: 2,
      long_gc_ms: 37,
      longest_gaps_ms: [80, 40, 30],
    });
  });

  it('answers zeros for a window with nothing in it', () => {
    expect(summarizeTrace(lines, 5000, 8000)).to.deep.equal({
      flushes: 0,
      flush_median_ms: 0,
      flush_p90_ms: 0,
      flush_max_ms: 0,
      gaps: 0,
      gaps_with_a_flush: 0,
      gaps_with_a_gc: 0,
      long_gcs: 0,
      long_gc_ms: 0,
      longest_gaps_ms: [],
    });
  });
});
