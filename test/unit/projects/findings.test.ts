import { expect } from 'chai';
import { projectsProjection } from '../../../projections/projects.js';
import { idFromUuid } from '../../../src/platform/ids.js';
import { decide, getResolution, ResolveFindingBody } from '../../../src/projects/index.js';
import { deciderSpec } from '../../support/decider.js';
import { ctx, invoiceBody, ORG_A, ORG_B, projectHistory, uuid } from './fixtures.js';

const spec = deciderSpec(projectsProjection, decide);
const FINDING = idFromUuid('FND-', uuid(1, 44));
const body = (over: Record<string, unknown> = {}) =>
  ResolveFindingBody.parse({
    resolution: 'Unconditional waiver received',
    resolved_on: '2026-03-12',
    ...over,
  });

describe('resolving a finding (SPEC §5 POST /api/findings/:id/resolve)', () => {
  it('records FindingResolved on the finding stream, with its evidence', () => {
    const { h, project } = projectHistory();
    const doc = h.run(ORG_A, { type: 'RecordDocument', project_id: project, body: invoiceBody() });
    spec
      .given(h.given)
      .when(
        { type: 'ResolveFinding', finding_id: FINDING, body: body({ evidence_document_id: doc }) },
        ctx(ORG_A, 9),
      )
      .then([
        {
          id: uuid(9, 5),
          stream: `finding-${FINDING}`,
          type: 'FindingResolved',
          schema: 1,
          data: {
            finding_id: FINDING,
            resolution: 'Unconditional waiver received',
            resolved_on: '2026-03-12',
            evidence_document_id: doc,
            // What was resolved: the finding as governance finds it at this head.
            severity: 'WARNING',
            evidence: [],
          },
        },
      ]);
  });

  it('is a CONFLICT when the finding is already resolved', () => {
    const { h } = projectHistory();
    h.run(ORG_A, { type: 'ResolveFinding', finding_id: FINDING, body: body() });
    spec
      .given(h.given)
      .when({ type: 'ResolveFinding', finding_id: FINDING, body: body() }, ctx(ORG_A, 9))
      .thenRejects('CONFLICT');
    expect(getResolution(h.state(), ORG_A, FINDING)).to.include({
      resolved_on: '2026-03-12',
      evidence_document_id: null,
    });
    expect(getResolution(h.state(), ORG_B, FINDING)).to.equal(undefined);
  });

  it('is refused when dated before the finding opened or after today, and taken on either bound', () => {
    const opened = () => ({ opened_on: '2026-03-01', severity: 'WARNING' as const, evidence: [] });
    for (const resolved_on of ['2026-02-28', '2026-03-16']) {
      spec
        .given([])
        .when(
          { type: 'ResolveFinding', finding_id: FINDING, body: body({ resolved_on }) },
          ctx(ORG_A, 9, { findingAt: opened }),
        )
        .thenRejects('INVALID_REQUEST', ['resolved_on'], 'out_of_range');
    }
    for (const resolved_on of ['2026-03-01', '2026-03-15']) {
      const decided = decide(
        projectsProjection.init(),
        { type: 'ResolveFinding', finding_id: FINDING, body: body({ resolved_on }) },
        ctx(ORG_A, 9, { findingAt: opened }),
      );
      expect(decided.ok, resolved_on).to.equal(true);
    }
  });

  it("is NOT_FOUND when governance does not know the finding, or it is another org's", () => {
    spec
      .given([])
      .when(
        { type: 'ResolveFinding', finding_id: FINDING, body: body() },
        ctx(ORG_A, 9, { findingAt: () => undefined }),
      )
      .thenRejects('NOT_FOUND');
    const { h } = projectHistory();
    h.run(ORG_A, { type: 'ResolveFinding', finding_id: FINDING, body: body() });
    spec
      .given(h.given)
      .when({ type: 'ResolveFinding', finding_id: FINDING, body: body() }, ctx(ORG_B, 9))
      .thenRejects('NOT_FOUND');
  });

  it("is refused when the evidence is another org's document", () => {
    const { h, project } = projectHistory();
    const doc = h.run(ORG_A, { type: 'RecordDocument', project_id: project, body: invoiceBody() });
    spec
      .given(h.given)
      .when(
        { type: 'ResolveFinding', finding_id: FINDING, body: body({ evidence_document_id: doc }) },
        ctx(ORG_B, 9),
      )
      .thenRejects('INVALID_REQUEST', ['evidence_document_id'], 'unknown_document');
  });
});
