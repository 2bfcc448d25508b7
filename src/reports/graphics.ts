/**
 * The report's graphics as pdfmake vector canvases (no images, no fonts beyond Helvetica): the
 * grade on its band, the 12-month score trend, and a bar per dimension. Band edges are the grade
 * floors (DOMAIN preamble: A ≥ 90, B ≥ 80, C ≥ 65, D ≥ 50, F below).
 */
import { GRADE_FLOORS } from '../credit/constants.js';

export type Content = Record<string, unknown> | string | Content[];

/** Fill colours per grade, best first (print-safe, distinguishable in greyscale by position). */
const BAND_COLOURS: Readonly<Record<string, string>> = {
  A: '#2e7d46',
  B: '#6aa84f',
  C: '#e3b23c',
  D: '#e07b39',
  F: '#b3261e',
};

/** Bands from worst to best: [grade, from, to]. */
function bands(): [string, number, number][] {
  const floors = [...GRADE_FLOORS].reverse();
  return floors.map((f, i) => [f.grade, f.min, floors[i + 1]?.min ?? 100]);
}

/** The grade band: coloured segments 0–100 with a marker at the score, grade letters under them. */
export function gradeBand(score: number, width: number): Content {
  const x = (v: number) => (v * width) / 100;
  const segs = bands();
  const marker = x(Math.max(0, Math.min(100, score)));
  return {
    stack: [
      {
        canvas: [
          ...segs.map(([g, from, to]) => ({
            type: 'rect',
            x: x(from),
            y: 8,
            w: x(to) - x(from),
            h: 14,
            color: BAND_COLOURS[g],
          })),
          {
            type: 'polyline',
            points: [
              { x: marker - 5, y: 0 },
              { x: marker + 5, y: 0 },
              { x: marker, y: 8 },
            ],
            closePath: true,
            color: '#1d2733',
          },
          { type: 'line', x1: marker, y1: 8, x2: marker, y2: 24, lineWidth: 1.5, lineColor: '#1d2733' },
        ],
      },
      {
        columns: segs.map(([g, from, to]) => ({
          width: x(to) - x(from),
          text: from === 0 ? `${g} <${to}` : `${g} ${from}+`,
          alignment: 'center',
          fontSize: 6.5,
          color: '#444444',
        })),
        columnGap: 0,
        margin: [0, 2, 0, 0],
      },
    ],
  };
}

export interface TrendPoint {
  /** YYYY-MM */
  month: string;
  /** The month's last recorded composite score, or null when no report was issued that month. */
  score: number | null;
}

/** A line over 12 monthly points on a 0–100 axis, with faint grade bands, month labels and the scores. */
export function trendChart(points: readonly TrendPoint[], width: number, height = 90): Content {
  const left = 0;
  const w = width - left;
  const y = (v: number) => height - (v * height) / 100;
  const slot = w / points.length;
  const px = (i: number) => left + slot * i + slot / 2;
  const canvas: Record<string, unknown>[] = bands().map(([g, from, to]) => ({
    type: 'rect',
    x: left,
    y: y(to),
    w,
    h: y(from) - y(to),
    color: BAND_COLOURS[g],
    fillOpacity: 0.12,
  }));
  for (const v of [0, 50, 100])
    canvas.push({
      type: 'line',
      x1: left,
      y1: y(v),
      x2: left + w,
      y2: y(v),
      lineWidth: 0.4,
      lineColor: '#999999',
    });
  const known = points.flatMap((p, i) => (p.score === null ? [] : [{ x: px(i), y: y(p.score) }]));
  if (known.length > 1)
    canvas.push({ type: 'polyline', points: known, lineWidth: 1.6, lineColor: '#1f5fa8' });
  for (const k of known) canvas.push({ type: 'ellipse', x: k.x, y: k.y, r1: 2.4, r2: 2.4, color: '#1f5fa8' });
  return {
    stack: [
      { canvas },
      {
        columns: points.map((p) => ({
          width: slot,
          text: monthLabel(p.month),
          alignment: 'center',
          fontSize: 6.5,
          color: '#444444',
        })),
        columnGap: 0,
        margin: [left, 2, 0, 0],
      },
      {
        columns: points.map((p) => ({
          width: slot,
          text: p.score === null ? '·' : String(p.score),
          alignment: 'center',
          fontSize: 7,
          bold: true,
        })),
        columnGap: 0,
        margin: [left, 1, 0, 0],
      },
    ],
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
function monthLabel(month: string): string {
  const [yyyy, mm] = month.split('-');
  const name = MONTHS[Number(mm) - 1] ?? mm ?? '';
  return mm === '01' ? `${name} ${yyyy ?? ''}` : name;
}

/** The 12 calendar months ending with `asOf`'s, each with its last recorded score. */
export function monthlyTrend(
  asOf: string,
  reports: readonly { on: string; composite_score: number }[],
): TrendPoint[] {
  const year = Number(asOf.slice(0, 4));
  const month = Number(asOf.slice(5, 7));
  const months: string[] = [];
  for (let back = 11; back >= 0; back -= 1) {
    const m = new Date(Date.UTC(year, month - 1 - back, 1));
    months.push(m.toISOString().slice(0, 7));
  }
  return months.map((m) => {
    const inMonth = reports.filter((r) => r.on.slice(0, 7) === m);
    return { month: m, score: inMonth.at(-1)?.composite_score ?? null };
  });
}

/** One horizontal 0–100 bar (a dimension's score), grey when the dimension lacks data. */
export function scoreBar(score: number, width: number, thin: boolean): Content {
  return {
    canvas: [
      { type: 'rect', x: 0, y: 1, w: width, h: 9, color: '#eef1f5' },
      {
        type: 'rect',
        x: 0,
        y: 1,
        w: (Math.max(0, Math.min(100, score)) * width) / 100,
        h: 9,
        color: thin ? '#9aa5b1' : '#1f5fa8',
      },
    ],
  };
}
