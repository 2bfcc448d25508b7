/**
 * The paper around each pay application, filed the way a careful lender's file would hold it:
 * invoices for the work billed, conditional waivers from everyone it pays for exactly what it
 * requests for them, an inspection
 * after the period end that agrees with the claimed percentages, a clean title date-down after
 * submission, the profile's three signatures, bills of sale for stored materials and, once paid,
 * everyone's unconditional waivers. Plus the GC's certificates of insurance and milestone dates.
 */
import { PROFILES } from '../projects/profiles.js';
import { addDays, daysFrom, maxDate, minDate } from './calendar.js';
import type { DrawModel, InspectionModel, InvoiceModel, ProjectModel, WaiverModel } from './model.js';
import type { Rng } from './prng.js';
import { ROSTER } from './roster.js';

/** Inspections of the application under review: no older than this on `today` (DOMAIN §3 allows 30). */
const PENDING_INSPECTION_MAX_AGE = 12;
/** Title date-down of the application under review: no older than this on `today` (DOMAIN §3 allows 10). */
const PENDING_TITLE_MAX_AGE = 3;
/** Renew a certificate whose term ends this close to `today` (policies renew ahead of expiry). */
const RENEWAL_HORIZON_DAYS = 45;

/** Per-vendor invoice serials, shared by all projects so a vendor never reuses a number. */
export class InvoiceNumbers {
  readonly #next = new Map<string, number>();
  constructor(private readonly rng: Rng) {}

  next(vendor: string): string {
    const serial = this.#next.get(vendor) ?? this.rng.fork(vendor).int(1000, 8999);
    this.#next.set(vendor, serial + 1);
    return `${prefixOf(vendor)}-${serial}`;
  }
}

/** Initials of the vendor's legal name: "Summit Excavation & Grading LLC" → "SEG". */
function prefixOf(vendor: string): string {
  const name = ROSTER.find((e) => e.key === vendor)?.legal_name ?? vendor;
  const skip = new Set(['LLC', 'INC', 'INC.', 'CO', 'CO.', 'LP', 'PLLC', '&', 'THE']);
  const words = name
    .replace(/,/g, '')
    .split(/\s+/)
    .filter((w) => !skip.has(w.toUpperCase()));
  return words
    .slice(0, 3)
    .map((w) => w[0]!.toUpperCase())
    .join('');
}

function invoicesOf(m: ProjectModel, d: DrawModel, numbers: InvoiceNumbers): InvoiceModel[] {
  return d.lines.flatMap((l, i) => {
    const amount = l.this_period + l.stored_materials + (d.previous_skew[l.line] ?? 0);
    if (amount <= 0) return [];
    const vendor = m.sov[i]!.vendor;
    const number = numbers.next(vendor);
    return [
      {
        ref: `${d.ref}.inv${l.line}`,
        vendor,
        number,
        amount,
        line: l.line,
        recorded_on: addDays(d.submitted_on, -1),
      },
    ];
  });
}

function conditional(claimant: string, amount: number, d: DrawModel): WaiverModel {
  return {
    claimant,
    waiver_type: 'CONDITIONAL_PROGRESS',
    amount,
    through_date: d.period_to,
    signed_on: d.submitted_on,
    exceptions: [],
    recorded_on: d.submitted_on,
    after_funding: false,
  };
}

/**
 * Who this payment pays and how much each is owed (DOMAIN §2 "amount requested for that claimant"):
 * the GC the whole request, each subcontractor billing this period its lines' work net of
 * retainage. GC first, then subcontractors in SOV order — the claimants the payment gate requires
 * waivers from (src/payments/waivers.ts).
 */
export function claimants(m: ProjectModel, d: DrawModel): { claimant: string; amount: number }[] {
  const gross = new Map<string, number>();
  d.lines.forEach((l, i) => {
    const sub = m.sov[i]!.sub;
    const billed = l.this_period + l.stored_materials;
    if (sub !== null && billed > 0) gross.set(sub, (gross.get(sub) ?? 0) + billed);
  });
  return [
    { claimant: m.scenario.gc, amount: d.requested_amount },
    ...[...gross.entries()].map(([claimant, amount]) => ({
      claimant,
      amount: Math.round((amount * (100 - d.retainage_pct)) / 100),
    })),
  ];
}

