// The ledger explorer: key handling, paging (position in the URL fragment, so a reload shows the
// same page), client-side filters, and verification of the page shown against the transparency
// log's signed checkpoint, with the log verifier key the reader gives.
import { describeError, fetchPage, LedgerApiError } from './api.js';
import { LogCheck } from './chain.js';
import { eventRow, fillTypeOptions, matches, renderChainStatus, showDetails } from './view.js';

// sessionStorage, never localStorage: the key dies with the tab and is not shared across tabs.
const KEY_STORAGE = 'plumbline.ledger.key';
const LOG_KEY_STORAGE = 'plumbline.ledger.log-key';
const PAGE_SIZES = [25, 50, 100, 200, 500];

const $ = (id) => document.getElementById(id);
const ui = {
  keyForm: $('key-form'),
  keyInput: $('api-key'),
  logKeyInput: $('log-key'),
  keyStatus: $('key-status'),
  forget: $('forget-key'),
  section: $('events-section'),
  first: $('first-page'),
  prev: $('prev-page'),
  next: $('next-page'),
  last: $('last-page'),
  size: $('page-size'),
  gotoForm: $('goto-form'),
  gotoSeq: $('goto-seq'),
  type: $('filter-type'),
  stream: $('filter-stream'),
  info: $('page-info'),
  chain: $('chain-status'),
  rows: $('event-rows'),
  empty: $('empty-note'),
  dialog: $('detail'),
};

const state = { key: null, check: null, page: null, head: null, verifying: false, failure: null, loadId: 0 };

/** The log check of the key in use (null without one): the checkpoints this tab has verified. */
export function currentLogCheck() {
  return state.check;
}

function position() {
  const params = new URLSearchParams(location.hash.slice(1));
  const after = Math.max(0, Number.parseInt(params.get('after') ?? '0', 10) || 0);
  const limit = Number.parseInt(params.get('limit') ?? '', 10);
  return { after, limit: PAGE_SIZES.includes(limit) ? limit : Number(ui.size.value) };
}

function go(after, limit = position().limit) {
  const next = `#after=${Math.max(0, after)}&limit=${limit}`;
  if (location.hash === next) void load();
  else location.hash = next; // the hashchange listener loads
}

function setKeyStatus(text, bad = false) {
  ui.keyStatus.textContent = text;
  ui.keyStatus.classList.toggle('error', bad);
}

function lastShownSeq() {
  return state.page?.events.at(-1)?.seq ?? state.page?.after ?? 0;
}

function renderChain() {
  if (!state.check) return;
  const show = renderChainStatus(ui.chain, state.check, state.page, state.head, state);
  show?.addEventListener('click', () => go(state.check.broken.seq - 1));
}

function renderRows() {
  const { page, check } = state;
  if (!page) return;
  const type = ui.type.value;
  const stream = ui.stream.value.trim();
  const shown = page.events.filter((e) => matches(e, type, stream));
  const open = (event) => showDetails(ui.dialog, event, check.statusOf(event.seq), check.broken);
  ui.rows.replaceChildren(...shown.map((e) => eventRow(e, check.statusOf(e.seq), check.broken, open)));
  ui.empty.hidden = shown.length > 0 || page.events.length === 0;
  renderChain();
}

function renderPager() {
  const { page, head } = state;
  const first = page.events[0]?.seq;
  const last = page.events.at(-1)?.seq;
  ui.info.textContent =
    first === undefined
      ? `No events after seq ${page.after}; the ledger head is seq ${head.seq}.`
      : `Seq ${first}–${last} of ${head.seq} (page of ${page.limit}).`;
  ui.first.disabled = page.after === 0;
  ui.prev.disabled = page.after === 0;
  ui.next.disabled = (last ?? page.after) >= head.seq;
  ui.last.disabled = (last ?? page.after) >= head.seq;
  ui.size.value = String(page.limit);
}

async function load() {
  if (!state.key) return;
  const id = ++state.loadId;
  const { after, limit } = position();
  try {
    const body = await fetchPage(state.key, after, limit);
    if (id !== state.loadId) return; // a newer navigation won
    state.page = { after, limit, events: body.events };
    state.head = body.head;
    ui.section.hidden = false;
    fillTypeOptions(ui.type, body.events);
    renderPager();
    Object.assign(state, { verifying: true, failure: null });
    renderRows();
    const check = state.check;
    try {
      await check.verifyPage(state.page);
    } catch (error) {
      if (id === state.loadId) state.failure = describeError(error);
    }
    if (id !== state.loadId || check !== state.check) return;
    state.verifying = false;
    renderRows();
  } catch (error) {
    if (id !== state.loadId) return;
    setKeyStatus(describeError(error), true);
    if (error instanceof LedgerApiError && error.status === 401) forgetKey(false);
  }
}

function useKey(key, logKey) {
  let check;
  try {
    check = new LogCheck(key, logKey);
  } catch (error) {
    setKeyStatus(`That is not a log verifier key: ${error.message}`, true);
    return;
  }
  state.key = key;
  state.check = check;
  sessionStorage.setItem(KEY_STORAGE, key);
  sessionStorage.setItem(LOG_KEY_STORAGE, logKey);
  ui.logKeyInput.value = logKey;
  ui.forget.hidden = false;
  setKeyStatus('Using the key from this tab’s session storage. Forget it when you are done.');
  void load();
}

function forgetKey(announce = true) {
  sessionStorage.removeItem(KEY_STORAGE);
  sessionStorage.removeItem(LOG_KEY_STORAGE);
  Object.assign(state, { key: null, check: null, page: null, head: null, verifying: false, failure: null });
  state.loadId += 1;
  ui.forget.hidden = true;
  ui.section.hidden = true;
  ui.rows.replaceChildren();
  ui.keyInput.value = '';
  ui.logKeyInput.value = '';
  if (announce) setKeyStatus('Key forgotten: removed from this tab’s session storage.');
}

ui.keyForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const key = ui.keyInput.value.trim();
  const logKey = ui.logKeyInput.value.trim();
  ui.keyInput.value = '';
  if (key && logKey) useKey(key, logKey);
});
ui.forget.addEventListener('click', () => forgetKey());
ui.first.addEventListener('click', () => go(0));
ui.prev.addEventListener('click', () => go(state.page.after - state.page.limit));
ui.next.addEventListener('click', () => go(lastShownSeq()));
ui.last.addEventListener('click', () => go(state.head.seq - state.page.limit));
ui.size.addEventListener('change', () => go(state.page?.after ?? 0, Number(ui.size.value)));
ui.gotoForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const seq = Number.parseInt(ui.gotoSeq.value, 10);
  if (seq >= 1) go(seq - 1);
});
ui.type.addEventListener('change', renderRows);
ui.stream.addEventListener('input', renderRows);
window.addEventListener('hashchange', () => void load());

const stored = sessionStorage.getItem(KEY_STORAGE);
const storedLogKey = sessionStorage.getItem(LOG_KEY_STORAGE);
if (stored && storedLogKey) useKey(stored, storedLogKey);
