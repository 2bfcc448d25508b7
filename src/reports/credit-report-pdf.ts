/**
 * The printable credit report (SPEC §8, issue 18), laid out as a bureau report: company identity
 * (EIN masked), the grade on its band, the 12-month score trend, dimension bars, reason codes and
 * the factors that apply in words, the behavioral state and what it means, the PRAL and
 * eligibility, inquiries (other lenders counted, never named), SAM.gov, and provenance with the
 * signed log checkpoint; the provenance hash and ledger anchor are in every page's footer. The only importer of pdfmake. Bytes are deterministic for the same report:
 * the PDF's creation date (and so its file ID) is the report's `as_of`, and only the built-in
 * Helvetica is used (no font files, no clock, no randomness).
 */
import type Pdfmake from 'pdfmake';
import { EXCLUSION_CONFLICT_CODE } from '../credit/conflicts.js';
import { EXCLUSION_COMPOSITE_CAP } from '../credit/constants.js';
import { weightedComposite } from '../credit/score.js';
import type { CreditReport } from '../credit/report.js';
import { gradeBand, monthlyTrend, scoreBar, trendChart, type Content } from './graphics.js';
import { maskEin, PRAL_MEANINGS, sentence, STATE_MEANINGS, words } from './words.js';

const DIMENSION_LABELS: Record<string, string> = {
  payment_integrity: 'Payment integrity',
  draw_accuracy: 'Draw accuracy',
  compliance_standing: 'Compliance standing',
  safety_record: 'Safety record',
  schedule_performance: 'Schedule performance',
  remediation_responsiveness: 'Remediation responsiveness',
};

const BUILT_IN_FACES = new Set(['Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Helvetica-BoldOblique']);

/**
 * pdfmake (with pdfkit and its font machinery) is loaded on the first report, not at import: it is
 * a quarter of a second of CPU that every start of the service (and every CLI that composes it)
 * would otherwise pay for a route most starts never serve.
 */
let loaded: Promise<typeof Pdfmake> | undefined;
function printer(): Promise<typeof Pdfmake> {
  loaded ??= import('pdfmake').then(({ default: pdfmake }) => {
    pdfmake.setFonts({
      Helvetica: {
        normal: 'Helvetica',
        bold: 'Helvetica-Bold',
        italics: 'Helvetica-Oblique',
        bolditalics: 'Helvetica-BoldOblique',
      },
    });
    // The report embeds nothing external: refuse every URL and every local file except the names
    // of PDF's built-in Helvetica faces (pdfkit resolves those internally, no file is read).
    pdfmake.setUrlAccessPolicy(() => false);
    pdfmake.setLocalAccessPolicy((path) => BUILT_IN_FACES.has(path));
    return pdfmake;
  });
  return loaded;
}

const keyValue = (rows: [string, Content][], fontSize?: number, labelWidth = 150): Content => ({
  table: { widths: [labelWidth, '*'], body: rows.map(([k, v]) => [{ text: k, style: 'label' }, v]) },
  layout: 'lightHorizontalLines',
  margin: [0, 2, 0, 8],
  ...(fontSize === undefined ? {} : { fontSize }),
});

/** The signed transparency-log checkpoint covering the report's ledger anchor (printed with it). */
export interface PrintedCheckpoint {
  origin: string;
  size: number;
  /** base64, as in the checkpoint. */
  root: string;
  /** The log key's 8-hex signed-note key id. */
  key_id: string;
}

/**
 * The longest word, in characters, that a cell of the report is sure to hold. Text from the ledger
 * (a legal name, an alias, an import's file name) with a longer one breaks anywhere instead: pdfmake
 * never breaks inside a word, so a 200-character name ran off the page and pushed the grade box
 * beside the identity table out of the report.
 */
const LONGEST_WORD = 30;

/** Text someone furnished, wrapped inside its cell however it is spelled. */
function furnished(text: string, style: Record<string, unknown> = {}): Content {
  const long = text.split(/\s+/).some((word) => [...word].length > LONGEST_WORD);
  return long ? { text, ...style, wordBreak: 'break-all' } : { text, ...style };
}

/** Content width of a LETTER page with the report's margins. */
const WIDTH = 612 - 2 * 48;

/** What the report prints beside the sealed JSON report: identity, history, eligibility, inquiries. */
export interface ReportContext {
  identity: {
    ein: string | null;
    uei: string | null;
    cage: string | null;
    roles: readonly string[];
    aliases: readonly string[];
  };
  /** Recorded reports on the entity, oldest first (the score trend). */
  reports: readonly { on: string; composite_score: number }[];
  eligibility: {
    pral: string;
    rationale: readonly string[];
    eligible_payment_rails: readonly string[];
    marketplace_tier: string;
    programs: readonly string[];
  } | null;
  /** Recorded inquiries, each marked as the reader's own or another lender's (never named). */
  inquiries: readonly { on: string; yours: boolean }[];
}

