/**
 * Comparing a ratio of two decimal facts with a DOMAIN §8 limit. Facts arrive as binary floating
 * point, so a figure typed exactly at the limit can land a few ulps above it (index 1.1 over a
 * baseline of 1 is +10.000000000000009 %, 5.4 hours over a 4.5-hour interval is 1.2000000000000002 ×):
 * the ratio is rounded to RATIO_DECIMALS places before it is compared, so "more than" means more
 * than the figures say, not more than their binary approximations.
 */

/** Decimal places a ratio keeps before it meets its limit (far below any figure a fact carries). */
export const RATIO_DECIMALS = 9;

const SCALE = 10 ** RATIO_DECIMALS;

/** `ratio` rounded to RATIO_DECIMALS places. */
export function settled(ratio: number): number {
  return Math.round(ratio * SCALE) / SCALE;
}

/** Whether `ratio` is above `limit` once settled (at the limit is not above it). */
export function exceeds(ratio: number, limit: number): boolean {
  return settled(ratio) > limit;
}
