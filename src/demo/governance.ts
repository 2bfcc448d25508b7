/**
 * The `governanceSteps` hook: the requests a lender's review makes at each point of the timeline,
 * against routes other capabilities own (SPEC §4, §6), dated and in order with phase `governance`,
 * so funding, findings' open/resolve dates and score history land where the story needs them:
 *
 * - at each application's review (submission + 5 days): `full_scan` the project, `compile_for_draw`;
 * - at funding (submission + 6 days), applications before the latest: re-scan, notarize the lien
 *   waivers the payment depends on (construction), compile again, accept the draw's conditions
 *   (201, or 409 when it has none), `payment-push` on the profile's preferred rail its PRAL allows
 *   (201 expected) — after which everyone's unconditional waivers follow (`after_funding`);
 * - on `today`: a final scan per project, a compile and a simulation of the application still under
 *   review (neither once every application is funded), a certification per project, P02's
 *   payment push refused by its gate (422 expected);
 * - phase `credit`: lender credit inquiries per GC at −60/−30/0 days (score history for DOMAIN §5
 *   composite drops), not sent by default (steps.ts says why).
 */
import type { PaymentRail, ProfileName } from '../projects/profiles.js';
import { addDays } from './calendar.js';
import type { DrawModel, Problem, ProjectModel } from './model.js';
import { latestDraw } from './model.js';
import type { Json, StepDraft } from './steps.js';
import { ref } from './steps.js';
import { notarialAct } from './duties.js';

/** Governance reads and recordings answer 200 or 201 depending on the route; either is success. */
const RECORDED = [200, 201] as const;

/** The rail each profile pays on first (DOMAIN §12 payment rails). */
export const PAYMENT_RAIL: Readonly<Record<ProfileName, PaymentRail>> = {
  construction: 'ACH',
  treasury: 'Wire',
  insurance: 'ACH',
  government: 'ACH',
  supply_chain: 'SWIFT',
};

export type DatedStep = { date: string; draft: StepDraft };

function gov(
  date: string,
  m: ProjectModel,
  path: string,
  body: Json,
  label: string,
  expect: readonly number[] = RECORDED,
): DatedStep {
  return { date, draft: { phase: 'governance', sender: m.scenario.lender, path, body, label, expect } };
}

const scan = (date: string, m: ProjectModel): DatedStep =>
  gov(date, m, '/api/kernel-core', { action: 'full_scan', project_id: ref(m.ref) }, `${m.ref}: full scan`);

const compile = (date: string, m: ProjectModel, d: DrawModel): DatedStep =>
  gov(
    date,
    m,
    '/api/dependency-graph',
    { action: 'compile_for_draw', project_id: ref(m.ref), draw_id: ref(d.ref) },
    `${d.ref}: compile for draw`,
  );

/** A notarial act (docs/duties.md): the project's notary acknowledges the claimant's signer. */
function notarize(date: string, m: ProjectModel, waiverRef: string, claimant: string): DatedStep {
  const { act, sign } = notarialAct(m, waiverRef, claimant, date);
  const step = gov(
    date,
    m,
    '/api/notarization',
    {
      action: 'notarize',
      document_type: 'LIEN_WAIVER',
      document_id: ref(waiverRef),
      jurisdiction: m.scenario.jurisdiction,
      act,
    },
    `${waiverRef}: notarial act on the lien waiver`,
  );
  return { ...step, draft: { ...step.draft, sign } };
}

/**
 * The review of one application and, when it is to be funded, its payment: on funding day the
 * waivers the payment depends on are notarized (construction profile: this application's and the
 * previous payment's unconditional ones), then a fresh compilation — the gate wants one newer than
 * every fact — then the push.
 */
export function reviewSteps(m: ProjectModel, d: DrawModel, previous: DrawModel | undefined): DatedStep[] {
  const review = [scan(d.review_on, m), compile(d.review_on, m, d)];
  if (!d.fund) return review;
  const waivers: [string, string][] =
    m.scenario.profile === 'construction'
      ? [
          ...d.waivers.map((w, i): [string, string] => [`${d.ref}.w${i}`, w.claimant]),
          ...(previous?.unconditional ?? []).map((w, i): [string, string] => [
            `${previous!.ref}.u${i}`,
            w.claimant,
          ]),
        ]
      : [];
  const push = gov(
    d.funded_on,
    m,
    '/api/payment-push',
    // No rail named: the push takes the profile's preferred rail the draw's PRAL allows
    // (a GC on PROBATION is paid by escrow).
    { draw_id: ref(d.ref) },
    `${d.ref}: payment push`,
    [201],
  );
  // The lender accepts whatever conditions the draw carries at funding (FUNDABLE_WITH_CONDITIONS);
  // a draw with none answers 409 (nothing to accept), which is as good.
  const accept = gov(
    d.funded_on,
    m,
    `/api/draws/${ref(d.ref)}/accept`,
    { reason: 'Conditions reviewed and accepted by the lender at funding' },
    `${d.ref}: accept conditions`,
    [201, 409],
  );
  return [
    ...review,
    // Re-scan first: a document delivered since the review (a corrected waiver) closes its finding.
    scan(d.funded_on, m),
    ...waivers.map(([w, claimant]) => notarize(d.funded_on, m, w, claimant)),
    compile(d.funded_on, m, d),
    accept,
    push,
  ];
}

/**
 * The latest application the lender can still decide: one the timeline does not fund (the demo
 * rejects none). A funded draw answers 409 to a compile or a simulation (both weigh funding it).
 */
export function undecidedDraw(m: ProjectModel): DrawModel | undefined {
  return m.draws.filter((d) => !d.fund).at(-1);
}

/** What the lender runs on `today` for every project; compile and simulation only while a draw is undecided. */
export function finalSteps(m: ProjectModel, today: string): DatedStep[] {
  const open = undecidedDraw(m);
  return [
    scan(today, m),
    ...(open ? [compile(today, m, open)] : []),
    gov(
      today,
      m,
      '/api/certification',
      { action: 'issue', project_id: ref(m.ref) },
      `${m.ref}: certification`,
    ),
    ...(open
      ? [
          gov(
            today,
            m,
            '/api/simulate',
            { action: 'simulate_draw', draw_id: ref(open.ref) },
            `${open.ref}: simulate`,
          ),
        ]
      : []),
  ];
}

/** P02: the lender tries to pay the application with the inspection variance; the gate refuses (422, PaymentPushBlocked). */
export const refusedPaymentPush: Problem = {
  tweak(m, { today }) {
    const d = latestDraw(m);
    m.extra.push(
      gov(
        today,
        m,
        '/api/payment-push',
        { draw_id: ref(d.ref), rail: PAYMENT_RAIL[m.scenario.profile] },
        `${d.ref}: payment push refused by its gate`,
        [422],
      ),
    );
  },
};

/** Credit inquiries per GC (lender credit API, `x-plumbline-api-key`), so score history exists. */
export function creditInquiries(gcs: ReadonlyMap<string, number>, today: string): DatedStep[] {
  return [...gcs.entries()].flatMap(([gc, lender]) =>
    [60, 30, 0].map((ago) => ({
      date: addDays(today, -ago),
      draft: {
        phase: 'credit' as const,
        sender: lender,
        auth: 'lender_api' as const,
        path: '/api/lender-credit?action=score',
        body: { entity: ref(gc) },
        label: `credit score inquiry for ${gc}`,
        expect: [200],
      },
    })),
  );
}
