import { expect } from 'chai';
import { initGovernanceState, type GovernanceState } from '../../../projections/governance.js';
import { projectsProjection } from '../../../projections/projects.js';
import { FactsMemo } from '../../../src/lender-api/facts-memo.js';
import type { SealedEvent } from '../../../src/platform/ledger/index.js';
import type { FindingRecord } from '../../../src/governance/findings.js';
import { handRuntime } from '../../support/memo-runtime.js';

/**
 * Taking the facts memo on read models that already hold a history (the first score after a
 * node's start) indexes nothing of that history (issue 19: every entity's projects and every
 * finding, ~0.1 s at 1M events); an entity's projects and findings are indexed when it is first
 * remembered, which is what later events forget it by.
 */
describe('facts memo: taken on a history', () => {
  const P = 'prj_aaaaaaaaaaaaaaaa';
  const E = 'ent_bbbbbbbbbbbbbbbb';
  const E2 = 'ent_cccccccccccccccc';
  const F = 'FND-dddddddddddddddd';

  /** Read models held by hand, and the memo's hook into the runtime's applied events. */
  const runtimeOf = (projects: object, gov: GovernanceState) =>
    handRuntime({ projects: () => projects, governance: () => gov, position: 10 });

  const unlisted = <T extends object>(record: T, what: string): T =>
    new Proxy(record, { ownKeys: () => expect.fail(`listed ${what}`) });

  const finding = (entity_id: string) => ({ id: F, project_id: P, entity_id }) as unknown as FindingRecord;

  it('is taken without listing the entities’ projects or the findings, and remembers an entity from its own', () => {
    const gov: GovernanceState = {
      ...initGovernanceState(),
      findings: unlisted({ [F]: finding(E) }, 'every finding'),
      findings_by_project: unlisted({ [P]: [F] }, 'every project’s findings'),
      findings_by_entity: unlisted({ [E]: [F] }, 'every entity’s findings'),
    };
    const projects = {
      ...projectsProjection.init(),
      by_entity: unlisted({ [E]: [P] }, 'every entity’s projects'),
    };
    const { runtime } = runtimeOf(projects, gov);
    const memo = new FactsMemo(runtime);
    expect(memo.for(E).remember('k', () => 1)).to.equal(1);
    expect(memo.for(E).remember('k', () => 2)).to.equal(1);
  });

  it('forgets an entity remembered after the memo was taken when a finding attributed to it before then moves away', () => {
    // E takes part in no project of its own (by_entity lists none): only the finding's attribution
    // ties it to P, so only the attribution indexed when E was remembered can forget it.
    const gov: GovernanceState = {
      ...initGovernanceState(),
      findings: { [F]: finding(E) },
      findings_by_project: { [P]: [F] },
      findings_by_entity: { [E]: [F] },
    };
    const { runtime, apply } = runtimeOf({ ...projectsProjection.init(), by_entity: {} }, gov);
    const memo = new FactsMemo(runtime);
    expect(memo.for(E).remember('score', () => 'before')).to.equal('before');
    // A rescan of P attributes F to E2 instead (folded first, as the runtime does).
    gov.findings[F] = finding(E2);
    gov.findings_by_entity = { [E2]: [F] };
    apply({
      seq: 11,
      stream: `project-${P}`,
      type: 'ProjectScanned',
      data: { project_id: P, findings: [{ id: F, entity_id: E2 }], opened: [], resolved: [] },
    } as unknown as SealedEvent);
    expect(memo.forgotten).to.equal(1);
    expect(memo.for(E).remember('score', () => 'after')).to.equal('after');
  });

  it('keeps a project’s parties across the governance results that change no fact, and forgets them on those that do', () => {
    const { runtime, apply } = runtimeOf(
      { ...projectsProjection.init(), by_entity: { [E]: [P] } },
      initGovernanceState(),
    );
    const memo = new FactsMemo(runtime);
    memo.for(E).remember('score', () => 'kept');
    const D = 'DRW-eeeeeeeeeeeeeeee';
    let seq = 10;
    const event = (type: string) =>
      ({
        seq: (seq += 1),
        stream: `draw-${D}`,
        type,
        data: { project_id: P, draw_id: D },
      }) as unknown as SealedEvent;
    for (const type of [
      'AdequacyAssessed',
      'DrawSimulated',
      'CertificationIssued',
      'DocumentNotarized',
      'PaymentPushBlocked',
      'DrawConditionsAccepted',
      'PaymentInstructionDelivered',
      'PaymentInstructionFailed',
      'RailScanned',
      'RailsScanned',
    ]) {
      apply(event(type));
      expect(memo.for(E).remember('score', () => `recomputed after ${type}`)).to.equal('kept');
    }
    expect(memo.forgotten).to.equal(0);
    // A compilation moves the draw to COMPILED, which no credit rule tells from SUBMITTED: kept.
    apply(event('DrawCompiled'));
    expect(memo.for(E).remember('score', () => 'recomputed after DrawCompiled')).to.equal('kept');
    // A payment funds the draw: a fact of every party's, so E is forgotten.
    apply(event('PaymentPushed'));
    expect(memo.for(E).remember('score', () => 'recomputed')).to.equal('recomputed');
  });

  it('forgets an entity remembered after the memo was taken on an event of a project it joined before then', () => {
    const gov = initGovernanceState();
    const { runtime, apply } = runtimeOf({ ...projectsProjection.init(), by_entity: { [E]: [P] } }, gov);
    const memo = new FactsMemo(runtime);
    memo.for(E).remember('score', () => 'before');
    memo.for(E2).remember('score', () => 'kept');
    // A draw submitted on P: a fact of every party's (its schedule, its billing).
    apply({
      seq: 11,
      stream: `project-${P}`,
      type: 'DrawSubmitted',
      data: { project_id: P },
    } as unknown as SealedEvent);
    expect(memo.for(E).remember('score', () => 'after')).to.equal('after');
    expect(memo.for(E2).remember('score', () => 'recomputed')).to.equal('kept');
  });

  it('forgets on a scan only the entities whose attributed findings it changed, not every party of the project', () => {
    // E (the GC) and E3 each have a finding on P; E2 takes part in P with none. Every governance
    // command records a scan on the way, and a rescan that finds the same stamps `last_scan_id` alone.
    const E3 = 'ent_ffffffffffffffff';
    const F3 = 'FND-gggggggggggggggg';
    const open = (id: string, entity_id: string, scan: string, severity = 'WARNING') =>
      ({
        id,
        project_id: P,
        entity_id,
        severity,
        status: 'OPEN',
        resolved_on: null,
        last_scan_id: scan,
      }) as unknown as FindingRecord;
    const gov: GovernanceState = {
      ...initGovernanceState(),
      findings: { [F]: open(F, E, 'SCN-1'), [F3]: open(F3, E3, 'SCN-1') },
      findings_by_project: { [P]: [F, F3] },
      findings_by_entity: { [E]: [F], [E3]: [F3] },
    };
    const { runtime, apply } = runtimeOf(
      { ...projectsProjection.init(), by_entity: { [E]: [P], [E2]: [P], [E3]: [P] } },
      gov,
    );
    const memo = new FactsMemo(runtime);
    for (const entity of [E, E2, E3]) memo.for(entity).remember('score', () => `${entity} kept`);
    const scanned = (seq: number, scan: string, named: string[]) =>
      apply({
        seq,
        stream: `project-${P}`,
        type: 'ProjectScanned',
        data: {
          project_id: P,
          scan_id: scan,
          findings: named.map((id) => ({ id })),
          opened: [],
          resolved: [],
        },
      } as unknown as SealedEvent);
    const kept = () => [E, E2, E3].map((entity) => memo.for(entity).remember('score', () => 'recomputed'));

    gov.findings = { [F]: open(F, E, 'SCN-2'), [F3]: open(F3, E3, 'SCN-2') };
    scanned(11, 'SCN-2', [F, F3]);
    expect(kept()).to.deep.equal([`${E} kept`, `${E2} kept`, `${E3} kept`]);
    expect(memo.forgotten).to.equal(0);

    gov.findings = { [F]: open(F, E, 'SCN-3'), [F3]: open(F3, E3, 'SCN-3', 'BLOCKING') };
    scanned(12, 'SCN-3', [F, F3]);
    expect(kept()).to.deep.equal([`${E} kept`, `${E2} kept`, 'recomputed']);
    expect(memo.forgotten).to.equal(1);
  });
});
