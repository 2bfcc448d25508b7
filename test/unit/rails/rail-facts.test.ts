import { expect } from 'chai';
import type { Observation, ObservationsState, Project, ProjectsState } from '../../../src/projects/facts.js';
import { railFactsFor } from '../../../src/rails/rail-facts.js';
import type { PlatformWatermarks } from '../../../src/rails/rail.js';
import { WORKFORCE_RAIL } from '../../../src/rails/workforce.js';
import {
  certificate,
  changeOrder,
  draw,
  GC,
  NOW,
  obs,
  ORG,
  OTHER_GC,
  OTHER_ORG,
  project,
} from './builders.js';

const A1 = 'prj_alpha00000000001';
const A2 = 'prj_alpha00000000002';
const B1 = 'prj_beta000000000001';
const WATERMARKS: PlatformWatermarks = { ledger_head: { seq: 90, hash: 'b'.repeat(64) } };

function projectsState(): ProjectsState {
  const projects: Project[] = [
    project({ id: A1 }),
    project({ id: A2, general_contractor: OTHER_GC }),
    project({ id: B1, org_id: OTHER_ORG }),
  ];
  const draws = [
    draw('DRW-a1', 40, { project_id: A1 }),
    draw('DRW-b1', 40, { project_id: B1, org_id: OTHER_ORG }),
  ];
  const cos = [
    changeOrder('CO-a2', 5, '2026-06-01', { project_id: A2 }),
    changeOrder('CO-b1', 5, '2026-06-01', { project_id: B1, org_id: OTHER_ORG }),
  ];
  const docs = [
    certificate('COI-a1', { project_id: A1 }),
    certificate('COI-b1', { project_id: B1, org_id: OTHER_ORG }),
  ];
  return {
    projects: Object.fromEntries(projects.map((p) => [p.id, p])),
    draws: Object.fromEntries(draws.map((d) => [d.id, d])),
    change_orders: Object.fromEntries(cos.map((c) => [c.id, c])),
    documents: Object.fromEntries(docs.map((d) => [d.id, d])),
    resolutions: {},
    by_project: {
      // A corrupted index entry pointing at another org's draw: the fact's own org_id must keep it out.
      [A1]: { draw_ids: ['DRW-a1', 'DRW-b1'], change_order_ids: [], document_ids: ['COI-a1'] },
      [A2]: { draw_ids: [], change_order_ids: ['CO-a2'], document_ids: [] },
      [B1]: { draw_ids: ['DRW-b1'], change_order_ids: ['CO-b1'], document_ids: ['COI-b1'] },
    },
    project_ids_by_org: { [ORG]: [A1, A2], [OTHER_ORG]: [B1] },
    resolution_ids_by_org: {},
  };
}

function observationsState(): ObservationsState {
  const observations: Observation[] = [
    obs.payroll('OBS-a1', { project_id: A1, observed_on: '2026-06-08' }),
    obs.payroll('OBS-a2', { project_id: A2, observed_on: '2026-06-09' }),
    obs.payroll('OBS-b1', {
      project_id: B1,
      org_id: OTHER_ORG,
      prevailing_wage_ok: false,
      observed_on: '2026-06-14',
    }),
  ];
  return {
    observations: Object.fromEntries(observations.map((o) => [o.id, o])),
    // OBS-b1 is wrongly listed under ORG as well: the org check on the fact must drop it.
    by_org: { [ORG]: ['OBS-a1', 'OBS-a2', 'OBS-b1'], [OTHER_ORG]: ['OBS-b1'] },
    by_project: { [A1]: ['OBS-a1'], [A2]: ['OBS-a2'], [B1]: ['OBS-b1'] },
    by_entity: { [GC]: ['OBS-a1', 'OBS-a2', 'OBS-b1'] },
  };
}

const ids = (items: readonly { id: string }[]): string[] => items.map((i) => i.id);