/** Who stands behind a dimension (the JSON report's `furnishers`): how many distinct furnishers. */
function furnishedBy(furnishers: number): string {
  return furnishers === 0 ? ', no furnisher' : `, ${furnishers} furnisher${furnishers === 1 ? '' : 's'}`;
}

function dimensionBars(report: CreditReport): Content {
  const rows = Object.entries(report.credit.dimensions).map(([name, d]) => [
    { text: DIMENSION_LABELS[name] ?? words(name), style: 'label' },
    scoreBar(d.score, 160, d.insufficient_data),
    { text: `${d.score}  ${d.grade}`, bold: true },
    `weight ${d.weight}%`,
    d.insufficient_data
      ? { text: `thin data (prior 70)${furnishedBy(d.furnishers)}`, italics: true, color: '#555555' }
      : `${d.signals} signal${d.signals === 1 ? '' : 's'}${furnishedBy(d.furnishers)}`,
  ]);
  return {
    table: { widths: [120, 162, 34, 50, '*'], body: rows },
    layout: 'noBorders',
    margin: [0, 2, 0, 6],
  };
}

/** Factors that cost the entity points; factors with no impact do not apply and are not printed. */
function factorRows(report: CreditReport): Content {
  const rows = Object.entries(report.credit.dimensions).flatMap(([name, d]) =>
    d.factors
      .filter((f) => f.impact < 0)
      .map((f) => [DIMENSION_LABELS[name] ?? words(name), f.description, `${f.impact} pts`]),
  );
  if (rows.length === 0) return { text: 'No factor takes points off any dimension.', margin: [0, 2, 0, 8] };
  const header = ['Dimension', 'Factor', 'Impact'].map((t) => ({ text: t, style: 'th' }));
  return {
    table: { headerRows: 1, widths: [130, '*', 50], body: [header, ...rows] },
    layout: 'lightHorizontalLines',
    margin: [0, 2, 0, 8],
  };
}

function identityTable(r: CreditReport, ctx: ReportContext | undefined): Content {
  const reg = r.contractor_registry;
  const registry = `${reg.registration === 'active' ? 'Active SAM.gov registration' : 'No active SAM.gov registration'}; ${reg.exclusions === 'clear' ? 'no exclusion on record' : 'ACTIVE FEDERAL EXCLUSION'}`;
  return keyValue(
    [
      ['Legal name', furnished(r.entity, { bold: true })],
      ...(ctx && ctx.identity.aliases.length > 0
        ? ([['Also known as', furnished(ctx.identity.aliases.join('; '))]] as [string, Content][])
        : []),
      ['EIN', ctx ? maskEin(ctx.identity.ein) : 'Not shown'],
      ['UEI (SAM.gov)', ctx?.identity.uei ?? 'Not on file'],
      ['CAGE code', ctx?.identity.cage ?? 'Not on file'],
      ['Roles', ctx && ctx.identity.roles.length > 0 ? ctx.identity.roles.map(words).join(', ') : '—'],
      ['Registry status', registry],
      ['Bureau id', r.entity_id],
    ],
    undefined,
    90,
  );
}

function gradeBox(r: CreditReport): Content {
  return {
    stack: [
      {
        columns: [
          { width: 60, text: r.credit.grade, fontSize: 40, bold: true },
          {
            width: '*',
            stack: [
              { text: `${r.credit.composite_score} / 100`, fontSize: 16, bold: true },
              {
                text: `Composite score · ${words(r.credit.confidence)} confidence (${r.credit.confidence_basis.signals} signals, ${r.credit.confidence_basis.projects} projects)`,
              },
              ...capNote(r),
              { text: `Behavioral state: ${words(r.behavioral.state)}` },
            ],
            margin: [0, 6, 0, 0],
          },
        ],
      },
      { ...(gradeBand(r.credit.composite_score, 220) as object), margin: [0, 8, 0, 0] },
    ],
  };
}

/**
 * Why the composite is not the weighted mean of the dimensions printed below it: an active federal
 * exclusion caps it (reason code CS02, first when it binds). Nothing when the cap does not bind.
 */
