// The entity page: find an entity (GET /api/entities?q=), then draw its credit history
// (GET /api/entities/:id/credit) — score line, dimension bars, behavioral timeline, inquiries.
import { $, api, describe, gradeClass, h, keyFlow, param, plain, say, words } from './common.js';
import { barList, lineChart, stackedColumns } from './charts.js';

const CAUSES = {
  CLEAN_FUNDED_DRAWS: 'draws were funded clean in a row',
  WARNING_OPEN: 'a warning finding stayed open',
  COMPOSITE_DROP: 'its composite score dropped sharply',
  BLOCKING_FINDING: 'a blocking finding was opened',
  INSURANCE_LAPSE: 'its insurance lapsed',
  SERIOUS_CITATION: 'it received a serious safety citation',
  SECOND_BLOCKING_FINDING: 'a second blocking finding was opened',
  REMEDIATION_NON_RESPONSIVE: 'it did not respond to findings within the cure period',
  REGISTRY_EXCLUSION: 'a federal exclusion took effect',
  EXCLUSION_TERMINATED: 'its federal exclusion ended',
  QUIET_PERIOD: 'a quiet period passed without adverse facts',
};

function summary(c) {
  const item = (label, value) => h('div', {}, h('dt', { text: label }), h('dd', {}, value));
  return [
    item('Legal name', c.legal_name),
    item('Grade', h('span', { class: `grade ${gradeClass(c.current.grade)}`, text: c.current.grade })),
    item(
      'Composite score',
      `${c.current.composite_score} of 100 (${words(c.current.confidence)} confidence)`,
    ),
    item('Behavioral state', `${words(c.behavioral.state)} since ${c.behavioral.since}`),
    item('Roles', c.roles.map(words).join(', ') || '—'),
    item('Entity id', c.entity_id),
  ];
}

function timeline(b) {
  if (b.transitions.length === 0)
    return [h('li', {}, h('time', { text: b.since }), `${words(b.state)} — no transitions recorded yet`)];
  return b.transitions
    .slice()
    .reverse()
    .map((t) =>
      h(
        'li',
        {},
        h('time', { datetime: t.effective_on, text: t.effective_on }),
        h('strong', { text: `${words(t.from)} → ${words(t.to)}` }),
        ` because ${CAUSES[t.cause] ?? words(t.cause).toLowerCase()}`,
        t.evidence_count ? ` (${t.evidence_count} item${t.evidence_count === 1 ? '' : 's'} of evidence)` : '',
      ),
    );
}

/** A chart's drawing width: its box's (a phone's ~340 px), at most 640, so its text is drawn at size, not shrunk. */
function chartWidth(figure) {
  return Math.max(280, Math.min(640, Math.floor(figure.clientWidth) || 640));
}

async function show(id) {
  say($('load-status'), 'Loading…');
  try {
    const c = await api(`/api/entities/${encodeURIComponent(id)}/credit`);
    $('page-title').textContent = plain(c.legal_name);
    document.title = `Plumbline — ${plain(c.legal_name)}`;
    $('summary').replaceChildren(...summary(c));
    $('reasons').replaceChildren(...c.reason_codes.map((r) => h('li', { text: r.description })));
    $('entity').hidden = false; // shown before the charts are drawn: they take their boxes' widths
    $('history-chart').replaceChildren(
      lineChart(
        c.score_history.map((p) => ({ on: p.on, value: p.composite_score, own: p.yours })),
        {
          width: chartWidth($('history-chart')),
          label: `composite score of ${c.score_history.length} recorded reports`,
        },
      ),
    );
    $('dims-chart').replaceChildren(
      barList(
        c.dimensions.map((d) => ({
          label: words(d.name),
          value: d.score,
          note: `${d.score} ${d.grade} · weight ${d.weight}%`,
          cls: d.insufficient_data ? 'thin' : '',
        })),
        { width: chartWidth($('dims-chart')), label: 'dimension scores' },
      ),
    );
    $('timeline').replaceChildren(...timeline(c.behavioral));
    $('inq-chart').replaceChildren(
      c.inquiries_by_month.length
        ? stackedColumns(
            c.inquiries_by_month.map((m) => ({
              label: m.month,
              parts: [
                { value: m.yours, cls: 'col-yours', name: 'yours' },
                { value: m.other_lenders, cls: 'col-others', name: 'other lenders' },
              ],
            })),
            { width: chartWidth($('inq-chart')), label: 'inquiries by month' },
          )
        : h('p', { class: 'hint', text: 'No credit report has been issued on this entity yet.' }),
    );
    say($('load-status'), `As of ${new Date(c.as_of).toUTCString()}.`);
  } catch (error) {
    $('entity').hidden = true;
    say($('load-status'), describe(error), true);
  }
}

async function search(q) {
  try {
    const found = await api(`/api/entities?limit=20&q=${encodeURIComponent(q)}`);
    $('matches').replaceChildren(
      ...found.data.map((e) =>
        h(
          'li',
          {},
          h('a', { href: `/entity.html?id=${encodeURIComponent(e.entity_id)}`, text: e.legal_name }),
        ),
      ),
    );
    if (found.data.length === 0) say($('load-status'), `No entity matches “${q}”.`);
    else if (found.data.length === 1) location.search = `?id=${encodeURIComponent(found.data[0].entity_id)}`;
  } catch (error) {
    say($('load-status'), describe(error), true);
  }
}

$('find-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const q = $('entity-q').value.trim();
  if (q) void search(q);
});

keyFlow(() => {
  const id = param('id');
  if (id) void show(id);
  else say($('load-status'), 'Search for an entity, or open one from the portfolio.');
});