describe('railFactsFor (org scoping)', () => {
  it('given two orgs, when org A’s slice is built, then none of org B’s projects or facts enter', () => {
    const f = railFactsFor(projectsState(), observationsState(), ORG, {
      platform: WATERMARKS,
      isDistressed: () => false,
    });
    expect(f.org_id).to.equal(ORG);
    expect(f.project_id).to.equal(null);
    expect(ids(f.projects)).to.deep.equal([A1, A2]);
    expect(ids(f.draws)).to.deep.equal(['DRW-a1']);
    expect(ids(f.change_orders)).to.deep.equal(['CO-a2']);
    expect(ids(f.documents)).to.deep.equal(['COI-a1']);
    expect(ids(f.observations)).to.deep.equal(['OBS-a1', 'OBS-a2']);
    expect(ids(f.portfolio.projects)).to.deep.equal([A1, A2]);
  });

  it('given org B’s wage violation, when org A’s workforce rail evaluates, then it is not counted', () => {
    const f = railFactsFor(projectsState(), observationsState(), ORG, {
      platform: WATERMARKS,
      isDistressed: () => false,
    });
    expect(WORKFORCE_RAIL.evaluate(f, NOW).findings).to.deep.equal([]);
    const b = railFactsFor(projectsState(), observationsState(), OTHER_ORG, {
      platform: WATERMARKS,
      isDistressed: () => false,
    });
    expect(WORKFORCE_RAIL.evaluate(b, NOW).findings.map((x) => x.code)).to.deep.equal([
      'WORKFORCE_WAGE_VIOLATION',
    ]);
  });

  it('given org B’s fresher data, then org A’s rail freshness comes from A’s facts only', () => {
    const f = railFactsFor(projectsState(), observationsState(), ORG, {
      platform: WATERMARKS,
      isDistressed: () => false,
    });
    expect(f.platform.rail_data_last_observed.WORKFORCE).to.equal('2026-06-09');
    expect(f.platform.rail_data_last_observed.SCHEDULE).to.equal('2026-06-02');
    expect(f.platform.rail_data_last_observed.INSURANCE).to.equal('2026-06-01');
    expect(f.platform.rail_data_last_observed.MARKET).to.equal('2026-06-01');
    expect(f.platform.rail_data_last_observed.WEATHER).to.equal(null);
    expect(f.platform.rail_data_last_observed.COUNTERPARTY).to.equal(null);
    expect(f.platform.ledger_head.seq).to.equal(90);
  });

  it('given a project id, then the slice narrows to that project while the portfolio stays org-wide', () => {
    const f = railFactsFor(projectsState(), observationsState(), ORG, {
      project_id: A2,
      platform: WATERMARKS,
      isDistressed: () => false,
    });
    expect(f.project_id).to.equal(A2);
    expect(ids(f.projects)).to.deep.equal([A2]);
    expect(ids(f.draws)).to.deep.equal([]);
    expect(ids(f.change_orders)).to.deep.equal(['CO-a2']);
    expect(ids(f.observations)).to.deep.equal(['OBS-a2']);
    expect(ids(f.portfolio.projects)).to.deep.equal([A1, A2]);
  });

  it('given another org’s project id, then the narrowed slice is empty', () => {
    const f = railFactsFor(projectsState(), observationsState(), ORG, {
      project_id: B1,
      platform: WATERMARKS,
      isDistressed: () => false,
    });
    expect(f.projects).to.deep.equal([]);
    expect(f.draws).to.deep.equal([]);
    expect(f.observations).to.deep.equal([]);
  });

  it('given distressed projects of both orgs, then only the org’s own count, once each, and only its own are asked about', () => {
    const distressed = new Set([B1, A2, 'prj_unknown']);
    const asked: string[] = [];
    const f = railFactsFor(projectsState(), observationsState(), ORG, {
      platform: WATERMARKS,
      isDistressed: (id) => {
        asked.push(id);
        return distressed.has(id);
      },
    });
    expect(f.portfolio.distressed_project_ids).to.deep.equal([A2]);
    expect([...new Set(asked)].sort()).to.deep.equal(f.portfolio.projects.map((p) => p.id));
    expect(asked).to.not.include(B1);
  });

  it('given an org with no index entries, then its slice is empty', () => {
    const f = railFactsFor(projectsState(), observationsState(), 'org_nobody', {
      platform: WATERMARKS,
      isDistressed: () => false,
    });
    expect([f.projects, f.observations, f.portfolio.projects]).to.deep.equal([[], [], []]);
  });
});
