/**
 * The scoring half of the methodology page: grades, the six dimensions with their weights and
 * factors, how scores are computed, and every signal threshold — all read from `METHODOLOGY`.
 */
import type { METHODOLOGY } from '../credit/index.js';
import { html, type SafeHtml } from './html.js';
import { keyValueTable, renderValue } from './values.js';

export type Methodology = typeof METHODOLOGY;
type DimensionEntry = Methodology['dimensions'][number];
type Factor = DimensionEntry['factors'][number];

export function gradesSection(m: Methodology): SafeHtml {
  return html`<div class="table-wrap">
    <table id="grades">
      <caption>
        Grade floors (composite score 0–100)
      </caption>
      <thead>
        <tr>
          <th scope="col">grade</th>
          <th scope="col">minimum composite</th>
        </tr>
      </thead>
      <tbody>
        ${m.grades.map(
          (g) =>
            html`<tr>
              <th scope="row">${g.grade}</th>
              <td class="num">${g.min}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** The summary the browser test reads: one row per dimension with its weight. */
export function weightsTable(m: Methodology): SafeHtml {
  const total = m.dimensions.reduce((sum, d) => sum + d.weight, 0);
  return html`<div class="table-wrap">
    <table id="dimension-weights">
      <caption>
        Dimensions and weights (percent of the composite)
      </caption>
      <thead>
        <tr>
          <th scope="col">dimension</th>
          <th scope="col">weight</th>
          <th scope="col">factors</th>
        </tr>
      </thead>
      <tbody>
        ${m.dimensions.map(
          (d) =>
            html`<tr data-dimension="${d.name}">
              <th scope="row"><code>${d.name}</code></th>
              <td class="num weight">${d.weight}</td>
              <td>
                ${d.factors.map((f, i) => html`${i > 0 ? ', ' : ''}<a href="#factor-${f.code}">${f.code}</a>`)}
              </td>
            </tr>`,
        )}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">total</th>
          <td class="num">${total}</td>
          <td></td>
        </tr>
      </tfoot>
    </table>
  </div>`;
}

function penaltyText(penalty: Factor['penalty']): string {
  switch (penalty.kind) {
    case 'share':
      return `share: up to ${penalty.max_penalty} points × recency-weighted adverse share`;
    case 'points':
      return 'points: Σ recency weight × points per adverse event';
    case 'trir':
      return `TRIR: capped at ${penalty.max_penalty} points`;
  }
}

function factorRow(f: Factor): SafeHtml {
  return html`<tr id="factor-${f.code}">
    <th scope="row"><code>${f.code}</code></th>
    <td>${f.description}</td>
    <td>${f.signal}</td>
    <td>${penaltyText(f.penalty)}</td>
    <td>${f.action}</td>
  </tr>`;
}

function dimensionTable(d: DimensionEntry): SafeHtml {
  return html`<div class="table-wrap">
    <table class="factors" id="dimension-${d.name}">
      <caption>
        <code>${d.name}</code>
        — weight ${d.weight}
      </caption>
      <thead>
        <tr>
          <th scope="col">code</th>
          <th scope="col">factor</th>
          <th scope="col">signal</th>
          <th scope="col">penalty</th>
          <th scope="col">action that removes it</th>
        </tr>
      </thead>
      <tbody>
        ${d.factors.map(factorRow)}
      </tbody>
    </table>
  </div>`;
}

export function dimensionsSection(m: Methodology): SafeHtml {
  return html`${weightsTable(m)} ${m.dimensions.map(dimensionTable)}`;
}

export function scoringSection(m: Methodology): SafeHtml {
  const { findings_measured_from_facts: measured, ...rules } = m.scoring;
  return html`${keyValueTable('How scores are computed', rules, 'scoring-rules')}
    <div class="table-wrap">
      <table id="measured-from-facts">
        <caption>
          Findings a factor already measures from the facts (counted once)
        </caption>
        <thead>
          <tr>
            <th scope="col">finding</th>
            <th scope="col">severity</th>
            <th scope="col">measured by</th>
          </tr>
        </thead>
        <tbody>
          ${measured.map(
            (row) =>
              html`<tr>
                <th scope="row"><code>${row.code}</code></th>
                <td>${row.severity}</td>
                <td>${renderValue(row.by)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

export function thresholdsSection(m: Methodology): SafeHtml {
  return keyValueTable('Signal thresholds', m.thresholds, 'thresholds');
}
