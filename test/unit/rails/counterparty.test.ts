import { expect } from 'chai';
import type { Project } from '../../../src/projects/facts.js';
import {
  COUNTERPARTY_DISTRESSED_PROJECTS,
  COUNTERPARTY_GC_SHARE_PCT,
  COUNTERPARTY_HHI_LIMIT,
  COUNTERPARTY_RAIL,
  exposureByGc,
  herfindahl,
} from '../../../src/rails/counterparty.js';
import type { RailFacts } from '../../../src/rails/rail.js';
import { facts, NOW, project, railTable } from './builders.js';

/** One project per (GC, loan in $M), ids prj_0, prj_1, … */
function portfolio(loans: readonly [string, number][], distressed: string[] = []): RailFacts {
  const projects: Project[] = loans.map(([gc, millions], i) =>
    project({ id: `prj_${i}`, general_contractor: gc, loan_amount: millions * 100_000_000 }),
  );
  const f = facts({ projects });
  return { ...f, portfolio: { ...f.portfolio, distressed_project_ids: distressed } };
}

describe('COUNTERPARTY rail (DOMAIN §8)', () => {
  it('uses the documented thresholds', () => {
    expect([
      COUNTERPARTY_GC_SHARE_PCT,
      COUNTERPARTY_HHI_LIMIT,
      COUNTERPARTY_DISTRESSED_PROJECTS,
    ]).to.deep.equal([25, 2500, 3]);
  });

  railTable(COUNTERPARTY_RAIL, [
    {
      given: 'four GCs with exactly 25 % each (HHI exactly 2,500)',
      facts: portfolio([
        ['ent_a', 25],
        ['ent_b', 25],
        ['ent_c', 25],
        ['ent_d', 25],
      ]),
      codes: [],
      posture: 'NOMINAL',
    },
    {
      given:
        'five GCs whose HHI is exactly 2,500 ($49M, 37, 19, 18 and 13 of 136; the squared shares sum to 2,500.0000000000005)',
      facts: portfolio([
        ['ent_a', 49],
        ['ent_b', 37],
        ['ent_c', 19],
        ['ent_d', 18],
        ['ent_e', 13],
      ]),
      codes: ['COUNTERPARTY_GC_CONCENTRATION', 'COUNTERPARTY_GC_CONCENTRATION'],
    },
    {
      given: 'four GCs at exactly 25 % each of $18 trillion (exposure × 100 is past 2^53 cents)',
      facts: facts({
        projects: ['ent_a', 'ent_b', 'ent_c', 'ent_d'].map((gc, i) =>
          project({ id: `prj_${i}`, general_contractor: gc, loan_amount: 459_647_867_464_379 }),
        ),
      }),
      codes: [],
      posture: 'NOMINAL',
    },
    {
      given: 'one GC at 26 % among five (HHI 2,046)',
      facts: portfolio([
        ['ent_a', 26],
        ['ent_b', 19],
        ['ent_c', 19],
        ['ent_d', 18],
        ['ent_e', 18],
      ]),
      codes: ['COUNTERPARTY_GC_CONCENTRATION'],
      posture: 'NOMINAL',
    },
    {
      given: 'two GCs at 50 % each (HHI 5,000)',
      facts: portfolio([
        ['ent_a', 50],
        ['ent_b', 50],
      ]),
      codes: ['COUNTERPARTY_GC_CONCENTRATION', 'COUNTERPARTY_GC_CONCENTRATION', 'COUNTERPARTY_HHI'],
      posture: 'ELEVATED',
    },
    {
      given: 'a GC on two distressed projects (five GCs at 20 % each)',
      facts: portfolio(
        [
          ['ent_a', 10],
          ['ent_a', 10],
          ['ent_b', 20],
          ['ent_c', 20],
          ['ent_d', 20],
          ['ent_e', 20],
        ],
        ['prj_0', 'prj_1'],
      ),
      codes: [],
    },
    {
      given: 'a GC on three distressed projects (24 % of exposure, HHI 2,020)',
      facts: portfolio(
        [
          ['ent_a', 8],
          ['ent_a', 8],
          ['ent_a', 8],
          ['ent_b', 19],
          ['ent_c', 19],
          ['ent_d', 19],
          ['ent_e', 19],
        ],
        ['prj_0', 'prj_1', 'prj_2'],
      ),
      codes: ['COUNTERPARTY_DISTRESSED_GC'],
      severities: ['CRITICAL'],
      posture: 'CRITICAL',
    },
  ]);

  it('computes exposure shares and HHI in percent', () => {
    const f = portfolio([
      ['ent_a', 60],
      ['ent_b', 30],
      ['ent_c', 10],
    ]);
    const exposures = exposureByGc(f.portfolio.projects);
    expect(exposures.map((e) => [e.general_contractor, e.share_pct])).to.deep.equal([
      ['ent_a', 60],
      ['ent_b', 30],
      ['ent_c', 10],
    ]);
    expect(herfindahl(exposures)).to.equal(4600);
  });

  it('given a view narrowed to one project, then only its GC is judged and HHI stays in the org view', () => {
    const f = portfolio([
      ['ent_a', 50],
      ['ent_b', 50],
    ]);
    const own = f.projects.filter((p) => p.id === 'prj_1');
    const narrowed: RailFacts = { ...f, project_id: 'prj_1', projects: own };
    const findings = COUNTERPARTY_RAIL.evaluate(narrowed, NOW).findings;
    expect(findings.map((x) => [x.code, x.entity_id])).to.deep.equal([
      ['COUNTERPARTY_GC_CONCENTRATION', 'ent_b'],
    ]);
  });
});
