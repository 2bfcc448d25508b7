/**
 * Deliberate problems in the documents around the applications and the project (DOMAIN §2 lien
 * waivers and stored materials, §3 insurance, waiver sequence, inspection freshness, title
 * date-down). Dates are relative to `today`, so the rule fires on the demo's "now" whatever it is.
 */
import type { CoverageType } from '../projects/facts.js';
import { addDays, maxDate } from './calendar.js';
import type { Problem, ProjectModel } from './model.js';
import { cents, latestDraw, previousDraw } from './model.js';

/** Gives the first certificate of each listed coverage this term and drops its renewals. */
function setTerm(
  m: ProjectModel,
  types: readonly CoverageType[],
  effective_on: string,
  expires_on: string,
): void {
  const seen = new Set<CoverageType>();
  m.certificates = m.certificates.flatMap((c) => {
    if (!types.includes(c.coverage_type)) return [c];
    if (seen.has(c.coverage_type)) return [];
    seen.add(c.coverage_type);
    return [{ ...c, effective_on, expires_on }];
  });
}

/** INSURANCE_EXPIRY (WARNING ×3): the GC's GL, workers' comp and auto policies all end in 20 days, no renewal on file. */
export const EXPIRING_IN_DAYS = 20;
export const insuranceExpiring: Problem = {
  tweak(m, { today }) {
    setTerm(
      m,
      ['GL', 'WORKERS_COMP', 'AUTO'],
      addDays(today, EXPIRING_IN_DAYS - 365),
      addDays(today, EXPIRING_IN_DAYS),
    );
  },
};

/**
 * INSURANCE_EXPIRY (BLOCKING): builder's risk lapsed a few days ago and was not renewed. It still
 * ran more than 30 days past the previous application's review, so that one was funded clean.
 */
export const insuranceLapsed: Problem = {
  tweak(m, { today }) {
    const lapse = maxDate(addDays(today, -5), addDays(previousDraw(m).review_on, 31));
    if (lapse >= today) throw new Error(`${m.ref}: no room for a lapse before today`);
    setTerm(m, ['BUILDERS_RISK'], addDays(m.start_date, -20), lapse);
  },
};

/** INSURANCE_EXPIRY (BLOCKING): GL written at $500,000 against a $2,000,000 requirement, and no umbrella at all. */
export const UNDERINSURED_GL_LIMIT = cents(500_000);
export const insuranceShort: Problem = {
  tweak(m) {
    m.certificates = m.certificates
      .filter((c) => c.coverage_type !== 'UMBRELLA')
      .map((c) => (c.coverage_type === 'GL' ? { ...c, limit: UNDERINSURED_GL_LIMIT } : c));
  },
};

/**
 * LIEN_WAIVER_MISMATCH (WARNING ×3) on the latest application: the GC's conditional waiver
 * carves out an exception; the first subcontractor's waiver is $1,850 short of what the
 * application requests for it; another subcontractor hands in a final waiver at a fraction of
 * completion.
 */
export const WAIVER_SHORTFALL = cents(1_850);
export const lienWaiverWarnings: Problem = {
  tweak(m) {
    const d = latestDraw(m);
    const [gcWaiver, subWaiver, otherSub] = d.waivers;
    if (!gcWaiver || !subWaiver || !otherSub)
      throw new Error(`${m.ref}: expected GC and two subcontractor waivers`);
    gcWaiver.exceptions = [
      {
        description: 'Retention of $12,500 pending resolution of disputed change work (PCO-14)',
        amount: cents(12_500),
      },
    ];
    subWaiver.amount -= WAIVER_SHORTFALL;
    d.waivers.push({ ...otherSub, waiver_type: 'CONDITIONAL_FINAL' });
  },
};

/**
 * WAIVER_SEQUENCE (WARNING, after funding): the GC's unconditional waiver for the previous payment
 * only runs through ten days before that period's end.
 */
export const waiverShortThrough: Problem = {
  tweak(m) {
    const p = previousDraw(m);
    const gc = p.unconditional[0];
    if (!gc) throw new Error(`${m.ref}: the previous application is not funded`);
    gc.through_date = addDays(p.period_to, -10);
  },
};

/**
 * WAIVER_SEQUENCE (WARNING ×2, sent today): with the latest application the GC delivers an
 * unconditional waiver for it — signed before any payment — through a date before its period end.
 */