function capNote(r: CreditReport): Content[] {
  const weighted = weightedComposite(r.credit.dimensions);
  if (!r.credit.reason_codes.some((c) => c.code === 'CS02') || weighted <= r.credit.composite_score)
    return [];
  return [
    {
      text: `Capped at ${EXCLUSION_COMPOSITE_CAP} while a federal exclusion is active (the weighted dimensions give ${weighted})`,
      bold: true,
    },
  ];
}

function reasonList(r: CreditReport): Content {
  if (r.credit.reason_codes.length === 0)
    return { text: 'No factor lowers the score: nothing adverse is on record.', margin: [0, 2, 0, 8] };
  return {
    ol: r.credit.reason_codes.map((c) => ({
      text: [{ text: c.description, bold: true }, `  (code ${c.code})`],
    })),
    margin: [0, 2, 0, 8],
  };
}

function behaviorSection(r: CreditReport): Content[] {
  const b = r.behavioral;
  return [
    { text: 'Behavioral state', style: 'h2' },
    {
      text: [
        { text: `${words(b.state)}`, bold: true },
        ` since ${b.since}${b.previous_state ? ` (previously ${words(b.previous_state)})` : ''}. `,
        STATE_MEANINGS[b.state] ?? '',
      ],
      margin: [0, 0, 0, 6],
    },
  ];
}

function eligibilitySection(ctx: ReportContext | undefined): Content[] {
  const e = ctx?.eligibility;
  if (!e) return [];
  return [
    { text: 'Payment release recommendation (PRAL) and eligibility', style: 'h2' },
    keyValue([
      ['Recommendation', { text: `${words(e.pral)} — ${PRAL_MEANINGS[e.pral] ?? ''}`, bold: true }],
      ['Why', e.rationale.map(sentence).join('; ') || '—'],
      [
        'Eligible payment rails',
        e.eligible_payment_rails.length > 0 ? e.eligible_payment_rails.map(words).join(', ') : 'None',
      ],
      [
        'Marketplace access',
        `${words(e.marketplace_tier)}${e.programs.length > 0 ? `: ${e.programs.map(words).join(', ')}` : ''}`,
      ],
    ]),
  ];
}

function inquirySection(r: CreditReport, ctx: ReportContext | undefined): Content[] {
  if (!ctx) return [];
  const since = monthlyTrend(r.as_of, [])[0]!.month;
  const recent = ctx.inquiries.filter((i) => i.on.slice(0, 7) >= since);
  const yours = recent.filter((i) => i.yours).length;
  const last = ctx.inquiries.at(-1)?.on ?? '—';
  return [
    { text: 'Inquiries', style: 'h2' },
    keyValue([
      [
        'Last 12 months',
        `${recent.length} report(s) issued: ${yours} by you, ${recent.length - yours} by other lenders (not named)`,
      ],
      ['All time', `${ctx.inquiries.length} report(s)`],
      ['Most recent', last],
    ]),
  ];
}

function conflictsAndRemediation(r: CreditReport): Content[] {
  const items =
    r.conflicts.items.length === 0
      ? 'none'
      : r.conflicts.items
          .map((i) =>
            // An exclusion is the firm's own, on no project; a finding's project id is withheld
            // from other lenders (conflictsOf), so null names no project for two different reasons.
            i.code === EXCLUSION_CONFLICT_CODE
              ? `Active federal exclusion (SAM.gov) since ${i.since}`
              : `${words(i.code)} on ${i.project_id ?? 'another lender’s project'} since ${i.since}`,
          )
          .join('; ');
  return [
    { text: 'Conflicts and remediation', style: 'h2' },
    keyValue([
      ['Conflicts', `${words(r.conflicts.status)} — ${r.conflicts.active_conflicts} active (${items})`],
      [
        'Findings',
        `${r.remediation.open_findings} open, ${r.remediation.resolved_findings} resolved; ${r.remediation.median_days_to_cure === null ? 'no cure on record yet' : `median ${r.remediation.median_days_to_cure} days to cure`}`,
      ],
      ['Remediation velocity', words(r.remediation.velocity)],
    ]),
  ];
}

function samSection(r: CreditReport): Content[] {
  const reg = r.contractor_registry;
  return [
    { text: 'Federal contractor registry (SAM.gov)', style: 'h2' },
    keyValue([
      ['Registration', words(reg.registration)],
      ['Exclusions', reg.exclusions === 'clear' ? 'None on record' : 'Active exclusion on record'],
      [
        'Source',
        furnished(
          `${words(reg.source.kind)}${reg.source.file ? ` (${reg.source.file})` : ''}, data as of ${reg.source.as_of}`,
        ),
      ],
      ['Checked at', reg.checked_at],
    ]),
  ];
}

