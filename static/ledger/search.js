// The explorer's server-side search (GET /api/ledger with type, stream, entity and date filters,
// paged by next_cursor) and its audit box (POST /api/audit-verify, showing the verdict and the
// receipt, which it verifies with the log verifier key the reader gave: the verdict is the
// server's word, the receipt is what proves the recording event is in the log, and the event
// itself, fetched and rehashed, must carry the audited hash: its own hash, or one of its artifacts).
// Search results are not contiguous pages, so each one is checked on its own: rehashed (content
// and link hash) and proven in the log by its receipt under a checkpoint signed by the reader's
// log key, consistent with the ones this tab verified (chain.js); its Chain cell says how it went.
import { verifyChain, verifyReceipt } from '/sdk/plumbline.js';
import { fetchEvent } from './api.js';
import { currentLogCheck } from './app.js';
import { ISSUE_TEXT } from './chain.js';

const KEY_STORAGE = 'plumbline.ledger.key';
const LOG_KEY_STORAGE = 'plumbline.ledger.log-key';
const $ = (id) => document.getElementById(id);

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

async function call(path, init = {}) {
  const key = sessionStorage.getItem(KEY_STORAGE);
  const response = await fetch(path, {
    ...init,
    headers: { Authorization: `Bearer ${key}`, Accept: 'application/json', ...(init.headers ?? {}) },
    credentials: 'omit',
    cache: 'no-store',
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok)
    throw new Error(`HTTP ${response.status}: ${body.detail ?? body.title ?? response.statusText}`);
  return body;
}

const search = { query: null, cursor: null, id: 0 };

function filters() {
  const q = new URLSearchParams({ limit: '50' });
  for (const [name, id] of [
    ['type', 'search-type'],
    ['stream', 'search-stream'],
    ['entity', 'search-entity'],
    ['from', 'search-from'],
    ['to', 'search-to'],
  ]) {
    const v = $(id).value.trim();
    if (v !== '') q.set(name, v);
  }
  return q;
}

function resultRow(e) {
  const tr = el('tr');
  const hash = el('td');
  hash.append(el('code', `${e.hash.slice(0, 16)}…`));
  hash.title = e.hash;
  tr.append(
    el('td', e.seq, 'num'),
    el('td', e.type),
    el('td', e.stream),
    el('td', e.recorded_at),
    hash,
    el('td', '… checking', 'chain pending'),
  );
  return tr;
}

/** Null when the browser proves `event` on its own (rehashed, in the signed log); else why not. */
async function proveResult(event) {
  const check = currentLogCheck();
  if (!check) return 'no log verifier key is in use in this tab';
  const chain = verifyChain([event]);
  if (!chain.ok) {
    const code = chain.issues[0]?.code;
    return ISSUE_TEXT[code] ?? code;
  }
  const failure = await check.anchor(event);
  return failure === null ? null : (ISSUE_TEXT[failure] ?? failure);
}

/** Checks each listed result in turn (one receipt each), writing the verdict into its Chain cell. */
async function proveResults(events, rows, id) {
  for (const [i, event] of events.entries()) {
    let failure;
    try {
      failure = await proveResult(event);
    } catch (error) {
      failure = `could not be checked (${error.message})`;
    }
    if (id !== search.id) return; // a new search replaced these rows
    const cell = rows[i].lastElementChild;
    cell.className = failure === null ? 'chain verified' : 'chain broken';
    cell.textContent = failure === null ? '✓ verified' : `✗ not verified: ${failure}`;
    rows[i].classList.toggle('row-broken', failure !== null);
  }
}

async function runSearch(more) {
  const info = $('search-info');
  if (!more) {
    search.query = filters();
    search.cursor = null;
    search.id += 1;
    $('search-rows').replaceChildren();
  }
  const id = search.id;
  const q = new URLSearchParams(search.query);
  if (search.cursor) q.set('cursor', search.cursor);
  info.textContent = 'Searching…';
  info.classList.remove('error');
  try {
    const page = await call(`/api/ledger?${q}`);
    if (id !== search.id) return;
    const rows = page.events.map(resultRow);
    $('search-rows').append(...rows);
    void proveResults(page.events, rows, id);
    search.cursor = page.next_cursor;
    const shown = $('search-rows').children.length;
    $('search-results').hidden = shown === 0;
    $('search-more').hidden = page.next_cursor === null;
    info.textContent =
      page.next_cursor === null
        ? `${shown} matching event(s) in the whole ledger (head seq ${page.head.seq}).`
        : `${shown} matching event(s) so far, searched through seq ${page.scanned_through ?? '…'} of ${page.head.seq}.`;
  } catch (error) {
    info.textContent = `The search failed: ${error.message}`;
    info.classList.add('error');
  }
}

/**
 * What the receipt of an AUTHENTIC answer proves, checked here: null when it proves the recording
 * event the answer names (for an event hash, that very hash) under a checkpoint signed by the log
 * key; else why not, in words.
 */
async function receiptProblem(v, hash) {
  if (!v.receipt) return 'no receipt yet: not checked against the log';
  const logKey = sessionStorage.getItem(LOG_KEY_STORAGE);
  let result;
  try {
    result = await verifyReceipt(v.receipt, logKey);
  } catch (error) {
    return `the receipt could not be checked: ${error.message}`;
  }
  if (!result.valid) return `the receipt does not verify: ${ISSUE_TEXT[result.reason] ?? result.reason}`;
  if (result.seq !== v.match?.seq || (v.match?.kind === 'event' && result.hash !== hash))
    return `the receipt proves another event (seq ${result.seq}), not the one named`;
  return carriageProblem(v.receipt.event, hash);
}

/**
 * Null when the event the receipt proves carries `hash`: fetched in full, it rehashes to the
 * receipt's link (content and link hash) and `hash` is its own hash or one of its artifacts. A
 * proven event that does not carry it proves nothing about it.
 */
async function carriageProblem(link, hash) {
  let event;
  try {
    event = await fetchEvent(sessionStorage.getItem(KEY_STORAGE), link.seq);
  } catch (error) {
    return `event seq ${link.seq} could not be read: ${error.message}`;
  }
  const chain = verifyChain([event]);
  if (!chain.ok) {
    const code = chain.issues[0]?.code;
    return `event seq ${link.seq}: ${ISSUE_TEXT[code] ?? code}`;
  }
  if (event.seq !== link.seq || event.hash !== link.hash || event.content_hash !== link.content_hash)
    return `event seq ${link.seq}: ${ISSUE_TEXT.other_event}`;
  if (event.hash === hash) return null;
  if (event.type === 'Redacted')
    return `event seq ${link.seq} is another organization's (redacted): its content cannot be checked here`;
  const artifacts = Array.isArray(event.data?.artifacts) ? event.data.artifacts : [];
  return artifacts.some((a) => a?.hash === hash) ? null : `event seq ${link.seq} does not carry this hash`;
}

function describeVerdict(v, receiptIssue) {
  const verified = v.verdict === 'AUTHENTIC' && receiptIssue === null;
  const box = el(
    'div',
    undefined,
    v.verdict !== 'AUTHENTIC' || (v.receipt && receiptIssue)
      ? 'chain-status bad'
      : `chain-status ${verified ? 'ok' : 'pending'}`,
  );
  const head = el('p');
  head.append(el('strong', v.verdict), ` — ${v.reason.replaceAll('_', ' ').toLowerCase()}`);
  box.append(head);
  if (v.match)
    box.append(
      el(
        'p',
        `Recorded as ${v.match.kind.replaceAll('_', ' ')} by event seq ${v.match.seq} (${v.match.type}) at ${v.match.recorded_at ?? '—'}.`,
      ),
    );
  box.append(el('p', `Chain verified through seq ${v.chain.verified_through} of ${v.chain.head}.`));
  if (v.verdict === 'AUTHENTIC')
    box.append(
      el(
        'p',
        receiptIssue === null
          ? `Receipt verified with the log key: seq ${v.receipt.event.seq} is in the log's signed tree of ${v.receipt.tree_size} events, and rehashed here it carries this hash.`
          : `Not proven by the log: ${receiptIssue}.`,
        receiptIssue === null ? 'receipt-check' : 'receipt-check error',
      ),
    );
  if (v.receipt) {
    box.append(el('p', 'Receipt (inclusion proof under the signed checkpoint):'));
    box.append(el('pre', JSON.stringify(v.receipt, null, 2), 'receipt'));
  } else if (v.receipt_url) box.append(el('p', `Receipt: ${v.receipt_url}`));
  return box;
}

async function audit(hash) {
  const out = $('audit-result');
  out.replaceChildren(el('p', 'Verifying…'));
  try {
    const verdict = await call('/api/audit-verify', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ hash }),
    });
    const issue = verdict.verdict === 'AUTHENTIC' ? await receiptProblem(verdict, hash) : null;
    out.replaceChildren(describeVerdict(verdict, issue));
  } catch (error) {
    out.replaceChildren(el('p', `The hash could not be verified: ${error.message}`, 'error'));
  }
}

function showSections() {
  const has = sessionStorage.getItem(KEY_STORAGE) !== null && !$('forget-key').hidden;
  $('search-section').hidden = !has;
  $('audit-section').hidden = !has;
}

$('search-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void runSearch(false);
});
$('search-more').addEventListener('click', () => void runSearch(true));
$('audit-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void audit($('audit-hash').value.trim().toLowerCase());
});
// The key belongs to app.js, which shows "Forget key" exactly while one is in use: follow that.
new window.MutationObserver(showSections).observe($('forget-key'), {
  attributes: true,
  attributeFilter: ['hidden'],
});
showSections();
