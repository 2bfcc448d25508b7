import { expect } from 'chai';
import {
  buildCreditReport,
  canonicalBody,
  creditReportFor,
  eligibilityOf,
  initCreditState,
  portfolioRow,
  sealReport,
  type CreditReportBody,
  type CreditReportInput,
  type EntityFacts,
} from '../../../src/credit/index.js';
import { multiHash, sha256Hex } from '../../../src/platform/crypto/hash.js';
import { canonicalJson } from '../../../src/platform/ledger/canonical.js';
import type { OshaCitation } from '../../../src/projects/facts.js';
import { GC, NOW, TODAY, World, fundedWithWaivers } from './fixtures.js';

const HEAD = { seq: 42, hash: 'a'.repeat(64) };

function world(): World {
  const w = new World();
  const p = w.project('prj_a');
  fundedWithWaivers(w, p, ['2026-04-26', '2026-04-26', '2026-04-26'], '2026-05-01', 500_000_00);
  w.finding({
    id: 'FND-1',
    code: 'ROLL_FORWARD_MISMATCH',
    severity: 'BLOCKING',
    draw_id: 'DRW-3',
    opened_on: '2026-05-20',
  });
  return w;
}

function input(w: World, overrides: Partial<CreditReportInput> = {}): CreditReportInput {
  return {
    entity: 'Acme Builders LLC',
    facts: w.facts(),
    behavior: {
      state: 'PROBATION',
      last_assessed: NOW.toISOString(),
      since: '2026-05-20',
      previous_state: 'PROVISIONAL',
    },
    now: NOW,
    ledger_head: HEAD,
    ...overrides,
  };
}

function withoutProvenance(report: Record<string, unknown>): Record<string, unknown> {
  const { provenance_hash: _h, provenance: _p, ...body } = report;
  return body;
}

