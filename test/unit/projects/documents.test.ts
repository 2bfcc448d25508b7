import { expect } from 'chai';
import { projectsProjection } from '../../../projections/projects.js';
import { idFromUuid } from '../../../src/platform/ids.js';
import { decide, RecordDocumentBody } from '../../../src/projects/index.js';
import { deciderSpec } from '../../support/decider.js';
import {
  ctx,
  D,
  drawBody,
  ENT,
  History,
  invoiceBody,
  ORG_A,
  ORG_B,
  projectBody,
  uuid,
  waiverBody,
} from './fixtures.js';

const spec = deciderSpec(projectsProjection, decide);

/** Org A with two projects, a draw on each; org B with its own project and draw. */
function twoProjects() {
  const h = new History();
  const p1 = h.run(ORG_A, { type: 'RegisterProject', body: projectBody() });
  const p2 = h.run(ORG_A, { type: 'RegisterProject', body: projectBody({ name: 'Second' }) });
  const pb = h.run(ORG_B, { type: 'RegisterProject', body: projectBody() });
  const d1 = h.run(ORG_A, { type: 'SubmitDraw', project_id: p1, body: drawBody() });
  const d2 = h.run(ORG_A, { type: 'SubmitDraw', project_id: p2, body: drawBody() });
  const db = h.run(ORG_B, { type: 'SubmitDraw', project_id: pb, body: drawBody() });
  return { h, p1, p2, pb, d1, d2, db };
}

describe('recording a document (SPEC §5 POST /api/projects/:id/documents)', () => {
  it('records a lien waiver with its WAIV- id, no signature as null and no exceptions as []', () => {
    const { h, p1, d1 } = twoProjects();
    spec
      .given(h.given)
      .when({ type: 'RecordDocument', project_id: p1, body: waiverBody(d1) }, ctx(ORG_A, 9))
      .then([
        {
          id: uuid(9, 5),
          stream: `project-${p1}`,
          type: 'DocumentRecorded',
          schema: 1,
          data: {
            document_id: idFromUuid('WAIV-', uuid(9, 5)),
            project_id: p1,
            type: 'LIEN_WAIVER',
            claimant: ENT.gc,
            draw_id: d1,
            waiver_type: 'CONDITIONAL_PROGRESS',
            amount: D(83_111.1),
            through_date: '2026-02-28',
            signed_on: null,
            executed: false,
            exceptions: [],
          },
        },
      ]);
  });

  const prefixes: [string, Record<string, unknown>][] = [
    [
      'COI-',
      {
        type: 'INSURANCE_CERTIFICATE',
        insured: ENT.gc,
        coverage_type: 'GL',
        limit: D(2_000_000),
        effective_on: '2026-01-01',
        expires_on: '2027-01-01',
        additional_insured: true,
      },
    ],
    [
      'INSP-',
      {
        type: 'INSPECTION_REPORT',
        inspector: ENT.inspector,
        inspected_on: '2026-03-02',
        lines: [{ line: 1, percent_complete: 22.5 }],
        stored_materials_verified: true,
      },
    ],
    ['TTL-', { type: 'TITLE_DATE_DOWN', effective_on: '2026-03-03', new_liens: [] }],
    ['INV-', { type: 'INVOICE', vendor: ENT.vendor, number: 'A-1', amount: D(100), line: 3 }],
    [
      'BOS-',
      {
        type: 'BILL_OF_SALE',
        lines: [{ line: 2, description: 'Rebar', amount: D(12_345.67) }],
        amount: D(12_345.67),
        insured: true,
      },
    ],
  ];
  for (const [prefix, raw] of prefixes) {
    it(`mints a ${prefix} id for a ${String(raw.type)}`, () => {
      const { h, p1 } = twoProjects();
      const [event] = spec
        .given(h.given)
        .when({ type: 'RecordDocument', project_id: p1, body: RecordDocumentBody.parse(raw) }, ctx(ORG_A, 9))
        .thenAccepted();
      expect((event?.data as { document_id: string }).document_id).to.equal(idFromUuid(prefix, uuid(9, 5)));
    });
  }

  it("is NOT_FOUND on another org's project", () => {
    const { h, pb } = twoProjects();
    spec
      .given(h.given)
      .when({ type: 'RecordDocument', project_id: pb, body: invoiceBody() }, ctx(ORG_A, 9))
      .thenRejects('NOT_FOUND');
  });

  it('is refused when a waiver names a draw of another project', () => {
    const { h, p1, d2 } = twoProjects();
    spec
      .given(h.given)
      .when({ type: 'RecordDocument', project_id: p1, body: waiverBody(d2) }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['draw_id'], 'foreign_draw');
  });

  it("reports another org's draw as unknown, not as foreign", () => {
    const { h, p1, db } = twoProjects();
    spec
      .given(h.given)
      .when({ type: 'RecordDocument', project_id: p1, body: waiverBody(db) }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['draw_id'], 'unknown_draw');
  });

  it('is refused when an invoice bills a line not on the SOV', () => {
    const { h, p1 } = twoProjects();
    spec
      .given(h.given)
      .when({ type: 'RecordDocument', project_id: p1, body: invoiceBody({ line: 4 }) }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['line'], 'unknown_sov_line');
  });

  it('is refused when an inspection reports a line not on the SOV', () => {
    const { h, p1 } = twoProjects();
    const body = RecordDocumentBody.parse({
      ...prefixes[1]![1],
      lines: [
        { line: 1, percent_complete: 10 },
        { line: 12, percent_complete: 5 },
      ],
    });
    spec
      .given(h.given)
      .when({ type: 'RecordDocument', project_id: p1, body }, ctx(ORG_A, 9))
      .thenRejects('INVALID_REQUEST', ['lines', 1, 'line'], 'unknown_sov_line');
  });

  // A document reports what happened: a waiver not yet signed, an inspection not yet made or a
  // title date-down not yet run is no evidence. Dated ahead, each would satisfy its rule for as
  // long as it liked — an inspection dated next year never goes stale (INSPECTION_FRESHNESS), a
  // date-down effective in 2030 counts as run after every draw submitted until then (TITLE_DATE_DOWN).
  const ahead: [string, (d1: string) => RecordDocumentBody, (string | number)[]][] = [
    [
      'a waiver signed after today',
      (d1) => waiverBody(d1, { signed_on: '2026-03-16', executed: true }),
      ['signed_on'],
    ],
    [
      'an inspection made after today',
      () => RecordDocumentBody.parse({ ...prefixes[1]![1], inspected_on: '2026-03-16' }),
      ['inspected_on'],
    ],
    [
      'a title date-down effective after today',
      () => RecordDocumentBody.parse({ type: 'TITLE_DATE_DOWN', effective_on: '2030-01-01', new_liens: [] }),
      ['effective_on'],
    ],
    [
      'a lien recorded after today',
      () =>
        RecordDocumentBody.parse({
          type: 'TITLE_DATE_DOWN',
          effective_on: '2026-03-15',
          new_liens: [
            { claimant_name: 'Bayside Concrete Co.', amount: D(42_000), recorded_on: '2026-04-01' },
          ],
        }),
      ['new_liens', 0, 'recorded_on'],
    ],
  ];
  for (const [what, body, path] of ahead) {
    it(`refuses ${what} (out_of_range); today itself is taken`, () => {
      const { h, p1, d1 } = twoProjects();
      spec
        .given(h.given)
        .when({ type: 'RecordDocument', project_id: p1, body: body(d1) }, ctx(ORG_A, 9))
        .thenRejects('INVALID_REQUEST', path, 'out_of_range');
    });
  }
  it('takes a certificate that takes effect after today (a renewal bound ahead) and documents dated today', () => {
    const { h, p1, d1 } = twoProjects();
    const bodies = [
      RecordDocumentBody.parse({ ...prefixes[0]![1], effective_on: '2026-06-01', expires_on: '2027-06-01' }),
      waiverBody(d1, { signed_on: '2026-03-15', executed: true }),
      RecordDocumentBody.parse({ ...prefixes[1]![1], inspected_on: '2026-03-15' }),
      RecordDocumentBody.parse({ type: 'TITLE_DATE_DOWN', effective_on: '2026-03-15', new_liens: [] }),
    ];
    bodies.forEach((body, i) =>
      spec
        .given(h.given)
        .when({ type: 'RecordDocument', project_id: p1, body }, ctx(ORG_A, 9 + i))
        .thenAccepted(),
    );
  });

  it('is refused when the claimant is not in the registry', () => {
    const { h, p1, d1 } = twoProjects();
    spec
      .given(h.given)
      .when(
        { type: 'RecordDocument', project_id: p1, body: waiverBody(d1, { claimant: ENT.stranger }) },
        ctx(ORG_A, 9),
      )
      .thenRejects('INVALID_REQUEST', ['claimant'], 'unknown_entity');
  });
});

