import { expect } from 'chai';
import { planDemo, DEMO_TODAY } from '../../../src/demo/dataset.js';
import { finalSteps } from '../../../src/demo/governance.js';
import type { ProjectModel } from '../../../src/demo/model.js';

/** The labels of the demo's `today` steps on a path for a project (`<draw ref>: simulate`). */
const labels = (m: ProjectModel, path: string): string[] =>
  finalSteps(m, DEMO_TODAY)
    .filter((s) => s.draft.path === path)
    .map((s) => s.draft.label);
const simulated = (m: ProjectModel) => labels(m, '/api/simulate');
const compiled = (m: ProjectModel) => labels(m, '/api/dependency-graph');

/**
 * The demo's `today` compile and simulation: a funded draw answers 409 to both (each weighs a funding
 * decision already made), so the seeder names only an application it does not fund, and none when
 * every application is funded.
 */
describe('demo final steps: compile and simulation name a draw that can still be decided', () => {
  const plan = planDemo();

  it('simulates each project’s application under review, never a funded one', () => {
    for (const m of plan.projects) {
      const open = m.draws.filter((d) => !d.fund).at(-1);
      expect(simulated(m), m.ref).to.deep.equal(open ? [`${open.ref}: simulate`] : []);
      expect(compiled(m), m.ref).to.deep.equal(open ? [`${open.ref}: compile for draw`] : []);
      expect(open, m.ref).to.not.equal(undefined);
    }
  });

  it('simulates nothing once every application is funded', () => {
    const m = plan.projects[0]!;
    const allFunded: ProjectModel = {
      ...m,
      draws: m.draws.map((d) => ({ ...d, fund: true, pending: false })),
    };
    expect(simulated(allFunded)).to.deep.equal([]);
    expect(compiled(allFunded)).to.deep.equal([]);
    expect(finalSteps(allFunded, DEMO_TODAY).map((s) => s.draft.path)).to.include('/api/certification');
  });
});
