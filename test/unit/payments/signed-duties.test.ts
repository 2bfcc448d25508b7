import { expect } from 'chai';
import { evaluateGates, type GateContext } from '../../../src/payments/index.js';
import { CONSTRUCTION_PROFILE } from '../../../src/projects/profiles.js';
import type { Draw } from '../../../src/projects/facts.js';
import { aProject, GC, SUB } from '../compile/fixtures.js';
import {
  aNotary,
  aSigner,
  notarialAct,
  notarizedByAct,
  drawSignature,
  executedBySignature,
  passingContext,
  signedDraw,
  signersById,
  SIGNERS,
  waivers,
  waiverSignature,
} from './fixtures.js';

const gate = (ctx: GateContext, name: string) =>
  evaluateGates(CONSTRUCTION_PROFILE, ctx).find((g) => g.gate === name)!;

/** docs/duties.md: what the signatures and waivers gates count, and what they never count. */
describe('payment gate: signed duties (issue 15)', () => {
  it('counts three Ed25519 signatures by distinct signers of the GC, the architect and the lender', () => {
    expect(gate(passingContext(), 'signatures')).to.deep.include({ passed: true });
  });

  it('does not count the seed’s self-attested signatures', () => {
    const draw = signedDraw();
    const selfAttested: Draw = {
      ...draw,
      signatures: draw.signatures.map((s) => ({
        ...s,
        attestation: 'SELF_ATTESTED' as const,
        signer_id: null,
        key_id: null,
        application_sha256: null,
        signature: null,
      })),
    };
    const g = gate(passingContext({ draw: selfAttested }), 'signatures');
    expect(g.passed).to.equal(false);
    expect(g.detail).to.equal(
      '0 of 3 signed; Contractor: self-attested only (not counted); Architect: self-attested only (not counted); Lender: self-attested only (not counted)',
    );
  });

  it('voids every signature when the draw changes after signing (stale bytes)', () => {
    const draw = signedDraw();
    const changed: Draw = { ...draw, requested_amount: draw.requested_amount + 1 };
    const g = gate(passingContext({ draw: changed }), 'signatures');
    expect(g.passed).to.equal(false);
    expect(g.detail).to.match(/^0 of 3 signed; Contractor: signed over earlier bytes of the draw \(void\)/);
  });

  it('counts one identity for one role only, even where one entity is both GC and architect', () => {
    const project = aProject({ architect: GC });
    const both = aSigner('Contractor', GC);
    const base = signedDraw();
    const draw: Draw = {
      ...base,
      signatures: [
        drawSignature(base, 'Contractor', both, 12),
        // The same identity (with its capacity relabelled) cannot also count as the Architect.
        drawSignature(base, 'Architect', both, 13),
        drawSignature(base, 'Lender', SIGNERS.Lender, 14),
      ],
    };
    const g = gate(
      passingContext({ project, draw, signers: signersById(both, SIGNERS.Lender, SIGNERS.Sub) }),
      'signatures',
    );
    expect(g.passed).to.equal(false);
    expect(g.detail).to.equal(
      '2 of 3 signed; Architect: no signature by a distinct, active signer of its party',
    );
  });

  it('does not count a signer of the wrong party (the lender’s signer as Contractor)', () => {
    const lenderAsGc = aSigner('Contractor', null);
    const base = signedDraw();
    const draw: Draw = {
      ...base,
      signatures: [drawSignature(base, 'Contractor', lenderAsGc, 12), ...base.signatures.slice(1)],
    };
    const g = gate(
      passingContext({ draw, signers: { ...passingContext().signers, ...signersById(lenderAsGc) } }),
      'signatures',
    );
    expect(g.passed).to.equal(false);
    expect(g.detail).to.match(/Contractor: no signature by a distinct, active signer of its party$/);
  });

  it('does not count a forged signature (another key’s signature recorded under the signer)', () => {
    const base = signedDraw();
    const forged = drawSignature(base, 'Architect', SIGNERS.Lender, 13);
    const draw: Draw = {
      ...base,
      signatures: base.signatures.map((s) =>
        s.role === 'Architect'
          ? {
              ...forged,
              signer_id: SIGNERS.Architect.signer.id,
              key_id: SIGNERS.Architect.signer.key!.key_id,
            }
          : s,
      ),
    };
    expect(gate(passingContext({ draw }), 'signatures').passed).to.equal(false);
  });

  it('stops counting a revoked signer’s signature', () => {
    const revoked = { ...SIGNERS.Lender.signer, status: 'REVOKED' as const };
    const ctx = passingContext();
    const g = gate({ ...ctx, signers: { ...ctx.signers, [revoked.id]: revoked } }, 'signatures');
    expect(g.detail).to.equal(
      '2 of 3 signed; Lender: no signature by a distinct, active signer of its party',
    );
  });

  it('executes a waiver only by a signature of its claimant’s signer over its terms as recorded', () => {
    const docs = waivers();
    const byGc = waivers().find((w) => w.claimant === SUB)!;
    // The GC's signer signs the subcontractor's waiver: not the claimant, not executed.
    const wrongParty = {
      ...executedBySignature(docs),
      [byGc.id]: [waiverSignature(byGc, SIGNERS.Contractor)],
    };
    expect(gate(passingContext({ document_signatures: wrongParty }), 'waivers_executed').detail).to.equal(
      `not executed (no signature by the claimant's signer): ${byGc.id}`,
    );
    // The amount changed after signing: the signature covers other bytes.
    const altered = docs.map((w) => (w.id === byGc.id ? { ...w, amount: w.amount + 100 } : w));
    expect(gate(passingContext({ documents: altered }), 'waivers_executed').passed).to.equal(false);
    // Unsigned but stated `executed: true`: recorded, not executed.
    expect(gate(passingContext({ document_signatures: {} }), 'waivers_executed').passed).to.equal(false);
  });

  describe('notarization', () => {
    const waiver = waivers()[0]!;
    const withAct = (act: ReturnType<typeof notarialAct>, extra: Partial<GateContext> = {}) => {
      const ctx = passingContext(extra);
      return gate(
        { ...ctx, notarial_acts: { ...notarizedByAct(ctx.documents), [waiver.id]: [act] } },
        'notarization',
      );
    };

    it('does not count a bare hash stamp', () => {
      const ctx = passingContext();
      const acts = { ...ctx.notarial_acts };
      delete acts[waiver.id];
      expect(gate({ ...ctx, notarial_acts: acts }, 'notarization').detail).to.equal(
        `${waiver.id} is hash-stamped only (no notarial act)`,
      );
    });

    it('does not count an act under a commission that had expired on the act date', () => {
      const lapsed = aNotary({ number: 'CA-1000', state: 'CA', expires_on: '2026-02-28' });
      const g = withAct(notarialAct(waiver, SIGNERS.Contractor, lapsed), {
        signers: { ...passingContext().signers, ...signersById(lapsed) },
      });
      expect(g.passed).to.equal(false);
      expect(g.detail).to.equal(
        `${waiver.id} has an act dated 2026-03-04 under a commission that expired on 2026-02-28`,
      );
    });

    it('does not count an act under another state’s commission', () => {
      const nevada = aNotary({ number: 'NV-1', state: 'NV', expires_on: '2030-01-01' });
      const g = withAct(notarialAct(waiver, SIGNERS.Contractor, nevada), {
        signers: { ...passingContext().signers, ...signersById(nevada) },
      });
      expect(g.detail).to.equal(`${waiver.id} has an act under a NV commission, not the project's CA`);
    });

    it('does not count an act whose appearing signer is not the claimant’s, or whose signature is forged', () => {
      expect(withAct(notarialAct(waiver, SIGNERS.Lender)).passed).to.equal(false);
      const act = notarialAct(waiver, SIGNERS.Contractor);
      const forged = { ...act, act_type: 'jurat' as const };
      expect(withAct(forged).detail).to.equal(`${waiver.id} has an act whose signature does not verify`);
    });
  });
});
