/**
 * The live bias analysis of the methodology page (DOMAIN §7): the numbers `biasAnalysis` computes
 * over the current ledger, the plain statements it requires (flags are not inputs, the sample size,
 * a screen and not proof), and the server-drawn chart.
 */
import type { BiasAnalysis, BiasGroupResult, BiasSubject } from '../credit/index.js';
import { biasChart, GROUP_LABELS } from './bias-chart.js';
import { html, type SafeHtml } from './html.js';

/** Where the analysis stands in the ledger, printed so a reader can reproduce it. */
export interface BiasAsOf {
  computed_at: string;
  ledger_seq: number;
}

const dash = html`<span class="none" title="not computed">—</span>`;
const num = (v: number | null, digits: number): SafeHtml =>
  v === null ? dash : html`<span class="num">${v.toFixed(digits)}</span>`;
const pct = (v: number | null): SafeHtml =>
  v === null ? dash : html`<span class="num">${(v * 100).toFixed(1)} %</span>`;

function flagCell(g: BiasGroupResult, threshold: number): SafeHtml {
  if (g.status === 'INSUFFICIENT') return html`<td>—</td>`;
  if (g.adverse_impact_ratio === null)
    return html`<td>not computable (no reference entity graded A or B)</td>`;
  return g.adverse_impact_flag
    ? html`<td class="flagged"><strong>below ${threshold}</strong> — flagged</td>`
    : html`<td>at or above ${threshold}</td>`;
}

function groupRow(g: BiasGroupResult, a: BiasAnalysis): SafeHtml {
  const insufficient = g.status === 'INSUFFICIENT';
  return html`<tr data-group="${g.group}" data-status="${g.status}">
    <th scope="row">${GROUP_LABELS[g.group]}</th>
    <td class="num">${g.n}</td>
    <td class="num">${g.reference_n}</td>
    <td>
      ${
        insufficient
          ? html`<span class="insufficient"
              >insufficient (group or reference under ${a.min_group_size})</span
            >`
          : 'analyzed'
      }
    </td>
    <td>${num(g.mean, 1)}</td>
    <td>${num(g.reference_mean, 1)}</td>
    <td>${pct(g.share_ab)}</td>
    <td>${pct(g.reference_share_ab)}</td>
    <td>${num(g.adverse_impact_ratio, 3)}</td>
    ${flagCell(g, a.adverse_impact_threshold)}
    <td>${num(g.standardized_mean_difference, 2)}</td>
  </tr>`;
}

function groupsTable(a: BiasAnalysis): SafeHtml {
  return html`<div class="table-wrap">
    <table id="bias-groups">
      <caption>
        Each group against every governed entity outside it (the reference)
      </caption>
      <thead>
        <tr>
          <th scope="col">group</th>
          <th scope="col">n</th>
          <th scope="col">reference n</th>
          <th scope="col">status</th>
          <th scope="col">mean score</th>
          <th scope="col">reference mean</th>
          <th scope="col">share graded A/B</th>
          <th scope="col">reference share A/B</th>
          <th scope="col">adverse impact ratio</th>
          <th scope="col">four-fifths screen</th>
          <th scope="col">standardized mean difference</th>
        </tr>
      </thead>
      <tbody>
        ${a.groups.map((g) => groupRow(g, a))}
      </tbody>
    </table>
  </div>`;
}

export function biasSection(a: BiasAnalysis, subjects: readonly BiasSubject[], asOf: BiasAsOf): SafeHtml {
  return html`<div class="notice" id="bias-statements">
      <p>
        <strong>Sample size: <span id="bias-sample-size">${a.sample_size}</span> governed entities</strong>,
        computed ${asOf.computed_at} over the ledger through seq ${asOf.ledger_seq}.
      </p>
      <ul>
        ${a.statements.map((s) => html`<li>${s}</li>`)}
      </ul>
    </div>
    ${groupsTable(a)}
    <p>
      Adverse impact ratio = group share graded A or B ÷ reference share graded A or B; below
      ${a.adverse_impact_threshold} the four-fifths screen flags it. Standardized mean difference = (group
      mean − reference mean) ÷ pooled sample standard deviation (Cohen's d). Groups overlap: an entity can be
      in several.
    </p>
    ${biasChart(a, subjects)}`;
}