function billsOfSale(m: ProjectModel, d: DrawModel): DrawModel['bills_of_sale'] {
  return d.lines
    .filter((l) => l.stored_materials > 0)
    .map((l) => ({
      vendor: 'sup.allied',
      line: l.line,
      description: `Materials stored for ${m.sov[l.line - 1]!.description.toLowerCase()}`,
      amount: l.stored_materials,
      insured: true,
    }));
}

/** After the period end; for the application under review, recent enough on `today` too. */
function inspectionOf(d: DrawModel, today: string, rng: Rng): InspectionModel {
  const inspected_on = d.pending
    ? minDate(
        maxDate(addDays(d.period_to, 3), addDays(today, -PENDING_INSPECTION_MAX_AGE)),
        addDays(today, -1),
      )
    : addDays(d.period_to, 3);
  return {
    inspected_on,
    recorded_on: maxDate(inspected_on, d.submitted_on),
    lines: d.lines.map((l, i) => {
      const c = d.scheduled[i]!;
      const claimed = c === 0 ? 0 : (d.completed[i]! * 100) / c;
      // Inspectors round down and see a little less than claimed: well inside the 5-point band.
      const seen = Math.floor(claimed * 10) / 10 - (claimed > 0 ? rng.int(0, 15) / 10 : 0);
      return { line: l.line, percent_complete: Math.min(100, Math.max(0, Math.round(seen * 10) / 10)) };
    }),
  };
}

/** Once funded, every claimant's unconditional waiver for what it was paid, two days after the money. */
function unconditionalOf(m: ProjectModel, d: DrawModel): WaiverModel[] {
  if (!d.fund) return [];
  const signed_on = addDays(d.funded_on, 2);
  return claimants(m, d).map(({ claimant, amount }) => ({
    ...conditional(claimant, amount, d),
    waiver_type: 'UNCONDITIONAL_PROGRESS',
    signed_on,
    recorded_on: signed_on,
    after_funding: true,
  }));
}

function drawDocuments(
  m: ProjectModel,
  d: DrawModel,
  today: string,
  rng: Rng,
  numbers: InvoiceNumbers,
): void {
  d.invoices = invoicesOf(m, d, numbers);
  d.waivers = claimants(m, d).map(({ claimant, amount }) => conditional(claimant, amount, d));
  d.bills_of_sale = billsOfSale(m, d);
  d.inspection = inspectionOf(d, today, rng);
  const titleOn = addDays(d.submitted_on, 3);
  const effective_on = d.pending ? maxDate(titleOn, addDays(today, -PENDING_TITLE_MAX_AGE)) : titleOn;
  d.titles = [{ effective_on, new_liens: [] }];
  d.signatures = PROFILES[m.scenario.profile].certification_chain.map((role, i) => ({
    role,
    signed_on: minDate(addDays(d.submitted_on, 2 * i), today),
  }));
  d.unconditional = unconditionalOf(m, d);
}

/** Annual policies from just before the start, renewed ahead of any expiry that comes near `today`. */
function certificates(m: ProjectModel, today: string): void {
  m.certificates = m.required.flatMap((req) => {
    const effective_on = addDays(m.start_date, -20);
    const expires_on = addDays(effective_on, 364);
    const first = {
      coverage_type: req.type,
      limit: req.min_limit,
      effective_on,
      expires_on,
      recorded_on: addDays(m.start_date, -14),
    };
    if (daysFrom(today, expires_on) > RENEWAL_HORIZON_DAYS) return [first];
    const renewal_on = addDays(expires_on, 1);
    return [
      first,
      {
        ...first,
        effective_on: renewal_on,
        expires_on: addDays(renewal_on, 364),
        recorded_on: minDate(addDays(expires_on, -20), addDays(today, -1)),
      },
    ];
  });
}

/** A milestone is reached when actual progress gets to its share of the job: late by the pace. */
function milestoneDates(m: ProjectModel, today: string): void {
  for (const ms of m.milestones) {
    const plannedDay = daysFrom(m.start_date, ms.due_on);
    const reached = addDays(m.start_date, Math.round(plannedDay / m.scenario.pace));
    ms.completed_on = reached < today ? reached : null;
  }
}

export function buildDocuments(m: ProjectModel, today: string, rng: Rng, numbers: InvoiceNumbers): void {
  for (const d of m.draws) drawDocuments(m, d, today, rng.fork(d.ref), numbers);
  certificates(m, today);
  milestoneDates(m, today);
}
