import { expect } from 'chai';
import { projectsProjection } from '../../../projections/projects.js';
import { decide, missingSignatures } from '../../../src/projects/index.js';
import { deciderSpec } from '../../support/decider.js';
import { ctx, drawBody, History, ORG_A, ORG_B, projectBody, signBody, uuid } from './fixtures.js';

const spec = deciderSpec(projectsProjection, decide);

function drawOn(profile?: string) {
  const h = new History();
  const project = h.run(ORG_A, { type: 'RegisterProject', body: projectBody(profile ? { profile } : {}) });
  const draw = h.run(ORG_A, { type: 'SubmitDraw', project_id: project, body: drawBody() });
  return { h, project, draw };
}

describe('signing a draw (SPEC §5 POST /api/draws/:id/signatures)', () => {
  it('records the seed’s unsigned shape as a SELF_ATTESTED DrawSigned on the draw stream', () => {
    const { h, project, draw } = drawOn();
    spec
      .given(h.given)
      .when({ type: 'SignDraw', draw_id: draw, body: signBody('Architect') }, ctx(ORG_A, 9))
      .then([
        {
          id: uuid(9, 5),
          stream: `draw-${draw}`,
          type: 'DrawSigned',
          schema: 1,
          data: {
            draw_id: draw,
            project_id: project,
            role: 'Architect',
            signer_name: 'Architect Signer',
            signed_on: '2026-03-05',
            attestation: 'SELF_ATTESTED',
            signer_id: null,
            key_id: null,
            application_sha256: null,
            signature: null,
          },
        },
      ]);
  });

  it('is refused for a role the project profile does not have, naming the path', () => {
    const { h, draw } = drawOn();
    spec
      .given(h.given)
      .when({ type: 'SignDraw', draw_id: draw, body: signBody('Treasury') }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['role'], 'role_not_in_chain');
  });

  it("follows the project's profile: Treasury signs a treasury draw, Contractor does not", () => {
    const { h, draw } = drawOn('treasury');
    spec
      .given(h.given)
      .when({ type: 'SignDraw', draw_id: draw, body: signBody('Treasury') }, ctx(ORG_A, 9))
      .thenAccepted();
    spec
      .given(h.given)
      .when({ type: 'SignDraw', draw_id: draw, body: signBody('Contractor') }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['role']);
  });

  it('is a CONFLICT when the role has already signed', () => {
    const { h, draw } = drawOn();
    h.run(ORG_A, { type: 'SignDraw', draw_id: draw, body: signBody('Lender') });
    spec
      .given(h.given)
      .when(
        { type: 'SignDraw', draw_id: draw, body: signBody('Lender', { signer_name: 'Someone Else' }) },
        ctx(ORG_A, 9),
      )
      .thenRejects('CONFLICT');
  });

  it('is a CONFLICT once the draw is funded', () => {
    const { h, draw } = drawOn();
    h.governance(ORG_A, 'PaymentPushed', { draw_id: draw, amount: 100 });
    spec
      .given(h.given)
      .when({ type: 'SignDraw', draw_id: draw, body: signBody('Lender') }, ctx(ORG_A, 9))
      .thenRejects('CONFLICT');
  });

  it("is NOT_FOUND for another org's draw", () => {
    const { h, draw } = drawOn();
    spec
      .given(h.given)
      .when({ type: 'SignDraw', draw_id: draw, body: signBody('Lender') }, ctx(ORG_B, 9))
      .thenRejects('NOT_FOUND');
  });

  it('projects signatures in order and reports the roles still missing', () => {
    const { h, draw } = drawOn();
    h.run(ORG_A, { type: 'SignDraw', draw_id: draw, body: signBody('Lender') });
    h.run(ORG_A, { type: 'SignDraw', draw_id: draw, body: signBody('Contractor') });
    const state = h.state();
    const d = state.draws[draw]!;
    expect(d.signatures.map((s) => s.role)).to.deep.equal(['Lender', 'Contractor']);
    expect(d.signatures[0]).to.include({
      signer_name: 'Lender Signer',
      signed_on: '2026-03-05',
      recorded_seq: 3,
    });
    expect(missingSignatures(state, d)).to.deep.equal(['Architect']);
  });
});
