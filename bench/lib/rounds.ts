/**
 * Alternated rounds (bench/read.ts): a server and its baseline loaded in turn, round after round,
 * so a host that speeds up or slows down during a run — bare Express moved 3,313–4,858 req/s within
 * 20 minutes on one host — weighs on both alike. Each round's ratio is taken between its own
 * measurements, and the run reports the median round and the median ratio.
 */

/** The median of `values` (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('the median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The round with the median throughput (the lower middle for an even count), whole. */
export function medianRound<T extends { requests_per_second: number }>(rounds: readonly T[]): T {
  if (rounds.length === 0) throw new RangeError('the median of no rounds');
  const sorted = [...rounds].sort((a, b) => a.requests_per_second - b.requests_per_second);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * The order in which round `round` loads `names`: rotated by one each round, so no server is
 * always measured first (right after the one before it has heated the machine) or last.
 */
export function roundOrder<N>(names: readonly N[], round: number): N[] {
  const shift = round % names.length;
  return [...names.slice(shift), ...names.slice(0, shift)];
}