export const unconditionalBeforePayment: Problem = {
  tweak(m) {
    const d = latestDraw(m);
    d.waivers.push({
      claimant: m.scenario.gc,
      waiver_type: 'UNCONDITIONAL_PROGRESS',
      amount: d.requested_amount,
      through_date: addDays(d.period_to, -5),
      signed_on: addDays(d.submitted_on, 2),
      exceptions: [],
      recorded_on: addDays(d.submitted_on, 2),
      after_funding: false,
    });
  },
};

/** LIEN_WAIVER_MISMATCH (BLOCKING once funded): nobody delivers an unconditional waiver for the previous payment. */
export const missingUnconditional: Problem = {
  tweak(m) {
    previousDraw(m).unconditional = [];
  },
};

/** INSPECTION_FRESHNESS (BLOCKING): nobody inspected after the latest period ended. */
export const noInspection: Problem = {
  tweak(m) {
    latestDraw(m).inspection = null;
  },
};

/**
 * INSPECTION_FRESHNESS (WARNING): the stalled job's only inspection after its latest period is
 * two days past the period end, long over 30 days old on `today`.
 */
export const staleInspection: Problem = {
  tweak(m) {
    const d = latestDraw(m);
    const inspected_on = addDays(d.period_to, 2);
    d.inspection = { ...d.inspection!, inspected_on, recorded_on: maxDate(inspected_on, d.submitted_on) };
  },
};

/**
 * TITLE_DATE_DOWN (WARNING): after the clean date-down at submission, the latest one is 14 days
 * old on `today`; the GC's conditional waiver also carries an exception (LIEN_WAIVER_MISMATCH
 * WARNING) — WARNINGs only, left open: the WATCH story.
 */
export const STALE_TITLE_DAYS = 14;
export const staleTitleAndException: Problem = {
  tweak(m, { today }) {
    const d = latestDraw(m);
    d.titles = [
      { effective_on: addDays(d.submitted_on, 3), new_liens: [] },
      { effective_on: addDays(today, -STALE_TITLE_DAYS), new_liens: [] },
    ];
    d.waivers[0]!.exceptions = [{ description: 'Disputed winter-conditions charges', amount: cents(8_400) }];
  },
};

/** TITLE_DATE_DOWN (BLOCKING): no date-down since the latest submission. */
export const noTitle: Problem = {
  tweak(m) {
    latestDraw(m).titles = [];
  },
};

/** TITLE_DATE_DOWN (BLOCKING): the date-down shows a $48,200 mechanic's lien by the roofing subcontractor. */
export const LIEN_AMOUNT = cents(48_200);
export const titleLien: Problem = {
  tweak(m) {
    const d = latestDraw(m);
    const roofer = m.sov.find((l) => l.trade === 'roofing')?.sub ?? 'sub.roofing';
    d.titles[0]!.new_liens = [
      {
        claimant_name: 'Gulf Coast Roofing & Sheet Metal LLC',
        claimant: roofer,
        amount: LIEN_AMOUNT,
        recorded_on: addDays(d.submitted_on, -2),
      },
    ];
  },
};

/**
 * STORED_MATERIALS_UNSUPPORTED (BLOCKING ×2): the latest application bills stored materials on
 * lines 3 and 4 (45 % of their period's work); line 3's bill of sale is uninsured, line 4 has none.
 */
export const STORED_LINES = [3, 4] as const;
export const storedMaterialsUnsupported: Problem = {
  shape(m) {
    for (const line of STORED_LINES) latestDraw(m).stored_share[line] = 0.45;
  },
  tweak(m) {
    const d = latestDraw(m);
    d.bills_of_sale = d.bills_of_sale
      .filter((b) => b.line === STORED_LINES[0])
      .map((b) => ({ ...b, vendor: 'sup.racking', insured: false }));
  },
};

/** A clean stored-materials case: insured bill of sale and an on-time delivery record (the happy path). */
export const storedMaterialsSupported: Problem = {
  shape(m) {
    latestDraw(m).stored_share[2] = 0.3;
  },
};

/**
 * A finding opened and cured (remediation RESPONSIVE): the GC's conditional waiver on the first
 * application is $500 short at the review, and a corrected one arrives the next day, before the
 * re-scan and the payment.
 */
export const curedWaiver: Problem = {
  tweak(m) {
    const d = m.draws[0]!;
    const gc = d.waivers[0]!;
    d.waivers.splice(0, 1, { ...gc, amount: gc.amount - cents(500) });
    d.waivers.push({ ...gc, signed_on: d.funded_on, recorded_on: d.funded_on });
  },
};
