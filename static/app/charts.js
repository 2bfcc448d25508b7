// Small SVG charts drawn in the page (no library, no server images): a sparkline, a line chart
// over dated points, horizontal bars, and vertical stacked bars. SVG presentation attributes only
// (the CSP allows no inline styles); colours come from classes in app.css.

const NS = 'http://www.w3.org/2000/svg';

function s(tag, attrs = {}, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

function svg(width, height, label) {
  return s('svg', { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': label });
}

/** A 0–100 sparkline of scores, oldest first. */
export function sparkline(values, width = 96, height = 24) {
  const root = svg(width, height, values.length ? `score trend: ${values.join(', ')}` : 'no reports yet');
  root.classList.add('spark');
  if (values.length === 0) {
    root.append(s('line', { x1: 2, y1: height / 2, x2: width - 2, y2: height / 2, class: 'spark-none' }));
    return root;
  }
  const x = (i) => (values.length === 1 ? width / 2 : 2 + (i * (width - 4)) / (values.length - 1));
  const y = (v) => height - 2 - (Math.max(0, Math.min(100, v)) * (height - 4)) / 100;
  root.append(
    s('polyline', { points: values.map((v, i) => `${x(i)},${y(v)}`).join(' '), class: 'spark-line' }),
  );
  const last = values.length - 1;
  root.append(s('circle', { cx: x(last), cy: y(values[last]), r: 2, class: 'spark-dot' }));
  return root;
}

/** A line chart of {on: 'YYYY-MM-DD', value} points on a 0–100 axis with grade bands. */
/** The grades' score bands: GRADE_FLOORS of src/credit/constants.ts (A ≥ 90, B ≥ 80, C ≥ 65, D ≥ 50, F). */
const GRADE_BANDS = [
  [90, 100, 'band-a'],
  [80, 90, 'band-b'],
  [65, 80, 'band-c'],
  [50, 65, 'band-d'],
  [0, 50, 'band-f'],
];

export function lineChart(points, { width = 640, height = 220, label = 'score history' } = {}) {
  const root = svg(width, height, label);
  root.classList.add('line-chart');
  const left = 36,
    right = 12,
    top = 10,
    bottom = 28;
  const w = width - left - right,
    hgt = height - top - bottom;
  const y = (v) => top + hgt - (v * hgt) / 100;
  for (const [from, to, cls] of GRADE_BANDS)
    root.append(s('rect', { x: left, y: y(to), width: w, height: y(from) - y(to), class: `band ${cls}` }));
  for (const v of [0, 20, 40, 60, 80, 100]) {
    root.append(s('line', { x1: left, x2: left + w, y1: y(v), y2: y(v), class: 'grid' }));
    root.append(s('text', { x: left - 6, y: y(v) + 4, class: 'axis', 'text-anchor': 'end' }, String(v)));
  }
  if (points.length === 0) {
    root.append(
      s(
        'text',
        { x: left + w / 2, y: top + hgt / 2, class: 'axis', 'text-anchor': 'middle' },
        'No recorded reports yet',
      ),
    );
    return root;
  }
  const times = points.map((p) => Date.parse(`${p.on}T00:00:00Z`));
  const t0 = Math.min(...times),
    t1 = Math.max(...times);
  const x = (t) => (t1 === t0 ? left + w / 2 : left + ((t - t0) * w) / (t1 - t0));
  root.append(
    s('polyline', {
      points: points.map((p, i) => `${x(times[i])},${y(p.value)}`).join(' '),
      class: 'series',
    }),
  );
  points.forEach((p, i) => {
    const dot = s('circle', {
      cx: x(times[i]),
      cy: y(p.value),
      r: 3,
      class: p.own === false ? 'dot other' : 'dot',
    });
    dot.append(s('title', {}, `${p.on}: ${p.value}`));
    root.append(dot);
  });
  root.append(s('text', { x: left, y: height - 8, class: 'axis' }, points[0].on));
  root.append(
    s('text', { x: left + w, y: height - 8, class: 'axis', 'text-anchor': 'end' }, points.at(-1).on),
  );
  return root;
}

/** Horizontal 0–100 bars: [{label, value, note, cls}]. */
export function barList(rows, { width = 640, label = 'dimensions' } = {}) {
  // Narrower than a label, a bar and its note side by side (a phone): each label and note above its bar.
  const stacked = width < 520;
  const rowH = stacked ? 42 : 26,
    labelW = stacked ? 0 : 210,
    valueW = stacked ? 0 : 150,
    barY = stacked ? 20 : 4;
  const height = rows.length * rowH + 8;
  const root = svg(width, height, label);
  root.classList.add('bar-list');
  const w = width - labelW - valueW;
  rows.forEach((r, i) => {
    const y = 4 + i * rowH;
    root.append(s('text', { x: 0, y: y + 16, class: 'bar-label' }, r.label));
    root.append(s('rect', { x: labelW, y: y + barY, width: w, height: 16, class: 'bar-track' }));
    root.append(
      s('rect', {
        x: labelW,
        y: y + barY,
        width: Math.max(0, (Math.min(100, r.value) * w) / 100),
        height: 16,
        class: `bar ${r.cls ?? ''}`,
      }),
    );
    const note = r.note ?? String(r.value);
    root.append(
      stacked
        ? s('text', { x: width, y: y + 14, class: 'bar-value', 'text-anchor': 'end' }, note)
        : s('text', { x: labelW + w + 8, y: y + 16, class: 'bar-value' }, note),
    );
  });
  return root;
}

/** Vertical stacked bars per category: [{label, parts: [{value, cls, name}]}]. */
export function stackedColumns(columns, { width = 640, height = 200, label = 'counts' } = {}) {
  const root = svg(width, height, label);
  root.classList.add('columns');
  const left = 30,
    bottom = 28,
    top = 8;
  const hgt = height - top - bottom;
  const max = Math.max(1, ...columns.map((c) => c.parts.reduce((n, p) => n + p.value, 0)));
  const slot = (width - left) / Math.max(1, columns.length);
  const bw = Math.min(36, slot * 0.7);
  root.append(s('line', { x1: left, x2: width, y1: top + hgt, y2: top + hgt, class: 'grid' }));
  root.append(s('text', { x: left - 6, y: top + 10, class: 'axis', 'text-anchor': 'end' }, String(max)));
  columns.forEach((c, i) => {
    let y = top + hgt;
    const x = left + i * slot + (slot - bw) / 2;
    for (const p of c.parts) {
      if (p.value === 0) continue;
      const ph = (p.value * hgt) / max;
      y -= ph;
      const rect = s('rect', { x, y, width: bw, height: ph, class: p.cls });
      rect.append(s('title', {}, `${c.label}: ${p.value} ${p.name}`));
      root.append(rect);
    }
    root.append(
      s('text', { x: x + bw / 2, y: height - 10, class: 'axis', 'text-anchor': 'middle' }, c.label),
    );
  });
  return root;
}
