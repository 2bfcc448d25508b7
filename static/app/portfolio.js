// The portfolio page: GET /api/portfolio, sorted and paged by the server (cursor → next_cursor);
// the sort and page live in the URL fragment so a reload shows the same view.
import { $, api, describe, gradeClass, h, keyFlow, say, words } from './common.js';
import { sparkline } from './charts.js';

const state = { cursors: [undefined], page: 0, next: null };

function view() {
  const p = new URLSearchParams(location.hash.slice(1));
  return { sort: p.get('sort') ?? 'name', order: p.get('order') === 'desc' ? 'desc' : 'asc' };
}

function row(e) {
  return h(
    'tr',
    {},
    h('td', {}, h('a', { href: `/entity.html?id=${encodeURIComponent(e.entity_id)}`, text: e.entity })),
    h('td', {}, h('span', { class: `grade ${gradeClass(e.grade)}`, text: e.grade })),
    h('td', { class: 'num', text: e.composite_score }),
    h('td', { text: words(e.behavioral_state) }),
    h('td', {}, sparkline(e.trend)),
    h('td', { class: 'num', text: e.open_findings }),
  );
}

async function load() {
  const { sort, order } = view();
  for (const th of document.querySelectorAll('th[data-sort]'))
    th.setAttribute(
      'aria-sort',
      th.dataset.sort === sort ? (order === 'asc' ? 'ascending' : 'descending') : 'none',
    );
  const limit = $('page-size').value;
  const cursor = state.cursors[state.page];
  const q = new URLSearchParams({ sort, order, limit });
  if (cursor) q.set('cursor', cursor);
  say($('load-status'), 'Loading…');
  try {
    const body = await api(`/api/portfolio?${q}`);
    $('rows').replaceChildren(...body.data.map(row));
    state.next = body.next_cursor;
    const first = state.page * Number(limit) + 1;
    $('page-info').textContent = body.data.length
      ? `${first}–${first + body.data.length - 1} of ${body.total}`
      : 'No governed entities yet.';
    $('prev').disabled = state.page === 0;
    $('next').disabled = state.next === null;
    say($('load-status'), `As of ${new Date(body.as_of).toUTCString()}.`);
  } catch (error) {
    say($('load-status'), describe(error), true);
  }
}

function restart() {
  state.cursors = [undefined];
  state.page = 0;
  void load();
}

for (const th of document.querySelectorAll('th[data-sort]')) {
  th.querySelector('button').addEventListener('click', () => {
    const { sort, order } = view();
    const next = th.dataset.sort;
    const dir = next === sort ? (order === 'asc' ? 'desc' : 'asc') : next === 'name' ? 'asc' : 'desc';
    location.hash = `sort=${next}&order=${dir}`;
  });
}
window.addEventListener('hashchange', restart);
$('page-size').addEventListener('change', restart);
$('next').addEventListener('click', () => {
  if (state.next === null) return;
  state.cursors[state.page + 1] = state.next;
  state.page += 1;
  void load();
});
$('prev').addEventListener('click', () => {
  if (state.page === 0) return;
  state.page -= 1;
  void load();
});

keyFlow(restart);
