import { expect } from 'chai';
import {
  claimantsOf,
  evaluateGates,
  PROFILE_GATES,
  requiredWaivers,
  type GateContext,
  type GateResult,
} from '../../../src/payments/index.js';
import {
  CONSTRUCTION_PROFILE,
  PROFILES,
  PROFILE_NAMES,
  TREASURY_PROFILE,
} from '../../../src/projects/profiles.js';
import { aDraw, aProject, GC, SUB } from '../compile/fixtures.js';
import type { LienWaiver } from '../../../src/projects/facts.js';
import type { NotarialActRecord } from '../../../src/governance/events.js';
import {
  aSigner,
  drawSignature,
  DRAW_1,
  DRAW_2,
  executedBySignature,
  notarialAct,
  notarizedByAct,
  passingContext,
  SIGNERS,
  signersById,
  waivers,
  waiverSignature,
  type TestSigner,
} from './fixtures.js';

const failing = (results: GateResult[]) => results.filter((r) => !r.passed).map((r) => r.gate);

describe('payment gate (SPEC §6, DOMAIN §12)', () => {
  it('passes every construction gate for a compiled, signed, waived, notarized, balanced draw', () => {
    expect(evaluateGates(CONSTRUCTION_PROFILE, passingContext())).to.deep.equal([
      { gate: 'verdict_fundable', passed: true, detail: 'at the head the draw is FUNDABLE' },
      { gate: 'signatures', passed: true, detail: '3 of 3 signed by distinct enrolled signers' },
      { gate: 'waivers_executed', passed: true, detail: '4 required waiver(s) executed' },
      { gate: 'notarization', passed: true, detail: '4 document(s) notarized by a notarial act' },
      { gate: 'in_balance', passed: true, detail: 'sources cover uses' },
      {
        gate: 'no_critical_rail',
        passed: true,
        detail: 'no rail is CRITICAL and every required rail has evidence',
      },
      {
        gate: 'eligibility',
        passed: true,
        detail: 'PRAL RELEASE (GC eligibility RELEASE) allows ACH, Wire, RTP, ESCROW; asked ACH',
      },
      {
        gate: 'payee_account_stable',
        passed: true,
        detail: 'pays acct_gcgcgcgcgcgcgcgc from acct_disbursementdis',
      },
    ]);
  });

  const ctx = passingContext();
  const cases: [GateResult['gate'], string, Partial<GateContext>, string][] = [
    [
      'verdict_fundable',
      'the compilation at the head is HOLD, where the lender had seen FUNDABLE',
      { compilation: { ...ctx.compilation, draw_verdict: 'HOLD', reasons: ['BLOCKING: INSURANCE_EXPIRY'] } },
      'at the head the draw is HOLD (BLOCKING: INSURANCE_EXPIRY); it was FUNDABLE when compiled at seq 25',
    ],
    [
      'verdict_fundable',
      'the compilation at the head is NOT_FUNDABLE and the draw was never compiled before',
      {
        compilation: {
          ...ctx.compilation,
          draw_verdict: 'NOT_FUNDABLE',
          reasons: ['GC has an active registry exclusion'],
        },
        reviewed: null,
      },
      'at the head the draw is NOT_FUNDABLE (GC has an active registry exclusion)',
    ],
    [
      'verdict_fundable',
      'the draw is FUNDABLE_WITH_CONDITIONS and no lender accepted them',
      {
        compilation: {
          ...ctx.compilation,
          draw_verdict: 'FUNDABLE_WITH_CONDITIONS',
          reasons: ['WARNING: TITLE_DATE_DOWN'],
          findings: [{ id: 'FND-TITLE_DATE_DOWN', code: 'TITLE_DATE_DOWN' }],
        },
        reviewed: null,
      },
      'at the head the draw is FUNDABLE_WITH_CONDITIONS (WARNING: TITLE_DATE_DOWN); not accepted by a lender (draws:approve)',
    ],
    [
      'verdict_fundable',
      'the lender accepted an earlier condition but not the one open now',
      {
        compilation: {
          ...ctx.compilation,
          draw_verdict: 'FUNDABLE_WITH_CONDITIONS',
          reasons: ['WARNING: INSPECTION_FRESHNESS'],
          findings: [{ id: 'FND-INSPECTION_FRESHNESS', code: 'INSPECTION_FRESHNESS' }],
        },
        reviewed: null,
        accepted_codes: ['TITLE_DATE_DOWN'],
      },
      'at the head the draw is FUNDABLE_WITH_CONDITIONS (WARNING: INSPECTION_FRESHNESS); not accepted: INSPECTION_FRESHNESS',
    ],
    [
      'eligibility',
      'the draw’s PRAL is HOLD (escrow only)',
      { compilation: { ...ctx.compilation, pral: 'HOLD', pral_rationale: ['GC eligibility HOLD'] } },
      'PRAL HOLD (GC eligibility HOLD) allows ESCROW; asked ACH',
    ],
    [
      'eligibility',
      'the draw’s PRAL is RELEASE_WITH_CONDITIONS and RTP is asked',
      {
        rail: 'RTP',
        compilation: {
          ...ctx.compilation,
          pral: 'RELEASE_WITH_CONDITIONS',
          pral_rationale: ['GC eligibility RELEASE_WITH_CONDITIONS'],
        },
      },
      'PRAL RELEASE_WITH_CONDITIONS (GC eligibility RELEASE_WITH_CONDITIONS) allows ACH, Wire, ESCROW; asked RTP',
    ],
    [
      'eligibility',
      'the draw’s PRAL is DENY',
      { compilation: { ...ctx.compilation, pral: 'DENY', pral_rationale: ['GC eligibility DENY'] } },
      'PRAL DENY (GC eligibility DENY) allows no rail; asked ACH',
    ],
    [
      'signatures',
      'the Architect has not signed',
      { draw: { ...ctx.draw, signatures: ctx.draw.signatures.filter((s) => s.role !== 'Architect') } },
      '2 of 3 signed; Architect: not signed',
    ],
    [
      'waivers_executed',
      'the subcontractor’s conditional waiver is missing',
      { documents: waivers().filter((w) => w.id !== 'WAIV-condsubsubsubsub') },
      `missing: conditional from ${SUB} for ${DRAW_2}`,
    ],
    [
      'waivers_executed',
      'the GC’s unconditional waiver for the funded draw is recorded (stated executed) but unsigned',
      {
        document_signatures: Object.fromEntries(
          Object.entries(executedBySignature(waivers())).filter(([id]) => id !== 'WAIV-uncogcgcgcgcgcgc'),
        ),
      },
      "not executed (no signature by the claimant's signer): WAIV-uncogcgcgcgcgcgc",
    ],
    [
      'notarization',
      'a required waiver is not notarized',
      {
        notarized_document_ids: new Set([
          'WAIV-condgcgcgcgcgcgc',
          'WAIV-condsubsubsubsub',
          'WAIV-uncosubsubsubsub',
        ]),
        notarial_acts: Object.fromEntries(
          Object.entries(notarizedByAct(waivers())).filter(([id]) => id !== 'WAIV-uncogcgcgcgcgcgc'),
        ),
      },
      'WAIV-uncogcgcgcgcgcgc is not notarized',
    ],
    ['in_balance', 'the project is out of balance', { in_balance: false }, 'project is out of balance'],
    [
      'no_critical_rail',
      'a rail is CRITICAL',
      { critical_rails: ['SAFETY', 'INSURANCE'] },
      'CRITICAL: SAFETY, INSURANCE',
    ],
    [
      'no_critical_rail',
      'a rail the profile requires has no evidence (no data is not good news)',
      { no_evidence_rails: ['INSURANCE'] },
      'no evidence (INSUFFICIENT_DATA): INSURANCE',
    ],
  ];

  for (const [gate, situation, override, detail] of cases) {
    it(`reports only ${gate} unmet, and still lists all eight gates, when ${situation}`, () => {
      const results = evaluateGates(CONSTRUCTION_PROFILE, passingContext(override));
      expect(results.map((r) => r.gate)).to.deep.equal([
        ...PROFILE_GATES.construction,
        'eligibility',
        'payee_account_stable',
      ]);
      expect(failing(results)).to.deep.equal([gate]);
      expect(results.find((r) => r.gate === gate)?.detail).to.equal(detail);
    });
  }

  it('evaluates every gate even when all of them fail (never short-circuits)', () => {
    const results = evaluateGates(
      CONSTRUCTION_PROFILE,
      passingContext({
        compilation: { ...ctx.compilation, draw_verdict: 'HOLD', pral: 'DENY' },
        draw: aDraw(),
        documents: [],
        in_balance: false,
        critical_rails: ['WEATHER'],
        notarized_document_ids: new Set(),
        creditor_account: null,
      }),
    );
    // notarization passes: with no waiver recorded there is nothing to notarize (waivers_executed reports the gap)
    expect(failing(results)).to.deep.equal([
      'verdict_fundable',
      'signatures',
      'waivers_executed',
      'in_balance',
      'no_critical_rail',
      'eligibility',
      'payee_account_stable',
    ]);
    expect(results).to.have.length(8);
  });

  it('lets FUNDABLE_WITH_CONDITIONS and REDUCED pass once a lender accepted every open condition', () => {
    for (const draw_verdict of ['FUNDABLE_WITH_CONDITIONS', 'REDUCED'] as const) {
      const [verdict] = evaluateGates(
        CONSTRUCTION_PROFILE,
        passingContext({
          compilation: {
            ...ctx.compilation,
            draw_verdict,
            reasons: [],
            findings: [{ id: 'FND-INSPECTION_VARIANCE', code: 'INSPECTION_VARIANCE' }],
          },
          reviewed: null,
          accepted_codes: ['INSPECTION_VARIANCE'],
        }),
      );
      expect(verdict).to.deep.equal({
        gate: 'verdict_fundable',
        passed: true,
        detail: `at the head the draw is ${draw_verdict}; accepted by the lender`,
      });
    }
  });

  it('holds a finding the acceptance did not cover, even under a code it accepted', () => {
    const accepted = { id: 'FND-glexpiring', code: 'INSURANCE_EXPIRY' };
    const arisen = { id: 'FND-brexpiring', code: 'INSURANCE_EXPIRY' };
    const gate = (findings: { id: string; code: string }[]) =>
      evaluateGates(
        CONSTRUCTION_PROFILE,
        passingContext({
          compilation: {
            ...ctx.compilation,
            draw_verdict: 'FUNDABLE_WITH_CONDITIONS',
            reasons: [],
            findings,
          },
          reviewed: null,
          accepted_codes: ['INSURANCE_EXPIRY'],
          accepted_finding_ids: [accepted.id],
        }),
      )[0];
    expect(gate([accepted])?.passed).to.equal(true);
    expect(gate([accepted, arisen])).to.deep.equal({
      gate: 'verdict_fundable',
      passed: false,
      detail:
        'at the head the draw is FUNDABLE_WITH_CONDITIONS; not accepted: INSURANCE_EXPIRY (FND-brexpiring)',
    });
  });

  it('holds a draw whose verdict moved between REDUCED and FUNDABLE_WITH_CONDITIONS since the acceptance', () => {
    const finding = { id: 'FND-variance1', code: 'INSPECTION_VARIANCE' };
    const gate = (draw_verdict: 'REDUCED' | 'FUNDABLE_WITH_CONDITIONS') =>
      evaluateGates(
        CONSTRUCTION_PROFILE,
        passingContext({
          compilation: { ...ctx.compilation, draw_verdict, reasons: [], findings: [finding] },
          reviewed: null,
          accepted_codes: [finding.code],
          accepted_finding_ids: [finding.id],
          accepted_verdict: 'REDUCED',
        }),
      )[0];
    expect(gate('REDUCED')?.passed).to.equal(true);
    expect(gate('FUNDABLE_WITH_CONDITIONS')).to.deep.equal({
      gate: 'verdict_fundable',
      passed: false,
      detail:
        'at the head the draw is FUNDABLE_WITH_CONDITIONS; the lender accepted it as REDUCED, not FUNDABLE_WITH_CONDITIONS',
    });
  });

  it('holds a REDUCED draw whose reduced amount is not the one the lender accepted', () => {
    const finding = { id: 'FND-variance1', code: 'INSPECTION_VARIANCE' };
    const gate = (fundable_amount: number) =>
      evaluateGates(
        CONSTRUCTION_PROFILE,
        passingContext({
          compilation: {
            ...ctx.compilation,
            draw_verdict: 'REDUCED',
            reasons: [],
            findings: [finding],
            fundable_amount,
          },
          reviewed: null,
          accepted_codes: [finding.code],
          accepted_finding_ids: [finding.id],
          accepted_verdict: 'REDUCED',
          accepted_fundable_amount: 7_500_000,
        }),
      )[0];
    expect(gate(7_500_000)?.passed).to.equal(true);
    expect(gate(9_180_000)?.detail).to.equal(
      'at the head the draw is REDUCED; the lender accepted a reduced amount of $75,000.00, not $91,800.00',
    );
  });

  it('holds a draw that makes nothing fundable: a credit transfer of $0 is no payment', () => {
    const [verdict] = evaluateGates(
      CONSTRUCTION_PROFILE,
      passingContext({ compilation: { ...ctx.compilation, fundable_amount: 0 } }),
    );
    expect(verdict?.passed).to.equal(false);
    expect(verdict?.detail).to.match(
      /^at the head the draw is FUNDABLE; nothing to pay: \$0\.00 is fundable \(G702 line 8 is /,
    );
  });

  it('never lets HOLD or NOT_FUNDABLE pass, whatever was accepted', () => {
    for (const draw_verdict of ['HOLD', 'NOT_FUNDABLE'] as const) {
      const [verdict] = evaluateGates(
        CONSTRUCTION_PROFILE,
        passingContext({
          compilation: {
            ...ctx.compilation,
            draw_verdict,
            findings: [{ id: 'FND-TITLE_DATE_DOWN', code: 'TITLE_DATE_DOWN' }],
          },
          accepted_codes: ['TITLE_DATE_DOWN'],
        }),
      );
      expect(verdict?.passed, draw_verdict).to.equal(false);
    }
  });

  describe('profiles', () => {
    it('names as many gates for each profile as DOMAIN §12 counts', () => {
      for (const name of PROFILE_NAMES)
        expect(PROFILE_GATES[name], name).to.have.length(PROFILES[name].gate_count);
    });

    it('evaluates exactly the treasury gates, against the treasury certification chain', () => {
      const results = evaluateGates(TREASURY_PROFILE, passingContext());
      expect(results.map((r) => r.gate)).to.deep.equal([
        'verdict_fundable',
        'signatures',
        'notarization',
        'in_balance',
        'no_critical_rail',
        'eligibility',
        'payee_account_stable',
      ]);
      expect(results.find((r) => r.gate === 'signatures')?.detail).to.equal(
        '0 of 3 signed; Requestor: not signed; Manager: not signed; Treasury: not signed',
      );
      expect(results.find((r) => r.gate === 'notarization')?.detail).to.equal(
        'the profile requires no notarized documents',
      );
    });
  });

  /**
   * One public key may serve a signer in each of two orgs (docs/duties.md): the gate counts only
   * signers of the draw's own org, so nothing recorded is ever attributed to another org's signer
   * that happens to share the key and the party.
   */
  describe('signers of another org with the same key', () => {
    /** Another org's signer of the same capacity and party, enrolled with `who`'s very key. */
    const twinElsewhere = (who: TestSigner): TestSigner => {
      const other = aSigner(who.signer.capacity, who.signer.entity_id, 'org_other');
      return {
        privateKey: who.privateKey,
        signer: { ...other.signer, commission: who.signer.commission, key: who.signer.key },
      };
    };
    const gate = (ctx: GateContext, name: GateResult['gate']) =>
      evaluateGates(CONSTRUCTION_PROFILE, ctx).find((r) => r.gate === name);

    it('does not count a draw signature by another org’s signer of the party', () => {
      const twin = twinElsewhere(SIGNERS.Contractor);
      const ctx = passingContext();
      const draw = {
        ...ctx.draw,
        signatures: [
          drawSignature(ctx.draw, 'Contractor', twin, 12),
          ...ctx.draw.signatures.filter((s) => s.role !== 'Contractor'),
        ],
      };
      const signers = { ...ctx.signers, ...signersById(twin) };
      expect(gate({ ...ctx, signers }, 'signatures')?.passed).to.equal(true);
      expect(gate({ ...ctx, draw, signers }, 'signatures')).to.deep.include({
        passed: false,
        detail: '2 of 3 signed; Contractor: no signature by a distinct, active signer of its party',
      });
    });

    it('does not take a waiver as executed by another org’s signer of its claimant', () => {
      const twin = twinElsewhere(SIGNERS.Sub);
      const ctx = passingContext();
      const waiver = ctx.documents.find((d) => d.id === 'WAIV-condsubsubsubsub') as LienWaiver;
      const document_signatures = {
        ...ctx.document_signatures,
        [waiver.id]: [waiverSignature(waiver, twin)],
      };
      expect(
        gate(
          { ...ctx, document_signatures, signers: { ...ctx.signers, ...signersById(twin) } },
          'waivers_executed',
        ),
      ).to.deep.include({
        passed: false,
        detail: "not executed (no signature by the claimant's signer): WAIV-condsubsubsubsub",
      });
    });

    it('does not take a notarial act by another org’s notary, nor another org’s signer as the one who appeared', () => {
      const notary = twinElsewhere(SIGNERS.Notary);
      const appeared = twinElsewhere(SIGNERS.Sub);
      const ctx = passingContext();
      const waiver = ctx.documents.find((d) => d.id === 'WAIV-condsubsubsubsub') as LienWaiver;
      const signers = { ...ctx.signers, ...signersById(notary, appeared) };
      const actBy = (act: NotarialActRecord) => ({ ...ctx.notarial_acts, [waiver.id]: [act] });
      expect(
        gate({ ...ctx, signers, notarial_acts: actBy(notarialAct(waiver, appeared)) }, 'notarization'),
      ).to.deep.include({
        passed: false,
        detail: 'WAIV-condsubsubsubsub has an act where the signer who appeared is not the claimant’s',
      });
      expect(
        gate(
          { ...ctx, signers, notarial_acts: actBy(notarialAct(waiver, SIGNERS.Sub, notary)) },
          'notarization',
        ),
      ).to.deep.include({
        passed: false,
        detail: 'WAIV-condsubsubsubsub has an act by a notary who is not enrolled or was revoked',
      });
    });
  });

  describe('required waivers', () => {
    it('asks a conditional waiver from the GC and each subcontractor billed in the draw, and an unconditional one for the previous funded draw', () => {
      const { project, draw, draws } = passingContext();
      expect(requiredWaivers(project, draw, draws)).to.deep.equal([
        { kind: 'CONDITIONAL', claimant: GC, draw_id: DRAW_2 },
        { kind: 'CONDITIONAL', claimant: SUB, draw_id: DRAW_2 },
        { kind: 'UNCONDITIONAL', claimant: GC, draw_id: DRAW_1 },
        { kind: 'UNCONDITIONAL', claimant: SUB, draw_id: DRAW_1 },
      ]);
    });

    it('leaves out a subcontractor whose line is not billed this period', () => {
      const draw = aDraw();
      const unbilled = {
        ...draw,
        lines: draw.lines.map((l) => (l.line === 1 ? { ...l, this_period: 0 } : l)),
      };
      expect(claimantsOf(aProject(), unbilled)).to.deep.equal([GC]);
    });

    it('asks no unconditional waiver before any draw was funded', () => {
      const { project, draw } = passingContext();
      expect(requiredWaivers(project, draw, [draw]).map((r) => r.kind)).to.deep.equal([
        'CONDITIONAL',
        'CONDITIONAL',
      ]);
    });
  });
});
