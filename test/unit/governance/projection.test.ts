/**
 * The `governance` read model beyond findings (ARCHITECTURE §6): compilations, adequacy,
 * simulations, certifications with supersession, notarizations, payments and blocked pushes —
 * and the projection's replay property: folding from scratch equals folding from a JSON snapshot
 * taken at any point.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { EventInput } from '../../../src/platform/ledger/index.js';
import { governanceEvent, drawStream, projectStream } from '../../../src/governance/events.js';
import { toFinding, type Finding } from '../../../src/governance/findings.js';
import { governance, type GovernanceState, type PendingDelivery } from '../../../projections/governance.js';
import { duePayments, nextRetryAt } from '../../../src/payments/outbox.js';
import { isDistressed } from '../../../src/governance/head.js';
import { fold } from '../../support/decider.js';
import { GovernanceLedger, PAYLOAD_HASH, resultOf } from '../../support/governance-ledger.js';
import { on, GC, ELECTRICIAN } from '../../support/governance-fixtures.js';

const artifacts = (kind: string) => [{ kind, hash: PAYLOAD_HASH }];

const compiled = (compilation_id: string, draw_id: string) =>
  governanceEvent('DrawCompiled', drawStream(draw_id), {
    compilation_id,
    draw_id,
    project_id: 'prj_a',
    draw_verdict: 'FUNDABLE',
    verdict_status: 'READY',
    layers_executed: 6,
    compiled_on: '2026-04-15',
    payload_hash: PAYLOAD_HASH,
    artifacts: artifacts('compilation'),
  });

const certified = (certification_id: string, project_id: string, score: number) =>
  governanceEvent('CertificationIssued', projectStream(project_id), {
    certification_id,
    project_id,
    grade: 'B',
    score,
    issued_on: '2026-04-15',
    valid_until: '2026-07-14',
    payload_hash: PAYLOAD_HASH,
    artifacts: artifacts('certification'),
  });

const pushed = (payment_id: string, draw_id: string) =>
  governanceEvent('PaymentPushed', drawStream(draw_id), {
    payment_id,
    draw_id,
    project_id: 'prj_a',
    amount: 49_500_000,
    rail: 'ACH',
    message_id: `MSG-${payment_id}`,
    funded_on: '2026-04-15',
    compilation_id: 'CMP-aaaaaaaaaaaaaaaa',
    draw_verdict: 'FUNDABLE',
    instruction: {
      created_at: '2026-04-15T12:00:00.000Z',
      requested_execution_date: '2026-04-15',
      debtor: { name: 'Lender', account: 'org_a', agent: null },
      creditor: { name: 'GC', account: 'ent_gc', agent: null },
      currency: 'USD',
      end_to_end_id: draw_id,
      remittance_info: `Draw 1 ${draw_id}`,
    },
    payload_hash: PAYLOAD_HASH,
    artifacts: artifacts('payment'),
  });

const blocked = (draw_id: string) =>
  governanceEvent('PaymentPushBlocked', drawStream(draw_id), {
    draw_id,
    project_id: 'prj_a',
    rail: null,
    gates: [{ gate: 'signatures', passed: false, detail: 'Architect has not signed' }],
    compilation_id: 'CMP-bbbbbbbbbbbbbbbb',
    draw_verdict: 'FUNDABLE',
    attempted_on: '2026-04-15',
    payload_hash: PAYLOAD_HASH,
    artifacts: artifacts('payment_blocked'),
  });

const notarized = (notarization_id: string, document_id: string) =>
  governanceEvent('DocumentNotarized', projectStream('prj_a'), {
    notarization_id,
    document_id,
    document_type: 'LIEN_WAIVER',
    project_id: 'prj_a',
    jurisdiction: 'CA',
    notarized_at: '2026-04-15T10:00:00.000Z',
    multi_hash: { sha256: 'b'.repeat(64), sha3_256: 'c'.repeat(64), blake2b_256: 'd'.repeat(64) },
    payload_hash: PAYLOAD_HASH,
    artifacts: artifacts('notarization'),
  });

const graded = { score: 80, grade: 'B' as const };
const assessed = (assessment_id: string, project_id: string) =>
  governanceEvent('AdequacyAssessed', projectStream(project_id), {
    assessment_id,
    project_id,
    overall: graded,
    vector: {
      lender: graded,
      contractor: graded,
      project: graded,
      cashflow: graded,
      compliance: graded,
      risk: graded,
    },
    in_balance: true,
    assessed_on: '2026-04-15',
    payload_hash: PAYLOAD_HASH,
    artifacts: artifacts('adequacy'),
  });

const simulated = (simulation_id: string, draw_id: string) =>
  governanceEvent('DrawSimulated', drawStream(draw_id), {
    simulation_id,
    draw_id,
    project_id: 'prj_a',
    recommendation: 'APPROVE',
    simulated_on: '2026-04-15',
    payload_hash: PAYLOAD_HASH,
    artifacts: artifacts('simulation'),
  });

describe('governance projection', () => {
  it('keeps every compilation and the latest one per draw', () => {
    const ledger = new GovernanceLedger();
    ledger.append([compiled('CMP-1', 'DRW-1'), compiled('CMP-2', 'DRW-1'), compiled('CMP-3', 'DRW-2')]);
    expect(Object.keys(ledger.state.compilations)).to.deep.equal(['CMP-1', 'CMP-2', 'CMP-3']);
    expect(ledger.state.latest_compilation_by_draw).to.deep.equal({ 'DRW-1': 'CMP-2', 'DRW-2': 'CMP-3' });
    expect(ledger.state.compilations['CMP-2']).to.deep.include({ seq: 2, draw_verdict: 'FUNDABLE' });
  });

  it('marks the previous certification of a project superseded by the next (DOMAIN §11)', () => {
    const ledger = new GovernanceLedger();
    ledger.append([
      certified('CERT-1', 'prj_a', 81),
      certified('CERT-x', 'prj_b', 90),
      certified('CERT-2', 'prj_a', 84),
    ]);
    expect(ledger.state.certifications['CERT-1']!.superseded_by).to.equal('CERT-2');
    expect(ledger.state.certifications['CERT-2']!.superseded_by).to.equal(null);
    expect(ledger.state.certifications['CERT-x']!.superseded_by).to.equal(null);
    expect(ledger.state.latest_certification_by_project).to.deep.equal({ prj_a: 'CERT-2', prj_b: 'CERT-x' });
  });

  it('indexes payments and refused pushes by draw, notarizations by document', () => {
    const ledger = new GovernanceLedger();
    ledger.append([blocked('DRW-1'), notarized('NOT-1', 'WAIV-1'), pushed('PAY-1', 'DRW-1')]);
    expect(ledger.state.payments_by_draw).to.deep.equal({ 'DRW-1': ['PAY-1'] });
    expect(ledger.state.payments['PAY-1']).to.deep.include({ amount: 49_500_000, rail: 'ACH', seq: 3 });
    expect(ledger.state.blocked_pushes_by_draw['DRW-1']!.map((b) => b.gates[0]!.gate)).to.deep.equal([
      'signatures',
    ]);
    expect(ledger.state.notarizations_by_document).to.deep.equal({ 'WAIV-1': ['NOT-1'] });
  });

  it('keeps the latest adequacy per project and every simulation', () => {
    const ledger = new GovernanceLedger();
    ledger.append([assessed('ADQ-1', 'prj_a'), assessed('ADQ-2', 'prj_a'), simulated('SIM-1', 'DRW-1')]);
    expect(ledger.state.adequacy_by_project['prj_a']!.assessment_id).to.equal('ADQ-2');
    expect(ledger.state.latest_simulation_by_draw).to.deep.equal({ 'DRW-1': 'SIM-1' });
  });

  it("ignores other capabilities' events", () => {
    const ledger = new GovernanceLedger();
    ledger.append([{ stream: 'project-prj_a', type: 'ProjectRegistered', data: { project_id: 'prj_a' } }]);
    expect(ledger.state).to.deep.equal(governance.init());
  });

  it('does not alias event data: later lifecycle changes leave recorded events untouched', () => {
    const ledger = new GovernanceLedger();
    const finding = toFinding('prj_a', '2026-04-15', draftFor(0));
    const event = ledger.scan(resultOf('prj_a', [finding]), { scan_id: 'SCN-1', now: on('2026-04-15') });
    const before = JSON.stringify(event.data);
    ledger.scan(resultOf('prj_a', []), { scan_id: 'SCN-2', now: on('2026-04-16') });
    expect(JSON.stringify(event.data)).to.equal(before);
    expect(ledger.state.findings[finding.id]!.status).to.equal('RESOLVED');
  });

  describe('replay (property)', () => {
    type Step =
      | { kind: 'scan'; project: number; pool: number[] }
      | { kind: 'resolve'; finding: number; foreign: boolean }
      | { kind: 'certify'; project: number }
      | { kind: 'compile' | 'push' | 'block' | 'simulate'; draw: number }
      | { kind: 'notarize'; doc: number }
      | { kind: 'assess'; project: number }
      | { kind: 'other' };

    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({
        kind: fc.constant('scan' as const),
        project: fc.nat(1),
        pool: fc.uniqueArray(fc.nat(7), { maxLength: 6 }),
      }),
      fc.record({ kind: fc.constant('resolve' as const), finding: fc.nat(15), foreign: fc.boolean() }),
      fc.record({ kind: fc.constant('certify' as const), project: fc.nat(1) }),
      fc.record({
        kind: fc.constantFrom('compile' as const, 'push' as const, 'block' as const, 'simulate' as const),
        draw: fc.nat(2),
      }),
      fc.record({ kind: fc.constant('notarize' as const), doc: fc.nat(2) }),
      fc.record({ kind: fc.constant('assess' as const), project: fc.nat(1) }),
      fc.record({ kind: fc.constant('other' as const) }),
    );

    /** Records the steps through deciders and event builders, as the service would. */
    function record(steps: readonly Step[]): GovernanceLedger {
      const ledger = new GovernanceLedger();
      steps.forEach((s, i) => {
        const project = `prj_${'project' in s ? s.project : 0}`;
        const n = String(i);
        switch (s.kind) {
          case 'scan': {
            const findings = s.pool.map((k) => toFinding(project, '2026-04-15', draftFor(k)));
            ledger.scan(resultOf(project, findings), { scan_id: `SCN-${n}`, now: on('2026-04-15') });
            return;
          }
          case 'resolve': {
            const id = toFinding(`prj_${s.finding % 2}`, '2026-04-15', draftFor(s.finding >> 1)).id;
            ledger.resolveFinding(id, '2026-04-16', s.foreign ? 'org_other' : undefined);
            return;
          }
          case 'certify':
            ledger.append([certified(`CERT-${n}`, project, 70 + (i % 30))]);
            return;
          case 'compile':
            ledger.append([compiled(`CMP-${n}`, `DRW-${s.draw}`)]);
            return;
          case 'push':
            ledger.append([pushed(`PAY-${n}`, `DRW-${s.draw}`)]);
            return;
          case 'block':
            ledger.append([blocked(`DRW-${s.draw}`)]);
            return;
          case 'simulate':
            ledger.append([simulated(`SIM-${n}`, `DRW-${s.draw}`)]);
            return;
          case 'notarize':
            ledger.append([notarized(`NOT-${n}`, `WAIV-${s.doc}`)]);
            return;
          case 'assess':
            ledger.append([assessed(`ADQ-${n}`, project)]);
            return;
          case 'other': {
            const other: EventInput = { stream: 'entity-ent_x', type: 'EntityRegistered', data: { n: i } };
            ledger.append([other]);
            return;
          }
          default: {
            const unhandled: never = s;
            throw new Error(`unhandled step ${JSON.stringify(unhandled)}`);
          }
        }
      });
      return ledger;
    }

    it('folds from scratch and from a JSON snapshot at any point to the same state', () => {
      fc.assert(
        fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), fc.nat(), (steps, cutAt) => {
          const { events, state } = record(steps);
          const cut = cutAt % (events.length + 1);
          const scratch = fold(governance, events);
          const snapshot = JSON.parse(
            JSON.stringify(fold(governance, events.slice(0, cut))),
          ) as GovernanceState;
          const resumed = fold(governance, events.slice(cut), snapshot);
          expect(resumed).to.deep.equal(scratch);
          expect(JSON.stringify(resumed)).to.equal(JSON.stringify(scratch));
          expect(JSON.stringify(scratch)).to.equal(JSON.stringify(state));
        }),
        { numRuns: 150 },
      );
    });
  });

  /**
   * What the outbox walks (issue 19): the deliveries still PENDING, in the order their payments
   * were recorded, each with when it is next due — held equal to a filter of every delivery after
   * each event of generated histories of pushes, failures (retried or final) and deliveries,
   * redeliveries and events for unknown payments included.
   */
  describe('pending deliveries (property)', () => {
    type Outcome =
      | { kind: 'push'; payment: number }
      | { kind: 'fail'; payment: number; retry: boolean; minutes: number }
      | { kind: 'deliver'; payment: number };
    const outcome: fc.Arbitrary<Outcome> = fc.oneof(
      fc.record({ kind: fc.constant('push' as const), payment: fc.nat(5) }),
      fc.record({
        kind: fc.constant('fail' as const),
        payment: fc.nat(6),
        retry: fc.boolean(),
        minutes: fc.nat(600),
      }),
      fc.record({ kind: fc.constant('deliver' as const), payment: fc.nat(6) }),
    );
    const at = (minutes: number) => new Date(Date.UTC(2026, 3, 15, 12, minutes)).toISOString();
    const eventOf = (o: Outcome, i: number) => {
      const payment_id = `PAY-${o.payment}`;
      const base = { payment_id, draw_id: 'DRW-1', message_id: `MSG-${payment_id}`, attempt: i + 1 };
      if (o.kind === 'push') return pushed(payment_id, 'DRW-1');
      if (o.kind === 'deliver')
        return governanceEvent('PaymentInstructionDelivered', drawStream('DRW-1'), {
          ...base,
          location: `/rail/${payment_id}.xml`,
          sha256: 'e'.repeat(64),
          delivered_at: at(i),
        });
      return governanceEvent('PaymentInstructionFailed', drawStream('DRW-1'), {
        ...base,
        error: 'rail down',
        failed_at: at(i),
        next_attempt_at: o.retry ? at(o.minutes) : null,
      });
    };

    it('holds exactly the PENDING deliveries, in payment order, with their next attempt', () => {
      fc.assert(
        fc.property(fc.array(outcome, { maxLength: 40 }), (outcomes) => {
          const ledger = new GovernanceLedger();
          outcomes.forEach((o, i) => {
            ledger.append([eventOf(o, i)]);
            const state = ledger.state;
            const expected: [string, PendingDelivery][] = Object.entries(state.deliveries)
              .filter(([, d]) => d.status === 'PENDING')
              .map(([id, d]) => [id, { next_attempt_at: d.next_attempt_at }]);
            expect(Object.entries(state.pending_deliveries)).to.deep.equal(expected);
            const now = new Date(at(300));
            const dueBy = (t: string | null) => t === null || Date.parse(t) <= now.getTime();
            expect(duePayments(state, now)).to.deep.equal(
              expected.filter(([, d]) => dueBy(d.next_attempt_at)).map(([id]) => id),
            );
            const retries = expected.flatMap(([, d]) =>
              d.next_attempt_at === null ? [] : [Date.parse(d.next_attempt_at)],
            );
            expect(nextRetryAt(state)).to.equal(retries.length === 0 ? undefined : Math.min(...retries));
          });
        }),
        { numRuns: 300 },
      );
    });

    it('leaves a delivered or undeliverable payment out, and keeps a retried one with its new time', () => {
      const ledger = new GovernanceLedger();
      ledger.append([pushed('PAY-1', 'DRW-1'), pushed('PAY-2', 'DRW-1'), pushed('PAY-3', 'DRW-1')]);
      ledger.append([eventOf({ kind: 'fail', payment: 1, retry: true, minutes: 5 }, 0)]);
      ledger.append([eventOf({ kind: 'deliver', payment: 2 }, 1)]);
      ledger.append([eventOf({ kind: 'fail', payment: 3, retry: false, minutes: 0 }, 2)]);
      expect(ledger.state.pending_deliveries).to.deep.equal({
        'PAY-1': { next_attempt_at: '2026-04-15T12:05:00.000Z' },
      });
      expect(duePayments(ledger.state, new Date('2026-04-15T12:04:59.999Z'))).to.deep.equal([]);
      expect(duePayments(ledger.state, new Date('2026-04-15T12:05:00.000Z'))).to.deep.equal(['PAY-1']);
      expect(nextRetryAt(ledger.state)).to.equal(Date.parse('2026-04-15T12:05:00.000Z'));
      expect(ledger.state.deliveries['PAY-3']!.status).to.equal('UNDELIVERABLE');
    });

    it('answers the outbox without reading the deliveries (every payment ever made)', () => {
      const ledger = new GovernanceLedger();
      ledger.append([pushed('PAY-1', 'DRW-1'), pushed('PAY-2', 'DRW-1')]);
      ledger.append([eventOf({ kind: 'deliver', payment: 1 }, 0)]);
      const untouchable = new Proxy<GovernanceState['deliveries']>(
        {},
        {
          get: () => expect.fail('read a delivery'),
          ownKeys: () => expect.fail('listed the deliveries'),
        },
      );
      const state = { ...ledger.state, deliveries: untouchable };
      expect(duePayments(state, new Date('2026-04-15T12:00:00.000Z'))).to.deep.equal(['PAY-2']);
      expect(nextRetryAt(state)).to.equal(undefined);
    });
  });

  /**
   * The counterparty rail's "distressed" (DOMAIN §8): a project whose latest recorded scan is
   * BLOCKED — asked per project, so a governance command costs the org's projects, not a walk over
   * every project's latest scan (issue 19: ~3.5 ms a command at 1M events).
   */
  describe('distressed projects (property)', () => {
    const PROJECTS = ['prj_a', 'prj_b', 'prj_c'];
    const ASKED = [...PROJECTS, 'prj_never_scanned', '__proto__', 'constructor', 'hasOwnProperty'];

    it('is true exactly when the project’s latest scan is BLOCKED, after every scan', () => {
      fc.assert(
        fc.property(
          fc.array(fc.record({ project: fc.nat(2), pool: fc.uniqueArray(fc.nat(7), { maxLength: 4 }) }), {
            maxLength: 25,
          }),
          (scans) => {
            const ledger = new GovernanceLedger();
            const latest = new Map<string, string>();
            scans.forEach(({ project, pool }, i) => {
              const project_id = PROJECTS[project]!;
              const day = `2026-04-${String(10 + (i % 19)).padStart(2, '0')}`;
              const result = resultOf(
                project_id,
                pool.map((k) => toFinding(project_id, day, draftFor(k))),
              );
              ledger.scan(result, { scan_id: `SCN-${i}`, now: on(day) });
              latest.set(project_id, result.scan_verdict);
              for (const id of ASKED)
                expect(isDistressed(ledger.state, id), id).to.equal(latest.get(id) === 'BLOCKED');
            });
          },
        ),
        { numRuns: 200 },
      );
    });

    it('answers without listing the latest scans or the scans', () => {
      const ledger = new GovernanceLedger();
      ledger.scan(resultOf('prj_a', [toFinding('prj_a', '2026-04-15', draftFor(0))]), {
        scan_id: 'SCN-1',
        now: on('2026-04-15'),
      });
      ledger.scan(resultOf('prj_b', [toFinding('prj_b', '2026-04-15', draftFor(1))]), {
        scan_id: 'SCN-2',
        now: on('2026-04-15'),
      });
      const unlisted = <T extends object>(record: T, what: string): T =>
        new Proxy(record, { ownKeys: () => expect.fail(`listed ${what}`) });
      const state: GovernanceState = {
        ...ledger.state,
        latest_scan_by_project: unlisted(ledger.state.latest_scan_by_project, 'every project’s latest scan'),
        scans: unlisted(ledger.state.scans, 'every scan'),
      };
      expect(ledger.state.scans['SCN-1']!.scan_verdict).to.equal('BLOCKED');
      expect(ledger.state.scans['SCN-2']!.scan_verdict).to.equal('WARNING');
      expect(['prj_a', 'prj_b', 'prj_c'].map((id) => isDistressed(state, id))).to.deep.equal([
        true,
        false,
        false,
      ]);
    });
  });
});

/** The k-th finding of a fixed pool: alternating severities and codes, two attributed entities. */
function draftFor(k: number): Parameters<typeof toFinding>[2] {
  return {
    code: k % 2 === 0 ? 'INSPECTION_VARIANCE' : 'TITLE_DATE_DOWN',
    severity: k % 3 === 0 ? 'BLOCKING' : 'WARNING',
    draw_id: `DRW-${k % 3}`,
    entity_id: k % 4 === 0 ? ELECTRICIAN : GC,
    subject: `s${k}`,
    title: `finding ${k}`,
    detail: `detail ${k}`,
    evidence: [{ kind: 'draw', id: `DRW-${k % 3}` }],
    curable_by_documents: k % 2 === 0,
  } satisfies Omit<Finding, 'id' | 'category' | 'project_id' | 'detected_on' | 'arose_on'> & {
    subject: string;
  };
}
