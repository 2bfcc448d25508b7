// The project page: the reader's projects (GET /api/projects), then one project — its facts, each
// draw with its G702 summary, G703 lines and payment gate (GET /api/draws/:id/gates: the same
// evaluation a payment push runs), findings with evidence and cure, the eleven rails, certification.
import { $, api, describe, gradeClass, h, keyFlow, money, param, plain, say, words } from './common.js';

const G702 = [
  ['1', 'Original contract sum', 'original_contract_sum'],
  ['2', 'Net change by change orders', 'net_change_orders'],
  ['3', 'Contract sum to date', 'contract_sum_to_date'],
  ['4', 'Total completed and stored to date', 'total_completed_and_stored'],
  ['5', 'Retainage', 'retainage'],
  ['6', 'Total earned less retainage', 'total_earned_less_retainage'],
  ['7', 'Less previous certificates for payment', 'previous_certificates'],
  ['8', 'Current payment due', 'current_payment_due'],
  ['9', 'Balance to finish, including retainage', 'balance_to_finish_including_retainage'],
];

const G703 = [
  ['A', 'Item', (l) => l.line, false],
  ['B', 'Description of work', (l) => l.description, false],
  ['C', 'Scheduled value', (l) => money(l.scheduled_value), true],
  ['D', 'From previous application', (l) => money(l.previous), true],
  ['E', 'This period', (l) => money(l.this_period), true],
  ['F', 'Materials presently stored', (l) => money(l.stored_materials), true],
  ['G', 'Completed and stored to date', (l) => money(l.completed_and_stored), true],
  ['H', '% (G ÷ C)', (l) => `${l.percent_complete.toFixed(2)}%`, true],
  ['I', 'Balance to finish (C − G)', (l) => money(l.balance_to_finish), true],
  ['J', 'Retainage', (l) => money(l.retainage), true],
];

function item(label, value) {
  return h('div', {}, h('dt', { text: label }), h('dd', {}, value));
}

function entityLink(id, names) {
  return id ? h('a', { href: `/entity.html?id=${encodeURIComponent(id)}`, text: names.get(id) ?? id }) : '—';
}

/** Legal names of the project's parties (entities are the bureau's, readable by every lender). */
async function partyNames(p) {
  const ids = [p.borrower, p.general_contractor, p.architect].filter(Boolean);
  const found = await Promise.all(
    ids.map((id) => api(`/api/entities/${encodeURIComponent(id)}`).catch(() => null)),
  );
  return new Map(found.filter(Boolean).map((e) => [e.entity_id, e.legal_name]));
}

function facts(p, names) {
  return [
    item('Profile', words(p.profile)),
    item('Borrower', entityLink(p.borrower, names)),
    item('General contractor', entityLink(p.general_contractor, names)),
    item('Architect', entityLink(p.architect, names)),
    item('Loan amount', money(p.loan_amount)),
    item('Equity', money(p.equity)),
    item('Contract sum', money(p.contract_sum)),
    item('Retainage', `${p.retainage_pct}%`),
    item('Schedule', `${p.start_date} → ${p.completion_date} (maturity ${p.maturity_date})`),
    item('Jurisdiction', p.jurisdiction),
  ];
}

function gateList(g) {
  const verdict = g.fundable
    ? h('p', { class: 'verdict yes', text: `Fundable now on ${g.rail}: every gate is met.` })
    : g.status === 'FUNDED'
      ? h('p', { class: 'verdict yes', text: 'Funded.' })
      : h('p', {
          class: 'verdict no',
          text: `Not fundable now: ${g.gates.filter((x) => !x.passed).length} of ${g.gates.length} gates are not met.`,
        });
  return [
    verdict,
    h(
      'ul',
      { class: 'checklist', 'aria-label': 'Payment gate' },
      g.gates.map((x) =>
        h(
          'li',
          { class: x.passed ? 'pass' : 'fail' },
          h('strong', { text: `${x.title}: ${x.passed ? 'met' : 'not met'}` }),
          ` — ${x.detail}.`,
          h('span', { class: 'rule', text: `Rule ${x.gate}: ${x.rule}.` }),
        ),
      ),
    ),
  ];
}

function g702Table(d) {
  return h(
    'table',
    { class: 'g702' },
    h('caption', { text: 'G702 — application for payment' }),
    h(
      'tbody',
      {},
      G702.map(([n, label, key]) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row', text: `${n}. ${label}` }),
          h('td', { class: 'num', text: money(d.summary[key]) }),
        ),
      ),
    ),
  );
}

function g703Table(d) {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'g703' },
      h('caption', { text: 'G703 — continuation sheet' }),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          G703.map(([col, label, , num]) =>
            h('th', { scope: 'col', class: num ? 'num' : null, text: `${col} ${label}` }),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        d.lines.map((l) =>
          h(
            'tr',
            {},
            G703.map(([, , get, num]) => h('td', { class: num ? 'num' : null, text: get(l) })),
          ),
        ),
      ),
    ),
  );
}

