/**
 * remediation_responsiveness (DOMAIN §5, weight 10): share of findings cured, days to cure.
 *
 * Score = 100 − RR01 − RR02, clamped to 0–100, where
 * - RR01 = 50 × weighted share of the findings attributed to it that are still open;
 * - RR02 = 30 × weighted mean over cured findings of clamp((days to cure − 14) / 46, 0, 1).
 * Each cure's contribution is clamped, so one very slow cure cannot dominate: the robustness the
 * DOMAIN's "median days to cure" asks for, in a form that decomposes into per-signal weights.
 */
import { CURE_FULLY_SLOW_DAYS, CURE_ON_TIME_DAYS } from '../constants.js';
import { clamp, daysBetween } from '../dates.js';
import { resolvedBy } from '../inputs.js';
import { makeSignal, type Signal, type SignalContext } from '../signals.js';

/** Adverse share of a cure that took `days`. */
export function slowCureShare(days: number): number {
  return clamp((days - CURE_ON_TIME_DAYS) / (CURE_FULLY_SLOW_DAYS - CURE_ON_TIME_DAYS), 0, 1);
}

export function remediationResponsivenessSignals(ctx: SignalContext): Signal[] {
  const out: Signal[] = [];
  for (const f of ctx.findings) {
    const evidence = [{ kind: 'finding', id: f.id }];
    const cured = resolvedBy(f, ctx.today);
    out.push(makeSignal(ctx, 'RR01', 'share', cured ? 0 : 1, f.opened_on, f.project_id, evidence));
    if (cured && f.resolved_on !== null) {
      const share = slowCureShare(daysBetween(f.opened_on, f.resolved_on));
      out.push(makeSignal(ctx, 'RR02', 'share', share, f.resolved_on, f.project_id, evidence));
    }
  }
  return out;
}
