/** The value at quantile `q` (0–1) of ascending `sorted` values: the one at ⌊q·n⌋, the last for q = 1; 0 when empty. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
