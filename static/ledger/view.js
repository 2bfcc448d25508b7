// DOM rendering for the explorer. Everything from the ledger goes in through textContent or
// attributes, never as markup, and looks change by class (the CSP forbids inline styles).

const CHAIN_TEXT = {
  verified: '✓ verified',
  pending: 'not verified yet',
  'after-break': 'after the break — not verified',
};

function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name === 'text') node.textContent = value;
    else if (name === 'className') node.className = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

/** `1a2b3c4d…9f0e`, the full value in the tooltip and for assistive technology. */
export function hashCell(hash) {
  const value = String(hash ?? '');
  const short = value.length > 16 ? `${value.slice(0, 8)}…${value.slice(-4)}` : value;
  return el('td', {}, [el('code', { className: 'hash', title: value, 'aria-label': value, text: short })]);
}

function chainCell(status, broken) {
  if (status === 'broken')
    return el('td', { className: 'chain broken' }, [el('strong', { text: `✗ broken: ${broken.text}` })]);
  return el('td', { className: `chain ${status}`, text: CHAIN_TEXT[status] });
}

/** One table row; the seq is the button that opens the detail view (`onDetails(event)`). */
export function eventRow(event, status, broken, onDetails) {
  const redacted = event.type === 'Redacted';
  const details = el('button', {
    type: 'button',
    className: 'seq-link',
    text: String(event.seq),
    'aria-label': `Details of seq ${event.seq}`,
    title: 'Show this event in full',
  });
  details.addEventListener('click', () => onDetails(event));
  return el('tr', { 'data-seq': String(event.seq), className: `row-${status}` }, [
    el('th', { scope: 'row', className: 'num' }, [details]),
    el('td', { className: redacted ? 'redacted' : '', text: event.type }),
    el('td', {}, [
      redacted ? el('span', { className: 'none', text: '— (redacted)' }) : el('code', { text: event.stream }),
    ]),
    el('td', {}, [
      redacted
        ? // Its time is part of the content this page does not get: no hash it can check covers it.
          el('span', {
            className: 'none',
            text: `${event.recorded_at} (not hash-checked)`,
            title:
              'A redacted event’s time is part of its content, which this page does not receive: no hash it can check covers it',
          })
        : el('time', { datetime: event.recorded_at, text: event.recorded_at }),
    ]),
    hashCell(event.content_hash),
    hashCell(event.prev_hash),
    hashCell(event.hash),
    chainCell(status, broken),
  ]);
}

/**
 * The envelope's fields the hashes cover, in envelope order: the content (what content_hash is
 * computed over, absent from a redacted event) and the link. Anything else a server adds to an
 * event is covered by nothing, so it is not shown beside '✓ verified'.
 */
const ENVELOPE = ['seq', 'id', 'stream', 'type', 'schema', 'data', 'meta', 'recorded_at'];
const LINK = ['content_hash', 'prev_hash', 'hash'];

/**
 * The envelope as JSON, with bidirectional controls (U+202A–U+202E, U+2066–U+2069) written as
 * \u escapes: shown raw, a U+202E in a name reversed the rest of its line. The escaped JSON
 * parses to the same event, less any field no hash covers.
 */
export function eventJson(event) {
  const shown = {};
  // A redacted event's content (its time included) is withheld: only its position, kind and link.
  const covered = event.type === 'Redacted' ? ['seq', 'type', ...LINK] : [...ENVELOPE, ...LINK];
  for (const name of covered) if (Object.hasOwn(event, name)) shown[name] = event[name];
  return JSON.stringify(shown, null, 2).replace(
    /[\u202A-\u202E\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Fills the detail dialog: the three hashes in full and the whole envelope as JSON. */
export function showDetails(dialog, event, status, broken) {
  dialog.querySelector('#detail-h').textContent = `Event seq ${event.seq} — ${event.type}`;
  const hashes = dialog.querySelector('#detail-hashes');
  hashes.replaceChildren();
  const chain = status === 'broken' ? `broken: ${broken.text}` : CHAIN_TEXT[status];
  for (const [name, value] of [
    ['content_hash', event.content_hash],
    ['prev_hash', event.prev_hash],
    ['hash', event.hash],
    ['chain', chain],
  ]) {
    hashes.append(el('dt', { text: name }), el('dd', {}, [el('code', { text: String(value) })]));
  }
  dialog.querySelector('#detail-json').textContent = eventJson(event);
  dialog.showModal();
}

/** The type filter's options: every type on the page, keeping the current choice. */
export function fillTypeOptions(select, events) {
  const current = select.value;
  const types = [...new Set(events.map((e) => e.type))].sort();
  select.replaceChildren(el('option', { value: '', text: 'All types' }));
  for (const type of types) select.append(el('option', { value: type, text: type }));
  select.value = types.includes(current) ? current : '';
}

/** Client-side filter over the page's events. */
export function matches(event, type, stream) {
  if (type && event.type !== type) return false;
  if (!stream) return true;
  return typeof event.stream === 'string' && event.stream.toLowerCase().includes(stream.toLowerCase());
}

/** The banner above the table: what the page was verified against, or the first problem. */
export function renderChainStatus(node, check, page, head, progress) {
  node.classList.remove('pending', 'ok', 'bad');
  node.replaceChildren();
  if (progress.failure) {
    node.classList.add('bad');
    node.append(el('strong', { text: `Could not verify this page: ${progress.failure}` }));
    return null;
  }
  if (check.broken) {
    node.classList.add('bad');
    const text = `Broken link at seq ${check.broken.seq}: ${check.broken.text}.`;
    const after =
      check.verifiedThrough > (page?.after ?? 0)
        ? ` Verified through seq ${check.verifiedThrough} before it.`
        : '';
    node.append(el('strong', { text }), after);
    const show = el('button', { type: 'button', id: 'show-broken', text: `Show seq ${check.broken.seq}` });
    node.append(' ', show);
    return show;
  }
  if (progress.verifying) {
    node.classList.add('pending');
    node.textContent = 'Verifying this page against the log’s signed checkpoint…';
    return null;
  }
  if (!page || page.events.length === 0) {
    node.classList.add('pending');
    node.textContent = 'No events on this page: nothing to verify.';
    return null;
  }
  node.classList.add('ok');
  const redacted =
    check.redacted > 0 ? ` (${check.redacted} redacted events checked at link level only)` : '';
  const atHead = head && head.seq === check.verifiedThrough ? ' — the ledger head' : '';
  const cp = check.checkpoint;
  node.append(
    el('strong', { text: `Verified seq ${page.events[0].seq}–${check.verifiedThrough}` }),
    `${atHead}: in the log ${check.origin}, under its signed checkpoint of ${cp.size} events` +
      `, consistent with every checkpoint seen in this tab${redacted}.`,
  );
  return null;
}
