/**
 * Escaped HTML for the server-rendered pages. Every interpolation into the `html` tag is escaped
 * unless it is already `SafeHtml` (built by this tag), so text from the ledger or the scoring code
 * can never become markup; the page template is filled only with `SafeHtml` slots.
 */

/** Markup this module produced; the only thing that is ever inserted unescaped. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** What may be interpolated: text and numbers are escaped, nested markup and lists are kept. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  // null, undefined and false render as nothing so `cond && html\`…\`` reads naturally.
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Joins fragments without a separator (a list of rows, say). */
export function join(parts: readonly HtmlValue[]): SafeHtml {
  return new SafeHtml(render(parts));
}

const SLOT = /\{\{([a-z_]+)\}\}/g;

/**
 * Fills `{{slot}}` markers of a page template. A marker without a value, or a value without a
 * marker, throws: a template and its renderer that disagree must fail loudly, not drop a section.
 */
export function fillTemplate(template: string, slots: Readonly<Record<string, SafeHtml>>): SafeHtml {
  const seen = new Set<string>();
  const out = template.replace(SLOT, (_marker, name: string) => {
    const value = Object.hasOwn(slots, name) ? slots[name] : undefined;
    if (value === undefined) throw new Error(`template slot {{${name}}} has no value`);
    seen.add(name);
    return value.value;
  });
  const unused = Object.keys(slots).filter((name) => !seen.has(name));
  if (unused.length > 0) throw new Error(`template has no slot for ${unused.join(', ')}`);
  return new SafeHtml(out);
}
