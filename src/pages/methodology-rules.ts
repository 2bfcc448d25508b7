/**
 * The rules half of the methodology page: the behavioral state machine, remediation velocity,
 * conflicts, PRAL eligibility and the SAM business type groups — all read from `METHODOLOGY`.
 */
import { html, type SafeHtml } from './html.js';
import type { Methodology } from './methodology-scoring.js';
import { keyValueTable, renderValue } from './values.js';

export function stateMachineSection(m: Methodology): SafeHtml {
  const sm = m.state_machine;
  return html`<p>
      States: ${sm.states.map((s, i) => html`${i > 0 ? ' → ' : ''}<code>${s}</code>`)}. Every transition is
      recorded as a <code>BehavioralStateChanged</code> event carrying its cause.
    </p>
    <div class="table-wrap">
      <table id="transitions">
        <caption>
          State transitions
        </caption>
        <thead>
          <tr>
            <th scope="col">from</th>
            <th scope="col">to</th>
            <th scope="col">cause code</th>
            <th scope="col">rule</th>
          </tr>
        </thead>
        <tbody>
          ${sm.transitions.map(
            (t) =>
              html`<tr>
                <td>${t.from.map((f, i) => html`${i > 0 ? ', ' : ''}<code>${f}</code>`)}</td>
                <td><code>${t.to}</code></td>
                <td><code>${t.cause}</code></td>
                <td>${t.rule}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    <p>Ordering: ${sm.ordering}.</p>`;
}

export function remediationSection(m: Methodology): SafeHtml {
  const { window_days, ...levels } = m.remediation_velocity;
  return html`<p>Findings of the last <span class="num">${window_days}</span> days are considered.</p>
    ${keyValueTable('Remediation velocity levels', levels, 'remediation')}
    <p>Otherwise <code>PARTIAL</code>; with no findings in the window <code>NO_VIOLATIONS</code>.</p>
    <p>Conflicts counted: ${renderValue(m.conflicts.counts)}.</p>`;
}

function pralColumn(caption: string, id: string, rows: Readonly<Record<string, string>>): SafeHtml {
  return html`<div class="table-wrap">
    <table id="${id}">
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          <th scope="col">${id === 'pral-by-grade' ? 'grade' : 'state'}</th>
          <th scope="col">PRAL</th>
        </tr>
      </thead>
      <tbody>
        ${Object.entries(rows).map(
          ([key, pral]) =>
            html`<tr>
              <th scope="row"><code>${key}</code></th>
              <td><code>${pral}</code></td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

export function eligibilitySection(m: Methodology): SafeHtml {
  const e = m.eligibility;
  return html`<div class="side-by-side">
      ${pralColumn('PRAL by grade', 'pral-by-grade', e.pral_by_grade)}
      ${pralColumn('PRAL by behavioral state', 'pral-by-state', e.pral_by_state)}
    </div>
    <div class="table-wrap">
      <table id="pral-terms">
        <caption>
          What each PRAL allows
        </caption>
        <thead>
          <tr>
            <th scope="col">PRAL</th>
            <th scope="col">payment rails</th>
            <th scope="col">SWIFT where the profile offers it</th>
            <th scope="col">marketplace tier</th>
            <th scope="col">programs</th>
          </tr>
        </thead>
        <tbody>
          ${Object.entries(e.terms).map(
            ([pral, t]) =>
              html`<tr>
                <th scope="row"><code>${pral}</code></th>
                <td>${renderValue(t.rails)}</td>
                <td>${t.swift_when_offered ? 'yes' : 'no'}</td>
                <td><code>${t.tier}</code></td>
                <td>${renderValue(t.programs)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    <p>Rule: ${e.rule}.</p>
    <p>Credit improvement: ${e.credit_improvement}.</p>`;
}

export function businessTypesSection(m: Methodology): SafeHtml {
  return html`<div class="table-wrap">
    <table id="business-types">
      <caption>
        SAM business type codes and the bias-analysis groups they put an entity in
      </caption>
      <thead>
        <tr>
          <th scope="col">SAM code</th>
          <th scope="col">business type</th>
          <th scope="col">groups</th>
        </tr>
      </thead>
      <tbody>
        ${m.bias_analysis.business_type_groups.map(
          (c) =>
            html`<tr>
              <th scope="row"><code>${c.code}</code></th>
              <td>${c.name}</td>
              <td>${c.groups.map((g, i) => html`${i > 0 ? ', ' : ''}<code>${g}</code>`)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
