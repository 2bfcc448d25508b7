/**
 * The printable credit report (SPEC §8): every field of the JSON report, the dimension table,
 * reason codes, registry check and behavioral state, with the provenance hash and ledger anchor in
 * every page's footer. The only importer of pdfmake. Bytes are deterministic for the same report:
 * the PDF's creation date (and so its file ID) is the report's `as_of`, and only the built-in
 * Helvetica is used (no font files, no clock, no randomness).
 */
import pdfmake from 'pdfmake';
import type { CreditReport } from '../credit/report.js';

type Content = Record<string, unknown> | string | Content[];

const DIMENSION_LABELS: Record<string, string> = {
  payment_integrity: 'Payment integrity',
  draw_accuracy: 'Draw accuracy',
  compliance_standing: 'Compliance standing',
  safety_record: 'Safety record',
  schedule_performance: 'Schedule performance',
  remediation_responsiveness: 'Remediation responsiveness',
};

const BUILT_IN_FACES = new Set(['Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Helvetica-BoldOblique']);

let configured = false;
function printer(): typeof pdfmake {
  if (!configured) {
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
    configured = true;
  }
  return pdfmake;
}

const keyValue = (rows: [string, string][], fontSize?: number): Content => ({
  table: { widths: [150, '*'], body: rows.map(([k, v]) => [{ text: k, style: 'label' }, { text: v }]) },
  layout: 'lightHorizontalLines',
  margin: [0, 2, 0, 8],
  ...(fontSize === undefined ? {} : { fontSize }),
});

function dimensionTable(report: CreditReport): Content {
  const header = ['Dimension', 'Score', 'Grade', 'Weight', 'Signals', 'Data'].map((t) => ({
    text: t,
    style: 'th',
  }));
  const rows = Object.entries(report.credit.dimensions).map(([name, d]) => [
    DIMENSION_LABELS[name] ?? name,
    String(d.score),
    d.grade,
    `${d.weight}%`,
    String(d.signals),
    d.insufficient_data ? 'insufficient (prior 70)' : 'sufficient',
  ]);
  return {
    table: { headerRows: 1, widths: ['*', 40, 40, 45, 45, 110], body: [header, ...rows] },
    layout: 'lightHorizontalLines',
    margin: [0, 2, 0, 10],
  };
}

function factorRows(report: CreditReport): Content {
  const rows = Object.entries(report.credit.dimensions).flatMap(([name, d]) =>
    d.factors.map((f) => [DIMENSION_LABELS[name] ?? name, f.code, String(f.impact), f.description]),
  );
  if (rows.length === 0) return { text: 'No adverse factors.', margin: [0, 2, 0, 10] };
  const header = ['Dimension', 'Code', 'Impact', 'Description'].map((t) => ({ text: t, style: 'th' }));
  return {
    table: { headerRows: 1, widths: [110, 40, 45, '*'], body: [header, ...rows] },
    layout: 'lightHorizontalLines',
    margin: [0, 2, 0, 10],
  };
}

/** The signed transparency-log checkpoint covering the report's ledger anchor (printed with it). */
export interface PrintedCheckpoint {
  origin: string;
  size: number;
  /** base64, as in the checkpoint. */
  root: string;
  /** The log key's 8-hex signed-note key id. */
  key_id: string;
}

export function creditReportDocument(
  report: CreditReport,
  checkpoint?: PrintedCheckpoint,
): Record<string, unknown> {
  const r = report;
  const reasons: Content =
    r.credit.reason_codes.length === 0
      ? 'None.'
      : { ul: r.credit.reason_codes.map((c) => `${c.code} — ${c.description}`) };
  const conflicts: Content =
    r.conflicts.items.length === 0
      ? 'None.'
      : {
          ul: r.conflicts.items.map(
            (i) => `${i.code} on ${i.project_id ?? 'another lender’s project'} since ${i.since}`,
          ),
        };
  const registry = r.contractor_registry;
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
      title: { fontSize: 18, bold: true },
      h2: { fontSize: 11, bold: true, margin: [0, 6, 0, 2] },
      label: { bold: true },
      th: { bold: true },
      grade: { fontSize: 30, bold: true },
      footer: { fontSize: 7, color: '#444444' },
    },
    content: [
      { text: 'Governance credit report', style: 'title' },
      { text: `${r.entity}  (${r.entity_id})`, fontSize: 12, margin: [0, 2, 0, 2] },
      { text: `As of ${r.as_of}`, margin: [0, 0, 0, 10] },
      {
        columns: [
          { width: 90, stack: [{ text: r.credit.grade, style: 'grade' }, { text: 'grade' }] },
          keyValue([
            ['Composite score', `${r.credit.composite_score} / 100`],
            ['Confidence', r.credit.confidence],
            ['Behavioral state', r.behavioral.state],
            ['Conflicts', `${r.conflicts.status} (${r.conflicts.active_conflicts} active)`],
            ['Remediation velocity', r.remediation.velocity],
          ]),
        ],
      },
      { text: 'Dimensions', style: 'h2' },
      dimensionTable(r),
      { text: 'Factors', style: 'h2' },
      factorRows(r),
      { text: 'Reason codes (most adverse first)', style: 'h2' },
      reasons,
      { text: 'Behavioral state', style: 'h2' },
      keyValue([
        ['State', r.behavioral.state],
        ['Since', r.behavioral.since],
        ['Previous state', r.behavioral.previous_state ?? '—'],
        ['Last assessed', r.behavioral.last_assessed],
      ]),
      { text: 'Conflicts', style: 'h2' },
      conflicts,
      { text: 'Remediation', style: 'h2' },
      keyValue([
        ['Velocity', r.remediation.velocity],
        ['Open findings', String(r.remediation.open_findings)],
        ['Resolved findings', String(r.remediation.resolved_findings)],
        [
          'Median days to cure',
          r.remediation.median_days_to_cure === null ? '—' : String(r.remediation.median_days_to_cure),
        ],
      ]),
      { text: 'Federal contractor registry (SAM.gov)', style: 'h2' },
      keyValue([
        ['Registration', registry.registration],
        ['Exclusions', registry.exclusions],
        ['Checked at', registry.checked_at],
        [
          'Source',
          `${registry.source.kind}${registry.source.file ? ` ${registry.source.file}` : ''}, as of ${registry.source.as_of}`,
        ],
      ]),
      { text: 'Provenance', style: 'h2' },
      {
        text: 'Verify this report: POST /api/audit-verify with the provenance hash answers AUTHENTIC while the ledger that recorded it is intact.',
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
              ] as [string, string][])
            : []),
        ],
        7.5,
      ),
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
): Promise<Buffer> {
  const doc = printer().createPdf(creditReportDocument(report, checkpoint) as never) as unknown as {
    getBuffer(): Promise<Buffer>;
  };
  return doc.getBuffer();
}
