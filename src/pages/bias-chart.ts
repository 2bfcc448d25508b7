/**
 * The bias section's chart, drawn on the server as inline SVG (the page runs no scripts): for each
 * group, the share of its members in each 10-point score band beside the same share for everyone
 * outside it, over the grade floors. Groups too small to analyze are named but not drawn, so the
 * chart never shows the scores of a handful of identifiable firms.
 */
import {
  BIAS_GROUPS,
  GRADE_FLOORS,
  biasGroupsOf,
  type BiasAnalysis,
  type BiasGroup,
  type BiasSubject,
} from '../credit/index.js';
import { html, type SafeHtml } from './html.js';

const WIDTH = 760;
const LEFT = 200;
const RIGHT = 740;
const TOP = 34;
const ROW = 86;
const BAR_SPACE = 64;
const BANDS = 10;

export const GROUP_LABELS: Readonly<Record<BiasGroup, string>> = {
  woman_owned: 'Woman-owned',
  minority_owned: 'Minority-owned',
  veteran_owned: 'Veteran-owned',
  small_business: 'Small business',
};

interface Row {
  label: string;
  n: number;
  members: number[] | null;
  reference: number[] | null;
}

const x = (score: number): number => LEFT + ((RIGHT - LEFT) * score) / 100;
const fmt = (v: number): string => v.toFixed(1);

/** Share of scores in each band [0,10), …, [90,100]; the top band includes 100. */
export function bandShares(scores: readonly number[]): number[] {
  const counts = new Array<number>(BANDS).fill(0);
  for (const s of scores) {
    const band = Math.min(BANDS - 1, Math.max(0, Math.floor(s / (100 / BANDS))));
    counts[band] = (counts[band] ?? 0) + 1;
  }
  return counts.map((c) => (scores.length === 0 ? 0 : c / scores.length));
}

/** One bar per non-empty band (an empty outlined bar would still draw a line on the baseline). */
function bars(shares: number[], rowTop: number, kind: 'group' | 'ref'): SafeHtml[] {
  const bandWidth = (RIGHT - LEFT) / BANDS;
  const half = bandWidth / 2 - 2;
  return shares.flatMap((share, band) => {
    if (share === 0) return [];
    const h = share * BAR_SPACE;
    const left = LEFT + band * bandWidth + 1 + (kind === 'ref' ? half + 2 : 0);
    const base = rowTop + BAR_SPACE;
    const title = `${kind === 'group' ? 'group' : 'reference'} ${band * 10}–${band * 10 + 10}: ${Math.round(share * 100)} %`;
    return [
      html`<rect
        class="bar-${kind}"
        x="${fmt(left)}"
        y="${fmt(base - h)}"
        width="${fmt(half)}"
        height="${fmt(h)}"
        ><title>${title}</title></rect
      >`,
    ];
  });
}

function rowMarkup(row: Row, index: number): SafeHtml {
  const top = TOP + index * ROW;
  const label = html`<text class="row-label" x="8" y="${top + 24}">${row.label}</text>
    <text class="row-n" x="8" y="${top + 42}">n = ${row.n}</text>`;
  const axis = html`<line
    class="baseline"
    x1="${LEFT}"
    x2="${RIGHT}"
    y1="${top + BAR_SPACE}"
    y2="${top + BAR_SPACE}"
  />`;
  if (row.members === null)
    return html`${label}${axis}<text class="insufficient" x="${LEFT + 8}" y="${top + 40}">
        insufficient data: fewer than the minimum group size, not drawn
      </text>`;
  return html`${label}${axis}${bars(bandShares(row.members), top, 'group')}
  ${row.reference ? bars(bandShares(row.reference), top, 'ref') : []}`;
}

function gradeLines(height: number): SafeHtml[] {
  return GRADE_FLOORS.filter((g) => g.min > 0).map(
    (g) =>
      html`<line
          class="grade-floor"
          x1="${fmt(x(g.min))}"
          x2="${fmt(x(g.min))}"
          y1="${TOP - 6}"
          y2="${height - 26}"
        />
        <text class="grade-label" x="${fmt(x(g.min) + 3)}" y="${TOP - 10}">${g.grade} ≥ ${g.min}</text>`,
  );
}

function axisTicks(height: number): SafeHtml[] {
  return [0, 20, 40, 60, 80, 100].map(
    (t) => html`<text class="tick" x="${fmt(x(t))}" y="${height - 10}">${t}</text>`,
  );
}

function rowsOf(analysis: BiasAnalysis, subjects: readonly BiasSubject[]): Row[] {
  const groupsOf = new Map(subjects.map((s) => [s, biasGroupsOf(s.business_types)]));
  const scores = (keep: (s: BiasSubject) => boolean): number[] =>
    subjects.filter(keep).map((s) => s.composite_score);
  const all: Row = {
    label: 'All governed entities',
    n: subjects.length,
    members: subjects.length >= analysis.min_group_size ? scores(() => true) : null,
    reference: null,
  };
  return [
    all,
    ...BIAS_GROUPS.map((group): Row => {
      const result = analysis.groups.find((g) => g.group === group);
      const analyzed = result?.status === 'ANALYZED';
      const inGroup = (s: BiasSubject): boolean => groupsOf.get(s)?.has(group) === true;
      return {
        label: GROUP_LABELS[group],
        n: result?.n ?? 0,
        members: analyzed ? scores(inGroup) : null,
        reference: analyzed ? scores((s) => !inGroup(s)) : null,
      };
    }),
  ];
}

export function biasChart(analysis: BiasAnalysis, subjects: readonly BiasSubject[]): SafeHtml {
  const rows = rowsOf(analysis, subjects);
  const height = TOP + rows.length * ROW + 30;
  return html`<figure class="chart">
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 ${WIDTH} ${height}"
      width="${WIDTH}"
      height="${height}"
      role="img"
      aria-labelledby="bias-chart-title bias-chart-desc"
    >
      <title id="bias-chart-title">Composite score distributions by SAM business type group</title>
      <desc id="bias-chart-desc">
        For each group, filled bars show the share of the group's entities in each 10-point score band and
        outlined bars the same share for every entity outside the group. Dashed lines mark the grade floors.
      </desc>
      ${gradeLines(height)} ${rows.map(rowMarkup)} ${axisTicks(height)}
    </svg>
    <figcaption>
      <span class="swatch swatch-group" aria-hidden="true"></span> group
      <span class="swatch swatch-ref" aria-hidden="true"></span> everyone outside the group (reference) —
      share of entities per 10-point composite band; groups below the minimum size are not drawn.
    </figcaption>
  </figure>`;
}
