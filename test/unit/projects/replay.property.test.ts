import { expect } from 'chai';
import fc from 'fast-check';
import { observationsProjection } from '../../../projections/observations.js';
import { projectsProjection } from '../../../projections/projects.js';
import { sha256Hex } from '../../../src/platform/crypto/hash.js';
import { idFromUuid } from '../../../src/platform/ids.js';
import { contentJson } from '../../../src/platform/ledger/index.js';
import {
  PROFILE_NAMES,
  SIGNER_ROLES,
  type ProjectsCommand,
  type ProjectsState,
} from '../../../src/projects/index.js';
import { fold, sealGiven } from '../../support/decider.js';
import {
  changeOrderBody,
  drawBody,
  History,
  invoiceBody,
  observationBody,
  ORG_A,
  ORG_B,
  projectBody,
  signBody,
  uuid,
  waiverBody,
} from './fixtures.js';

const ORGS = [ORG_A, ORG_B];
type Op = { org: number; pick: number; n: number; cross: boolean } & (
  | { op: 'register'; profile: number }
  | { op: 'co' | 'invoice' | 'waiver' | 'draw' | 'sign' | 'obs' | 'resolve' }
  | { op: 'gov'; kind: 'DrawCompiled' | 'PaymentPushed' | 'DrawRejected' }
);

const opArb: fc.Arbitrary<Op> = fc
  .record({
    org: fc.integer({ min: 0, max: 1 }),
    pick: fc.nat(20),
    n: fc.integer({ min: 1, max: 4 }),
    // Mostly the op's own org's facts; sometimes any org's, to exercise the org-scoped rejections.
    cross: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    profile: fc.nat(PROFILE_NAMES.length - 1),
    // Weighted towards the ops a funded draw needs, so histories get deep enough to matter.
    op: fc.constantFrom(
      'register',
      'register',
      'co',
      'invoice',
      'waiver',
      'draw',
      'draw',
      'sign',
      'obs',
      'resolve',
      'gov',
      'gov',
    ),
    kind: fc.constantFrom('DrawCompiled', 'PaymentPushed', 'DrawRejected'),
  } as const)
  .map((r) => r as Op);

const pickFrom = (ids: readonly string[], pick: number): string | undefined =>
  ids[pick % Math.max(ids.length, 1)];

/** Turns an op into a command against whatever the state holds (cross-org picks get rejected). */
function command(s: ProjectsState, op: Op, i: number): ProjectsCommand | null {
  const visible = <T extends { org_id: string; id: string }>(items: T[]) =>
    items.filter((x) => op.cross || x.org_id === ORGS[op.org]).map((x) => x.id);
  const project = pickFrom(visible(Object.values(s.projects)), op.pick);
  const draw = pickFrom(visible(Object.values(s.draws)), op.pick);
  const invoices = visible(Object.values(s.documents).filter((d) => d.type === 'INVOICE'));
  switch (op.op) {
    case 'register':
      return {
        type: 'RegisterProject',
        body: projectBody({ name: `P${i}`, profile: PROFILE_NAMES[op.profile] }),
      };
    case 'co':
      return project
        ? {
            type: 'RecordChangeOrder',
            project_id: project,
            body: changeOrderBody({ number: `CO-${op.n}`, lines: [{ line: op.n, delta: op.pick * 100 }] }),
          }
        : null;
    case 'invoice':
      return project
        ? { type: 'RecordDocument', project_id: project, body: invoiceBody({ number: `I-${i}`, line: op.n }) }
        : null;
    case 'waiver':
      return project && draw ? { type: 'RecordDocument', project_id: project, body: waiverBody(draw) } : null;
    case 'draw':
      if (!project) return null;
      {
        // Usually the next application number; sometimes a repeat, to exercise CONFLICT.
        const next = (s.by_project[project]?.draw_ids.length ?? 0) + 1;
        const application_no = op.pick % 4 === 0 ? op.n : next;
        return {
          type: 'SubmitDraw',
          project_id: project,
          body: drawBody({ application_no, invoices: invoices.slice(0, op.pick % 2) }),
        };
      }
    case 'sign':
      return draw
        ? { type: 'SignDraw', draw_id: draw, body: signBody(SIGNER_ROLES[op.pick % SIGNER_ROLES.length]!) }
        : null;
    case 'obs':
      return project
        ? {
            type: 'RecordObservation',
            body: observationBody({
              kind: 'milestone',
              project_id: project,
              name: 'Foundation complete',
              completed_on: `2026-03-1${op.n}`,
            }),
          }
        : {
            type: 'RecordObservation',
            body: observationBody({
              kind: 'cost_index',
              material: 'steel',
              index: 100 + op.n,
              baseline: 100,
            }),
          };
    case 'resolve':
      return {
        type: 'ResolveFinding',
        finding_id: idFromUuid('FND-', uuid(op.n, 44)),
        body: { resolution: 'cured', resolved_on: '2026-03-01' },
      };
    case 'gov':
      return null;
  }
}

/** Runs the ops through the real decider, keeping what it accepts, plus governance events. */
function history(ops: readonly Op[]): History {
  const h = new History();
  ops.forEach((op, i) => {
    const org = ORGS[op.org]!;
    if (op.op === 'gov') {
      const draws = Object.values(h.state().draws).filter((d) => op.cross || d.org_id === org);
      const draw = pickFrom(
        draws.map((d) => d.id),
        op.pick,
      );
      if (draw) h.governance(org, op.kind, { draw_id: draw, amount: op.pick * 1_000 });
      return;
    }
    const cmd = command(h.state(), op, i);
    if (!cmd) return;
    try {
      h.run(org, cmd);
    } catch {
      // a rejected command leaves no trace, as in the service
    }
  });
  return h;
}

describe('projects and observations projections replay (ARCHITECTURE §6)', () => {
  it('fold from scratch equals fold from a JSON snapshot taken at any point (property)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 40 }), (ops) => {
        const events = sealGiven(history(ops).given);
        for (const projection of [projectsProjection, observationsProjection] as const) {
          const p = projection as typeof projectsProjection;
          const scratch = fold(p, events);
          // Every cut point, not a sampled one: a fact that only misbehaves after a payment shows.
          for (let k = 0; k <= events.length; k += 1) {
            const snapshot = JSON.parse(JSON.stringify(fold(p, events.slice(0, k)))) as ProjectsState;
            const resumed = fold(p, events.slice(k), snapshot);
            expect(resumed).to.deep.equal(scratch);
            expect(JSON.stringify(resumed)).to.equal(JSON.stringify(scratch));
          }
        }
        // Folding must never write into the sealed payloads (the state is mutated in place).
        for (const e of events) expect(sha256Hex(contentJson(e))).to.equal(e.content_hash);
      }),
      { numRuns: 150, seed: 20260315 },
    );
  });

  it('generates histories that reach every fact kind and fund draws (so the property is not vacuous)', () => {
    const types = new Set<string>();
    let funded = 0;
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 10, maxLength: 40 }), (ops) => {
        const h = history(ops);
        for (const e of h.given) types.add(e.type);
        if (Object.values(h.state().draws).some((d) => d.status === 'FUNDED')) funded += 1;
      }),
      { numRuns: 60, seed: 7 },
    );
    expect(funded, 'histories with a funded draw').to.be.greaterThan(10);
    expect([...types].sort()).to.include.members([
      'ChangeOrderRecorded',
      'DocumentRecorded',
      'DrawSigned',
      'DrawSubmitted',
      'FindingResolved',
      'ObservationRecorded',
      'PaymentPushed',
      'ProjectRegistered',
    ]);
  });
});