function provenanceSection(r: CreditReport, checkpoint: PrintedCheckpoint | undefined): Content[] {
  return [
    { text: 'Provenance', style: 'h2' },
    {
      text: 'To verify this report, POST its provenance hash to /api/audit-verify: the answer is AUTHENTIC while the ledger that recorded it is intact. The ledger event is included in the transparency log under the signed checkpoint below.',
      italics: true,
      fontSize: 7.5,
    },
    keyValue(
      [
        ['Provenance hash (SHA-256)', r.provenance_hash],
        ['SHA3-256', r.provenance.sha3_256],
        ['BLAKE2b-256', r.provenance.blake2b_256],
        ['Ledger anchor', `seq ${r.provenance.ledger.seq}, hash ${r.provenance.ledger.hash}`],
        ...(checkpoint
          ? ([
              ['Log checkpoint', `${checkpoint.origin}, size ${checkpoint.size}`],
              ['Checkpoint root', checkpoint.root],
              ['Log key id', checkpoint.key_id],
            ] as [string, Content][])
          : []),
      ],
      7.5,
    ),
  ];
}

export function creditReportDocument(
  report: CreditReport,
  checkpoint?: PrintedCheckpoint,
  ctx?: ReportContext,
): Record<string, unknown> {
  const r = report;
  const trend = monthlyTrend(r.as_of, ctx?.reports ?? []);
  return {
    pageSize: 'LETTER',
    pageMargins: [48, 44, 48, 60],
    info: {
      title: `Plumbline credit report — ${r.entity}`,
      author: 'Plumbline',
      subject: r.entity_id,
      creationDate: new Date(r.as_of),
    },
    defaultStyle: { font: 'Helvetica', fontSize: 9 },
    styles: {
      title: { fontSize: 17, bold: true },
      h2: { fontSize: 11, bold: true, margin: [0, 8, 0, 3], color: '#1f3f66' },
      label: { bold: true },
      th: { bold: true },
      footer: { fontSize: 7, color: '#444444' },
    },
    content: [
      {
        columns: [
          { text: 'Governance credit report', style: 'title' },
          { text: `Report as of ${r.as_of.slice(0, 10)}`, alignment: 'right', margin: [0, 6, 0, 0] },
        ],
      },
      {
        canvas: [{ type: 'line', x1: 0, y1: 4, x2: WIDTH, y2: 4, lineWidth: 1, lineColor: '#1f5fa8' }],
        margin: [0, 0, 0, 8],
      },
      {
        columns: [
          { width: '*', stack: [identityTable(r, ctx)] },
          { width: 230, stack: [gradeBox(r)] },
        ],
        columnGap: 16,
      },
      { text: 'Composite score, last 12 months', style: 'h2' },
      trendChart(trend, WIDTH),
      {
        text: 'One point per month in which a report was issued (the month’s last). Shaded bands are grades F to A.',
        fontSize: 7,
        color: '#555555',
        margin: [0, 2, 0, 0],
      },
      { text: 'Dimensions', style: 'h2' },
      dimensionBars(r),
      { text: 'Reason codes (most adverse first)', style: 'h2' },
      reasonList(r),
      { text: 'Factors that apply', style: 'h2' },
      factorRows(r),
      // Each section stays on one page: a heading never ends a page apart from its table.
      ...[
        behaviorSection(r),
        eligibilitySection(ctx),
        inquirySection(r, ctx),
        conflictsAndRemediation(r),
        samSection(r),
        provenanceSection(r, checkpoint),
      ]
        .filter((section) => section.length > 0)
        .map((section) => ({ stack: section, unbreakable: true })),
    ],
    footer: (page: number, pages: number) => ({
      margin: [48, 16, 48, 0],
      stack: [
        { text: `Provenance hash ${r.provenance_hash}`, style: 'footer' },
        {
          columns: [
            { text: `Ledger seq ${r.provenance.ledger.seq} · ${r.provenance.ledger.hash}`, style: 'footer' },
            { text: `Page ${page} of ${pages}`, style: 'footer', alignment: 'right', width: 60 },
          ],
        },
      ],
    }),
  };
}

export async function renderCreditReportPdf(
  report: CreditReport,
  checkpoint?: PrintedCheckpoint,
  ctx?: ReportContext,
): Promise<Buffer> {
  const pdfmake = await printer();
  const doc = pdfmake.createPdf(creditReportDocument(report, checkpoint, ctx) as never) as unknown as {
    getBuffer(): Promise<Buffer>;
  };
  return doc.getBuffer();
}
