/**
 * Generic renderers for the methodology's plain-JSON constants. Tables of thresholds are rendered
 * from the objects' own keys, so a constant added to the scoring code shows up on the page without
 * anyone editing a template.
 */
import { html, join, type SafeHtml } from './html.js';

/** Plain JSON as the methodology exports it (readonly, `as const`). */
export type JsonValue =
  string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

function isRecord(value: JsonValue): value is { readonly [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function renderValue(value: JsonValue): SafeHtml {
  if (value === null) return html`<span class="none">none</span>`;
  if (typeof value === 'boolean') return html`${value ? 'yes' : 'no'}`;
  if (typeof value === 'number') return html`<span class="num">${value}</span>`;
  if (typeof value === 'string') return html`${value}`;
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return html`<span class="none">none</span>`;
    return html`<ul class="kv">
      ${entries.map(([k, v]) => html`<li><code>${k}</code>: ${renderValue(v)}</li>`)}
    </ul>`;
  }
  if (value.length === 0) return html`<span class="none">none</span>`;
  if (value.every((v) => !isRecord(v) && !Array.isArray(v)))
    return join(value.map((v, i) => html`${i > 0 ? ', ' : ''}${renderValue(v)}`));
  return html`<ul class="kv">
    ${value.map((v) => html`<li>${renderValue(v)}</li>`)}
  </ul>`;
}

/** A two-column table of every key of a constants object. */
export function keyValueTable(
  caption: string,
  values: { readonly [key: string]: JsonValue },
  id: string,
): SafeHtml {
  return html`<div class="table-wrap">
    <table id="${id}">
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          <th scope="col">constant</th>
          <th scope="col">value</th>
        </tr>
      </thead>
      <tbody>
        ${Object.entries(values).map(
          ([key, value]) =>
            html`<tr data-key="${key}">
              <th scope="row"><code>${key}</code></th>
              <td>${renderValue(value)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