/** One draw; the newest is shown open, earlier ones folded (their figures one click away). */
async function drawCard(d, newest) {
  const gates = await api(`/api/draws/${encodeURIComponent(d.id)}/gates`);
  // Each name isolated (<bdi>): a right-to-left name does not reorder the date and roles beside it.
  const signed = d.signatures.flatMap((s, i) => [
    i === 0 ? '' : '; ',
    `${words(s.role)} (`,
    h('bdi', { text: s.signer_name }),
    `, ${s.signed_on})`,
  ]);
  return h(
    'article',
    { class: 'draw-card', id: `draw-${d.id}` },
    h('h3', { text: `Application ${d.application_no} — ${d.id}` }),
    h(
      'p',
      {},
      `Period ${d.period_from} to ${d.period_to}, submitted ${d.submitted_on}. Status: ${words(d.status)}. `,
      `Requested ${money(d.requested_amount)}; compiles ${words(gates.draw_verdict)}. `,
      'Signatures: ',
      signed.length > 0 ? signed : 'none yet',
      '.',
    ),
    h(
      'details',
      { open: newest },
      h('summary', {
        text: d.status === 'FUNDED' ? 'Payment gate and G702/G703 (funded)' : 'Payment gate and G702/G703',
      }),
      h('h4', { text: 'Payment gate' }),
      ...gateList(gates),
      g702Table(d),
      g703Table(d),
    ),
  );
}

function findingRow(f) {
  const cure =
    f.cure.status === 'OPEN'
      ? `Open${f.curable_by_documents ? ' — curable by documents' : ''}`
      : `Resolved ${f.cure.resolved_on ?? ''} ${f.cure.resolved_by === 'resolution' ? `by resolution: ${f.cure.resolution}` : '(the facts no longer raise it)'}${f.cure.evidence_document_id ? `, evidence ${f.cure.evidence_document_id}` : ''}`;
  return h(
    'tr',
    {},
    h('td', { text: words(f.severity) }),
    h('td', {}, h('strong', { text: f.title }), h('br'), f.detail, h('br'), h('code', { text: f.code })),
    h('td', { text: f.draw_id ?? '—' }),
    h('td', { text: f.evidence.map((e) => `${words(e.kind)} ${e.id}`).join(', ') || '—' }),
    h('td', { text: f.arose_on }),
    h('td', { text: cure }),
  );
}

function railsGrid(scan) {
  $('rails-summary').textContent =
    `Overall posture ${words(scan.governance_posture)}, composite ${scan.composite_score} of 100, ${scan.total_findings} rail finding(s).`;
  $('rails').replaceChildren(
    ...scan.rails.map((r) =>
      h(
        'li',
        { class: `posture-${String(r.posture).toLowerCase()}` },
        h('span', { class: 'rail-name', text: words(r.name) }),
        `${words(r.posture)} · ${r.score}`,
        h('br'),
        h('span', { class: 'hint', text: `${r.findings.length} finding(s)` }),
      ),
    ),
  );
}

function certification(c) {
  if (!c) return [h('p', { text: 'Not certified yet.' })];
  return [
    h(
      'p',
      {},
      'Certificate ',
      h('code', { text: c.id }),
      `: grade `,
      h('span', { class: `grade ${gradeClass(c.grade)}`, text: c.grade }),
      `, score ${c.score}, issued ${c.issued_on}, valid until ${c.valid_until} — ${words(c.status)}.`,
    ),
    h('img', {
      class: 'badge-img',
      src: `/api/certification?action=badge&cert=${encodeURIComponent(c.id)}`,
      alt: `Certification badge ${c.grade} ${words(c.status)}`,
    }),
    h('p', {
      class: 'hint',
      text: `Embeddable anywhere: ${c.badge_url} — ${c.show_project_name ? 'shows the project name, as you chose' : 'names no project (you did not choose to show it)'}.`,
    }),
  ];
}

async function show(id) {
  say($('load-status'), 'Loading…');
  try {
    const [p, draws, gov, rails] = await Promise.all([
      api(`/api/projects/${encodeURIComponent(id)}`),
      api(`/api/projects/${encodeURIComponent(id)}/draws?limit=500`),
      api(`/api/projects/${encodeURIComponent(id)}/governance`),
      api(`/api/governance-rails?action=scan_all&project_id=${encodeURIComponent(id)}`),
    ]);
    $('page-title').textContent = plain(p.name);
    document.title = `Plumbline — ${plain(p.name)}`;
    $('facts').replaceChildren(
      ...facts(p, await partyNames(p)),
      item('Open findings', String(gov.open_findings)),
    );
    const newestFirst = [...draws.data].sort((a, b) => b.application_no - a.application_no);
    const cards = await Promise.all(newestFirst.map((d, i) => drawCard(d, i === 0)));
    $('draws').replaceChildren(...(cards.length ? cards : [h('p', { text: 'No draw submitted yet.' })]));
    $('finding-rows').replaceChildren(
      ...(gov.findings.length
        ? gov.findings.map(findingRow)
        : [h('tr', {}, h('td', { colspan: 6, text: 'No findings.' }))]),
    );
    railsGrid(rails);
    $('cert').replaceChildren(...certification(gov.certification));
    $('project').hidden = false;
    say($('load-status'), `As of ${new Date(gov.as_of).toUTCString()}.`);
  } catch (error) {
    $('project').hidden = true;
    say($('load-status'), describe(error), true);
  }
}

async function list() {
  try {
    const projects = await api('/api/projects?limit=100');
    $('projects').replaceChildren(
      ...projects.data.map((p) =>
        h('li', {}, h('a', { href: `/project.html?id=${encodeURIComponent(p.id)}`, text: p.name })),
      ),
    );
    if (projects.data.length === 0) $('projects').replaceChildren(h('li', { text: 'No projects yet.' }));
  } catch (error) {
    say($('load-status'), describe(error), true);
  }
}

keyFlow(() => {
  void list();
  const id = param('id');
  if (id) void show(id);
  else say($('load-status'), 'Choose a project.');
});