describe('the document contract', () => {
  const paths = (raw: unknown) =>
    (RecordDocumentBody.safeParse(raw).error?.issues ?? []).map((i) => i.path.join('.'));

  it('requires signed_on on an executed waiver', () => {
    const raw = { ...JSON.parse(JSON.stringify(waiverBody(idFromUuid('DRW-', uuid(1))))), executed: true };
    expect(paths(raw)).to.deep.equal(['signed_on']);
    expect(paths({ ...raw, signed_on: '2026-03-01' })).to.be.empty;
  });

  it('requires a bill of sale total to equal its lines', () => {
    const raw = {
      type: 'BILL_OF_SALE',
      lines: [{ line: 1, description: 'Steel', amount: 100 }],
      amount: 101,
      insured: true,
    };
    expect(paths(raw)).to.deep.equal(['amount']);
  });

  it('refuses a certificate that expires before it takes effect', () => {
    const raw = {
      type: 'INSURANCE_CERTIFICATE',
      insured: ENT.gc,
      coverage_type: 'AUTO',
      limit: 1,
      effective_on: '2026-05-01',
      expires_on: '2026-04-30',
      additional_insured: false,
    };
    expect(paths(raw)).to.deep.equal(['expires_on']);
  });

  it('refuses an unknown document type and unknown fields', () => {
    expect(RecordDocumentBody.safeParse({ type: 'PERMIT' }).success).to.equal(false);
    expect(
      paths({ type: 'TITLE_DATE_DOWN', effective_on: '2026-03-03', new_liens: [], notes: 'x' }),
    ).to.deep.equal(['']);
  });
});