describe('credit report (SPEC §4)', () => {
  it('has exactly the SPEC fields (plus furnishers per dimension, issue 13)', () => {
    const report = buildCreditReport(input(world()));
    expect(Object.keys(report).sort()).to.deep.equal(
      [
        'ok',
        'entity',
        'entity_id',
        'as_of',
        'credit',
        'behavioral',
        'conflicts',
        'remediation',
        'contractor_registry',
        'provenance_hash',
        'provenance',
      ].sort(),
    );
    expect(Object.keys(report.credit).sort()).to.deep.equal([
      'composite_score',
      'confidence',
      'confidence_basis',
      'dimensions',
      'grade',
      'reason_codes',
    ]);
    expect(Object.keys(report.credit.dimensions.payment_integrity).sort()).to.deep.equal([
      'factors',
      'furnishers',
      'grade',
      'insufficient_data',
      'score',
      'signals',
      'weight',
    ]);
    expect(report.behavioral).to.deep.equal({
      state: 'PROBATION',
      last_assessed: '2026-06-01T12:00:00.000Z',
      since: '2026-05-20',
      previous_state: 'PROVISIONAL',
    });
    expect(report.conflicts).to.deep.equal({
      active_conflicts: 1,
      status: 'CONFLICTS_PRESENT',
      items: [{ code: 'ROLL_FORWARD_MISMATCH', project_id: 'prj_a', since: '2026-05-20' }],
    });
    expect(report.remediation).to.deep.equal({
      velocity: 'NON_RESPONSIVE',
      open_findings: 1,
      resolved_findings: 0,
      median_days_to_cure: null,
    });
    expect(report.contractor_registry).to.deep.equal({
      registration: 'active',
      exclusions: 'clear',
      checked_at: '2026-06-01T12:00:00.000Z',
      source: { kind: 'sam_extract', file: 'SAM_Exclusions_Public_Extract_20049.zip', as_of: '2026-05-31' },
    });
    expect(report).to.deep.include({
      ok: true,
      entity: 'Acme Builders LLC',
      entity_id: GC,
      as_of: '2026-06-01T12:00:00.000Z',
    });
  });

  describe('provenance', () => {
    it('splices the remembered score into the canonical body byte for byte', () => {
      for (const now of ['2026-06-01T12:00:00Z', '2026-06-02T08:30:00Z']) {
        const report = buildCreditReport(input(world(), { now: new Date(now) }));
        const body = withoutProvenance(report as unknown as Record<string, unknown>);
        expect(canonicalBody(body as never)).to.equal(canonicalJson(body));
        expect(canonicalBody(body as never), 'second time, from the remembered part').to.equal(
          canonicalJson(body),
        );
      }
    });

    it('hashes the JCS of the report without provenance_hash and provenance, three ways, anchored at the head', () => {
      const report = buildCreditReport(input(world()));
      const bytes = canonicalJson(withoutProvenance(report as unknown as Record<string, unknown>));
      expect(report.provenance_hash).to.equal(sha256Hex(bytes));
      expect(report.provenance).to.deep.equal({ ...multiHash(bytes), ledger: HEAD });
    });

    it('is stable: the same inputs give the same bytes', () => {
      const a = buildCreditReport(input(world()));
      const b = buildCreditReport(input(world()));
      expect(canonicalJson(a)).to.equal(canonicalJson(b));
    });

    it('changes when any field of the report changes', () => {
      const report = buildCreditReport(input(world()));
      const body = withoutProvenance(
        report as unknown as Record<string, unknown>,
      ) as unknown as CreditReportBody;
      const variants: CreditReportBody[] = [
        { ...body, entity: 'Acme Builders' },
        { ...body, entity_id: 'ent_other' },
        { ...body, as_of: '2026-06-01T12:00:00.001Z' },
        { ...body, credit: { ...body.credit, composite_score: body.credit.composite_score + 0.1 } },
        { ...body, behavioral: { ...body.behavioral, state: 'RESTRICTED' } },
        { ...body, conflicts: { ...body.conflicts, items: [] } },
        { ...body, remediation: { ...body.remediation, open_findings: 2 } },
        { ...body, contractor_registry: { ...body.contractor_registry, registration: 'inactive' } },
      ];
      const hashes = variants.map((v) => sealReport(v, HEAD).provenance_hash);
      expect(new Set([report.provenance_hash, ...hashes]).size).to.equal(variants.length + 1);
    });

    it('changes with `now` and with the facts; the ledger anchor moves without changing the hash', () => {
      const base = buildCreditReport(input(world()));
      expect(
        buildCreditReport(input(world(), { now: new Date('2026-06-02T12:00:00Z') })).provenance_hash,
      ).to.not.equal(base.provenance_hash);
      const changed = world();
      changed.findings[0]!.resolved_on = '2026-05-25';
      expect(buildCreditReport(input(changed)).provenance_hash).to.not.equal(base.provenance_hash);
      const moved = buildCreditReport(input(world(), { ledger_head: { seq: 43, hash: 'b'.repeat(64) } }));
      expect(moved.provenance_hash).to.equal(base.provenance_hash);
      expect(moved.provenance.ledger).to.deep.equal({ seq: 43, hash: 'b'.repeat(64) });
    });

    it('is unchanged by business types riding along on the facts', () => {
      const w = world();
      const facts = { ...w.facts(), business_types: ['A2', 'OY', 'A5', '8W'] } as unknown as EntityFacts;
      expect(buildCreditReport(input(w, { facts }))).to.deep.equal(buildCreditReport(input(w)));
    });
  });

  describe('given an excluded entity (the score action)', () => {
    function excluded(): World {
      const w = world();
      w.findings = [];
      w.registry = { ...w.registry, exclusions: 'excluded', exclusion_active_since: '2026-02-01' };
      w.observe<OshaCitation>({
        id: 'OBS-1',
        kind: 'osha_citation',
        project_id: 'prj_a',
        entity_id: GC,
        observed_on: TODAY,
        activity_nr: '1',
        type: 'O',
        penalty: 0,
        abate_by: '2026-07-01',
        abated_on: null,
      });
      return w;
    }

    it('grades F capped at 49, SUSPENDED, with the exclusion among the conflicts, and PRAL DENY', () => {
      const w = excluded();
      const { report, events } = creditReportFor(initCreditState(), {
        entity: 'Acme Builders LLC',
        facts: w.facts(),
        now: NOW,
        ledger_head: HEAD,
      });
      expect(report.credit).to.deep.include({ composite_score: 49, grade: 'F' });
      expect(report.behavioral).to.deep.include({
        state: 'SUSPENDED',
        since: '2026-02-01',
        previous_state: 'PROVISIONAL',
      });
      expect(report.conflicts.items).to.deep.include({
        code: 'REGISTRY_EXCLUSION',
        project_id: null,
        since: '2026-02-01',
      });
      expect(report.contractor_registry.exclusions).to.equal('excluded');
      expect(events.map((e) => e.type)).to.deep.equal(['BehavioralStateChanged', 'CreditReportIssued']);
      expect(events[1]!.data).to.deep.include({
        entity_id: GC,
        composite_score: 49,
        grade: 'F',
        provenance_hash: report.provenance_hash,
        // One artifact per digest the report's provenance publishes, SHA-256 (the provenance hash) first.
        artifacts: [report.provenance.sha256, report.provenance.sha3_256, report.provenance.blake2b_256].map(
          (hash) => ({ kind: 'credit_report', hash }),
        ),
      });
      const eligibility = eligibilityOf(w.facts(), report.behavioral.state, NOW);
      expect(eligibility.payment_recommendation.pral).to.equal('DENY');
      expect(eligibility.eligible_payment_rails).to.deep.equal([]);
      expect(eligibility.marketplace_access).to.deep.equal({ tier: 'NONE', programs: [] });
    });
  });

  it('summarizes the same score, assessed state, conflicts and remediation for the portfolio', () => {
    const w = world();
    const report = buildCreditReport(input(w));
    expect(portfolioRow(initCreditState(), 'Acme Builders LLC', w.facts(), NOW)).to.deep.equal({
      entity: 'Acme Builders LLC',
      entity_id: GC,
      composite_score: report.credit.composite_score,
      grade: report.credit.grade,
      behavioral_state: 'PROBATION',
      conflicts_status: 'CONFLICTS_PRESENT',
      remediation_velocity: 'NON_RESPONSIVE',
      last_assessed: '2026-06-01T12:00:00.000Z',
    });
  });
});
