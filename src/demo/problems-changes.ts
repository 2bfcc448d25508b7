/**
 * Deliberate change-order problems (DOMAIN §2 CONTRACT_SUM_MISMATCH, §3 CHANGE_ORDER_PRECEDENCE,
 * §8 MARKET change-order velocity). Dated inside the latest period or relative to `today`, after
 * the previous application's review, so earlier applications stay fundable.
 */
import { addDays, monthStart } from './calendar.js';
import type { ChangeOrderModel, Problem, ProjectModel } from './model.js';
import { cents, latestDraw } from './model.js';
import { ref } from './steps.js';

interface ChangeOrderSpec {
  amount: number;
  deltas: { line: number; delta: number }[];
  description: string;
  executed_on: string | null;
  lender_approved_on: string | null;
  work_started_on: string | null;
  recorded_on: string;
}

function addChangeOrder(m: ProjectModel, spec: ChangeOrderSpec): ChangeOrderModel {
  const n = m.change_orders.length + 1;
  const co = { ref: `${m.ref}.co${n}`, number: `CO-${String(n).padStart(3, '0')}`, ...spec };
  m.change_orders.push(co);
  return co;
}

const single = (line: number, amount: number) => ({ amount, deltas: [{ line, delta: amount }] });

/**
 * CHANGE_ORDER_PRECEDENCE, every variant, and MARKET velocity:
 * - CO-001 ($32,400) executed nine days after its work started (WARNING), resolved explicitly;
 * - CO-002 ($85,000 ≥ $50,000) executed but never lender-approved, billed in full on the latest
 *   application (BLOCKING);
 * - CO-003 ($320,000 rock excavation) executed and approved: with CO-002 it adds > 6 % of the
 *   contract within 90 days, > 2 % a month (MARKET_CO_VELOCITY);
 * - CO-004 ($18,000) not executed, yet half of it billed on line 3 (BLOCKING).
 */
export const changeOrderPrecedence: Problem = {
  shape(m, { today }) {
    const may = monthStart(latestDraw(m).month);
    addChangeOrder(m, {
      ...single(1, cents(32_400)),
      description: 'Storm drainage inlets added at the bus loop (field directive FD-07)',
      work_started_on: addDays(today, -100),
      executed_on: addDays(today, -91),
      lender_approved_on: addDays(today, -89),
      recorded_on: addDays(today, -89),
    });
    addChangeOrder(m, {
      ...single(3, cents(85_000)),
      description: 'Covered bus canopy: structural steel and standing-seam roof',
      executed_on: addDays(may, 11),
      lender_approved_on: null,
      work_started_on: addDays(may, 13),
      recorded_on: addDays(may, 11),
    });
    addChangeOrder(m, {
      ...single(2, cents(320_000)),
      description: 'Unforeseen rock excavation and deepened footings at the gymnasium',
      executed_on: addDays(today, -60),
      lender_approved_on: addDays(today, -62),
      work_started_on: addDays(today, -58),
      recorded_on: addDays(today, -60),
    });
    addChangeOrder(m, {
      ...single(3, cents(18_000)),
      description: 'Additional steel lintels at the gymnasium openings',
      executed_on: null,
      lender_approved_on: null,
      work_started_on: addDays(may, 14),
      recorded_on: addDays(may, 15),
    });
    latestDraw(m).overbill[3] = cents(9_000);
  },
  tweak(m, { today }) {
    const co1 = m.change_orders[0]!;
    // A finding is resolved only once governance found it on the lender's project (OWASP API1):
    // the lender's review scans the project, then records the resolution the same day.
    m.extra.push({
      date: addDays(today, -80),
      draft: {
        phase: 'governance',
        sender: m.scenario.lender,
        path: '/api/kernel-core',
        body: { action: 'full_scan', project_id: ref(m.ref) },
        label: `${m.ref}: full scan before resolving CO-001 late execution`,
        expect: [200, 201],
      },
    });
    m.extra.push({
      date: addDays(today, -80),
      draft: {
        phase: 'governance',
        sender: m.scenario.lender,
        path: '/api/findings/{finding}/resolve',
        body: {
          resolution:
            'Owner field directive FD-07 authorized the work in advance; the change order was executed within nine days.',
          resolved_on: addDays(today, -80),
        },
        label: `${m.ref}: resolve CO-001 late execution`,
        finding: {
          project: m.ref,
          code: 'CHANGE_ORDER_PRECEDENCE',
          draw: null,
          subject: `${ref(co1.ref)}:late_execution`,
        },
      },
    });
  },
};

/**
 * CONTRACT_SUM_MISMATCH (BLOCKING ×2):
 * - CO-001 states $120,000 but its line deltas add to $112,000 (project level);
 * - CO-002 ($26,500), executed inside the latest period, is recorded only after that application
 *   was submitted, so its column C lacks the change (draw level).
 */
export const contractSumMismatch: Problem = {
  shape(m, { today }) {
    const may = monthStart(latestDraw(m).month);
    addChangeOrder(m, {
      amount: cents(120_000),
      deltas: [
        { line: 3, delta: cents(80_000) },
        { line: 5, delta: cents(32_000) },
      ],
      description: 'Second utility feed: switchgear lineup and duct bank extension',
      executed_on: addDays(may, 11),
      lender_approved_on: addDays(may, 10),
      work_started_on: addDays(may, 13),
      recorded_on: addDays(may, 11),
    });
    addChangeOrder(m, {
      ...single(6, cents(26_500)),
      description: 'Security fencing upgrade to K12 crash rating at the substation yard',
      executed_on: addDays(may, 19),
      lender_approved_on: addDays(may, 19),
      work_started_on: addDays(may, 21),
      recorded_on: addDays(today, -4),
    });
  },
};

/** A clean change order: small, approved and executed before its work started (the happy path). */
export const cleanChangeOrder: Problem = {
  shape(m) {
    const first = m.draws[0]!;
    addChangeOrder(m, {
      ...single(1, cents(38_500)),
      description: 'Owner-requested EV charging conduit stub-outs in the parking area',
      executed_on: addDays(first.period_from, 3),
      lender_approved_on: addDays(first.period_from, 2),
      work_started_on: addDays(first.period_from, 6),
      recorded_on: addDays(first.period_from, 3),
    });
  },
};
