import { expect } from 'chai';
import {
  createKernelDrawCompiler,
  kernelCompileInput,
  type KernelCompileScan,
} from '../../../src/governance/compile/index.js';
import { scanProject } from '../../../src/governance/scan.js';
import { aDraw, aFundedFirstDraw, anInspection, aProject, aWaiver, GC, SUB } from './fixtures.js';

const NOW = new Date('2026-03-05T12:00:00.000Z');

/** Draw 2 of the fixture project, with an inspection that finds line 1 at 35 % (claimed 50 %). */
function scan(): KernelCompileScan {
  return {
    project: aProject(),
    change_orders: [],
    documents: [
      anInspection([
        { line: 1, percent_complete: 35 },
        { line: 2, percent_complete: 10 },
      ]),
      aWaiver('WAIV-uncogcgcgcgcgcgc', GC, 'DRW-firstfirstfirstf', 'UNCONDITIONAL_PROGRESS', {
        amount: 90_000_00,
      }),
      aWaiver('WAIV-uncosubsubsubsub', SUB, 'DRW-firstfirstfirstf', 'UNCONDITIONAL_PROGRESS', {
        amount: 90_000_00,
      }),
    ],
    draws: [aFundedFirstDraw(), aDraw()],
    resolutions: {},
    contractor_score: 80,
    rail_composite: null,
  };
}

describe('compile for draw wired to the kernel', () => {
  const standing = { entity_id: GC, registration: 'active', excluded: false, pral: 'RELEASE' } as const;
  const result = createKernelDrawCompiler().compile(kernelCompileInput(scan(), aDraw(), standing, NOW));

  it('runs every registered engine to a verdict', () => {
    expect(result.compilation.trace.filter((t) => t.status !== 'FIRED')).to.deep.equal([]);
    expect(result.compilation.layers_executed).to.equal(6);
  });

  it('finds exactly what a full scan finds for the draw, so compile and scan never disagree', () => {
    const scanned = scanProject(scan(), NOW);
    const forDraw = [...scanned.contradictions, ...scanned.temporal].filter(
      (f) => f.draw_id === null || f.draw_id === 'DRW-secondsecondseco',
    );
    expect(result.findings.map((f) => f.id).sort()).to.deep.equal(forDraw.map((f) => f.id).sort());
    expect(
      result.findings.some((f) => f.code === 'INSPECTION_VARIANCE' && f.severity === 'BLOCKING'),
    ).to.equal(true);
  });

  it('grades the project with the kernel’s adequacy and holds the draw for the missing title date-down', () => {
    expect(result.adequacy?.adequacy.vector.contractor.score).to.equal(80);
    expect(result.compilation).to.include({ verdict_status: 'BLOCKED', draw_verdict: 'HOLD' });
    expect(result.verdict?.reasons).to.deep.equal(['BLOCKING: TITLE_DATE_DOWN']);
  });

  it('reduces the draw to the inspected amount once the date-down arrives', () => {
    const withTitle = scan();
    withTitle.documents.push({
      org_id: 'org_test',
      recorded_at: '2026-03-04T00:00:00.000Z',
      recorded_seq: 19,
      id: 'TTL-titletitletitlet',
      project_id: 'prj_harborloftsaaaaa',
      type: 'TITLE_DATE_DOWN',
      effective_on: '2026-03-03',
      new_liens: [],
    });
    const reduced = createKernelDrawCompiler().compile(kernelCompileInput(withTitle, aDraw(), standing, NOW));
    expect(reduced.compilation).to.include({ verdict_status: 'BLOCKED', draw_verdict: 'REDUCED' });
    // line 1 cut from 200k to 140k; 60k less 10 % retainage off the 144k requested
    expect(reduced.verdict?.fundable_amount).to.equal(90_000_00);
  });
});
