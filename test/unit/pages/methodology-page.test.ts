import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { METHODOLOGY, biasAnalysis, gradeFor, type BiasSubject } from '../../../src/credit/index.js';
import { bandShares } from '../../../src/pages/bias-chart.js';
import { renderMethodologyPage, STATIC_DIR } from '../../../src/pages/index.js';

const template = readFileSync(join(STATIC_DIR, 'compliance-methodology.html'), 'utf8');

function subject(id: string, score: number, types: string[]): BiasSubject {
  return { entity_id: id, business_types: types, composite_score: score, grade: gradeFor(score) };
}

/** Five woman-owned firms scoring lower than five others: AIR 0.4 / 0.6 → flagged (DOMAIN §7). */
const subjects = [
  subject('w1', 90, ['A2']),
  subject('w2', 85, ['8W']),
  subject('w3', 70, ['A2']),
  subject('w4', 60, ['A2']),
  subject('w5', 50, ['8W']),
  subject('o1', 95, []),
  subject('o2', 88, []),
  subject('o3', 82, []),
  subject('o4', 75, []),
  subject('o5', 60, []),
];

function render(list: BiasSubject[] = subjects): string {
  return renderMethodologyPage({
    template,
    methodology: METHODOLOGY,
    bias: biasAnalysis(list),
    subjects: list,
    asOf: { computed_at: '2026-06-15T12:00:00.000Z', ledger_seq: 42 },
  }).value;
}

describe('compliance methodology page rendering', () => {
  it('prints every dimension with its weight and every factor code from METHODOLOGY', () => {
    const page = render();
    for (const d of METHODOLOGY.dimensions) {
      expect(page).to.match(
        new RegExp(
          `data-dimension="${d.name}">\\s*<th scope="row"><code>${d.name}</code></th>\\s*<td class="num weight">${d.weight}</td>`,
        ),
      );
      for (const f of d.factors) expect(page).to.include(`id="factor-${f.code}"`);
    }
  });

  it('prints every threshold key and every transition cause', () => {
    const page = render();
    for (const key of Object.keys(METHODOLOGY.thresholds)) expect(page).to.include(`data-key="${key}"`);
    for (const t of METHODOLOGY.state_machine.transitions) expect(page).to.include(`<code>${t.cause}</code>`);
  });

  it('flags the group under the four-fifths screen and states the sample and the caveats', () => {
    const page = render();
    expect(page).to.match(/data-group="woman_owned" data-status="ANALYZED"/);
    expect(page).to.match(
      /<span class="num">0\.667<\/span><\/td>\s*<td class="flagged"><strong>below 0\.8<\/strong>/,
    );
    expect(page).to.include('<span id="bias-sample-size">10</span>');
    expect(page).to.include('a screen, not proof');
    expect(page).to.include('not inputs to the score');
  });

  it('marks small groups insufficient and draws no bars for them', () => {
    const page = render(subjects.slice(0, 4));
    expect(page).to.match(/data-group="woman_owned" data-status="INSUFFICIENT"/);
    expect(page).not.to.include('class="bar-');
  });

  it('is a complete page with no script and no inline style', () => {
    const page = render();
    expect(page).not.to.match(/\{\{[a-z_]+\}\}/);
    expect(page).not.to.match(/<script|style=|\son[a-z]+=/i);
  });
});

describe('bias chart score bands', () => {
  it('puts 0 in the first band and 100 in the last, as shares of the group', () => {
    expect(bandShares([0, 9.9, 10, 100])).to.deep.equal([0.5, 0.25, 0, 0, 0, 0, 0, 0, 0, 0.25]);
    expect(bandShares([])).to.deep.equal(new Array(10).fill(0));
  });
});
