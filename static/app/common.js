// Shared by the governance pages: the API key (this tab's sessionStorage only, like the ledger
// explorer), same-origin JSON reads with it, element building without innerHTML, and the words a
// reader sees instead of enum names.

const KEY_STORAGE = 'plumbline.key';

export const $ = (id) => document.getElementById(id);

/**
 * Bidirectional embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069). Text
 * holding one shows itself and whatever follows it on the line reordered: a signer named with a
 * U+202E RIGHT-TO-LEFT OVERRIDE turned the dates and roles of the signatures after it around.
 * Right-to-left names never need them (the browser orders those by itself), so they are dropped.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** Text as shown on a page: without bidirectional controls. */
export const plain = (value) => String(value).replace(BIDI_CONTROLS, '');

/** An element with attributes (class, text, href, …) and children; never parses HTML. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'text') el.textContent = plain(v);
    else if (k === 'class') el.className = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : plain(v));
  }
  for (const c of children.flat())
    if (c !== null && c !== undefined) el.append(typeof c === 'string' ? plain(c) : c);
  return el;
}

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

export function storedKey() {
  return sessionStorage.getItem(KEY_STORAGE);
}

/** GET a JSON resource with the stored key as a Bearer token. */
export async function api(path) {
  const key = storedKey();
  const response = await fetch(path, {
    headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
    credentials: 'omit',
    cache: 'no-store',
  });
  if (!response.ok) {
    let detail = response.statusText;
    try {
      const body = await response.json();
      detail = body.detail || body.title || detail;
    } catch {
      // not JSON: keep the status text
    }
    throw new ApiError(response.status, detail);
  }
  return response.json();
}

export function describe(error) {
  if (!(error instanceof ApiError)) return `The service could not be read: ${error.message}`;
  if (error.status === 401) return `The key was refused: ${error.message}`;
  if (error.status === 403)
    return `The key may not read this (it needs the governance:read scope): ${error.message}`;
  if (error.status === 404) return `Not found: ${error.message}`;
  if (error.status === 429) return 'Rate limited; try again in a minute.';
  return `HTTP ${error.status}: ${error.message}`;
}

/**
 * Wires the key form every page carries (#key-form, #api-key, #forget-key, #key-status) and calls
 * `onKey` whenever a key is in place (at load when one is stored).
 */
export function keyFlow(onKey) {
  const form = $('key-form');
  const input = $('api-key');
  const forget = $('forget-key');
  const status = $('key-status');
  const show = () => {
    const has = storedKey() !== null;
    forget.hidden = !has;
    document.body.classList.toggle('has-key', has);
    status.textContent = has
      ? 'A key is in use for this tab (session storage only).'
      : "Kept in this tab's session storage only, and forgotten when the tab closes.";
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const key = input.value.trim();
    if (key === '') return;
    sessionStorage.setItem(KEY_STORAGE, key);
    input.value = '';
    show();
    onKey();
  });
  forget.addEventListener('click', () => {
    sessionStorage.removeItem(KEY_STORAGE);
    show();
    location.reload();
  });
  show();
  if (storedKey() !== null) onKey();
}

/** Sets a status line, marking it as an error when `bad`. */
export function say(el, text, bad = false) {
  el.textContent = plain(text);
  el.classList.toggle('error', bad);
}

const WORDS = {
  EXEMPLARY: 'Exemplary',
  STABLE: 'Stable',
  WATCH: 'On watch',
  CONCERN: 'Concern',
  NON_RESPONSIVE: 'Non-responsive',
  PROVISIONAL: 'Provisional (new)',
  SUBMITTED: 'Submitted',
  FUNDED: 'Funded',
  REJECTED: 'Rejected',
  FUNDABLE: 'Fundable',
  FUNDABLE_WITH_CONDITIONS: 'Fundable with conditions',
  REDUCED: 'Reduced',
  HOLD: 'Hold',
  NOT_FUNDABLE: 'Not fundable',
  BLOCKING: 'Blocking',
  WARNING: 'Warning',
  CRITICAL: 'Critical',
  INFO: 'Info',
  OPEN: 'Open',
  RESOLVED: 'Resolved',
  VALID: 'Valid',
  EXPIRED: 'Expired',
  SUPERSEDED: 'Superseded',
  HEALTHY: 'Healthy',
  ELEVATED: 'Elevated',
};

/** An enum value in words: known ones by the table, others Sentence cased from SNAKE_CASE. */
export function words(value) {
  if (value === null || value === undefined) return '—';
  const s = String(value);
  if (WORDS[s]) return WORDS[s];
  const spaced = s.replace(/_/g, ' ').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
/** Cents as dollars. */
export const money = (cents) => (cents === null || cents === undefined ? '—' : usd.format(cents / 100));

/** The page's query parameter `name`. */
export const param = (name) => new URLSearchParams(location.search).get(name);

/** A CSS class for a grade's band (A+/A, B, C, D/F). */
export function gradeClass(grade) {
  const g = String(grade ?? '').charAt(0);
  return { A: 'band-a', B: 'band-b', C: 'band-c', D: 'band-d', F: 'band-f' }[g] ?? 'band-none';
}
