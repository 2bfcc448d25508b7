import { expect } from 'chai';
import request from 'supertest';
import type { IssuedKey } from '../../src/orgs/keys.js';
import { SqliteEventStore } from '../../src/platform/event-store/sqlite.js';
import { AdequacyResultSchema, ScanResultSchema } from '../../src/openapi/responses.js';
import { firstDrawBody, projectBody } from '../support/api-fixtures.js';
import { startService, type TestService } from '../support/service.js';

describe('project governance API: kernel scan, adequacy, audit-verify (SPEC §6)', function () {
  this.timeout(30_000);
  let svc: TestService;
  let lender: IssuedKey;
  let other: IssuedKey;
  let projectId: string;
  let drawId: string;
  let gc: string;
  const auth = (k: IssuedKey) => ({ Authorization: `Bearer ${k.key}` });
  const post = (path: string, body: unknown, k = lender) =>
    request(svc.app)
      .post(path)
      .set(auth(k))
      .send(body as object);

  beforeEach(async () => {
    svc = await startService({ now: '2026-06-10T12:00:00Z' });
    lender = await svc.key('First Builders Bank');
    other = await svc.key('Second Street Capital');
    const ent = async (legal_name: string, roles: string[]) =>
      String((await post('/api/entities', { legal_name, roles })).body.id);
    const owner = await ent('Harbor View Owner LLC', ['owner']);
    gc = await ent('Keystone Builders, Inc.', ['general_contractor']);
    const project = await post('/api/projects', projectBody({ borrower: owner, general_contractor: gc }));
    projectId = String(project.body.id);
    const draw = await post(`/api/projects/${projectId}/draws`, firstDrawBody());
    expect(draw.status, JSON.stringify(draw.body)).to.equal(201);
    drawId = String(draw.body.id);
  });
  afterEach(async () => {
    await svc.close();
  });

  it('scans BLOCKED while the inspection and title date-down are missing, and resolves them once recorded', async () => {
    const first = await post('/api/kernel-core', { action: 'full_scan', project_id: projectId });
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    expect(first.body.scan_id).to.match(/^SCN-/);
    expect(first.body.scan_verdict).to.equal('BLOCKED');
    const codes = (first.body.temporal.items as { code: string; severity: string }[]).map(
      (f) => `${f.code}:${f.severity}`,
    );
    expect(codes).to.include.members(['INSPECTION_FRESHNESS:BLOCKING', 'TITLE_DATE_DOWN:BLOCKING']);
    expect(first.body.temporal.count).to.equal(first.body.temporal.items.length);
    expect(first.body.adequacy.vector).to.have.keys([
      'lender',
      'contractor',
      'project',
      'cashflow',
      'compliance',
      'risk',
    ]);
    const inspector = String(
      (await post('/api/entities', { legal_name: 'Clearline Inspections LLC', roles: ['inspector'] })).body
        .id,
    );
    expect(
      (
        await post(`/api/projects/${projectId}/documents`, {
          type: 'INSPECTION_REPORT',
          draw_id: drawId,
          inspector,
          inspected_on: '2026-06-02',
          lines: [
            { line: 1, percent_complete: 25 },
            { line: 2, percent_complete: 8.33 },
          ],
          stored_materials_verified: true,
        })
      ).status,
    ).to.equal(201);
    expect(
      (
        await post(`/api/projects/${projectId}/documents`, {
          type: 'TITLE_DATE_DOWN',
          effective_on: '2026-06-10',
          new_liens: [],
        })
      ).status,
    ).to.equal(201);
    const second = await post('/api/kernel-core', { action: 'full_scan', project_id: projectId });
    const after = (second.body.temporal.items as { code: string }[]).map((f) => f.code);
    expect(after).to.not.include('INSPECTION_FRESHNESS');
    expect(after).to.not.include('TITLE_DATE_DOWN');
  });

  it('answers another org’s project as 404 and records nothing', async () => {
    const before = await svc.head();
    const res = await post('/api/kernel-core', { action: 'full_scan', project_id: projectId }, other);
    expect(res.status).to.equal(404);
    const adequacy = await post('/api/adequacy', { action: 'project', project_id: projectId }, other);
    expect(adequacy.status).to.equal(404);
    const wrongAction = await post('/api/kernel-core', { action: 'quick_scan', project_id: projectId });
    expect(wrongAction.status).to.equal(400);
    expect(await svc.head()).to.equal(before);
  });

  it('records adequacy with a six-member vector and an overall grade', async () => {
    const res = await post('/api/adequacy', { action: 'project', project_id: projectId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.adequacy.overall.grade).to.match(/^[ABCDF]$/);
    for (const member of ['lender', 'contractor', 'project', 'cashflow', 'compliance', 'risk']) {
      expect(res.body.adequacy.vector[member].score).to.be.within(0, 100);
    }
    expect(res.body.adequacy.in_balance).to.be.a('boolean');
  });

  it('answers a scan and an adequacy assessment in the shape the OpenAPI document gives them', async () => {
    // DOMAIN §4: each vector member is a score with its grade — the document said a bare number.
    const scan = await post('/api/kernel-core', { action: 'full_scan', project_id: projectId });
    const scanned = ScanResultSchema.safeParse(scan.body);
    expect(scanned.error?.issues ?? [], 'scan').to.deep.equal([]);
    const adequacy = await post('/api/adequacy', { action: 'project', project_id: projectId });
    const assessed = AdequacyResultSchema.safeParse(adequacy.body);
    expect(assessed.error?.issues ?? [], 'adequacy').to.deep.equal([]);
    expect(scan.body.adequacy.vector.lender).to.have.keys(['score', 'grade']);
  });

  it('verifies a recorded scan hash and its event hash as AUTHENTIC, an unknown hash as TAMPERED, and a tampered row at its seq', async () => {
    const scan = await post('/api/kernel-core', { action: 'full_scan', project_id: projectId });
    // Whichever digest of its provenance a holder of the response checks.
    const artifacts = [];
    for (const digest of ['sha256', 'sha3_256', 'blake2b_256']) {
      const artifact = await post('/api/audit-verify', { hash: scan.body.provenance[digest] });
      artifacts.push(artifact);
      expect(artifact.body, digest).to.deep.include({ verdict: 'AUTHENTIC', reason: 'ARTIFACT_VERIFIED' });
      expect(artifact.body.match, digest).to.include({
        kind: 'scan',
        type: 'ProjectScanned',
        seq: scan.body.provenance.ledger.seq,
      });
    }
    const event = await post('/api/audit-verify', { hash: scan.body.provenance.ledger.hash });
    expect(event.body).to.deep.include({ verdict: 'AUTHENTIC', reason: 'EVENT_VERIFIED' });
    // Transparency log: the recording response names its receipt; audit-verify carries it inline.
    expect(scan.headers['ledger-receipt']).to.equal(
      `/api/ledger/receipt?hash=${scan.body.provenance.ledger.hash}`,
    );
    expect(event.body.receipt.event.hash).to.equal(scan.body.provenance.ledger.hash);
    for (const artifact of artifacts)
      expect(artifact.body.receipt.leaf_index).to.equal(scan.body.provenance.ledger.seq - 1);
    const { openCheckpoint } = await import('../../src/platform/tlog/checkpoint.js');
    const { parseVerifierKey } = await import('../../src/platform/tlog/note.js');
    const { leafHash, verifyInclusion } = await import('../../src/platform/tlog/merkle.js');
    const r = event.body.receipt;
    const signed = openCheckpoint(r.checkpoint, parseVerifierKey(svc.composed.deps.tlog.verifierKey))!;
    const input = `{"content_hash":"${r.event.content_hash}","prev_hash":"${r.event.prev_hash}","seq":${r.event.seq}}`;
    const path = (r.inclusion_proof as string[]).map((p) => Buffer.from(p, 'base64'));
    expect(verifyInclusion(r.leaf_index, r.tree_size, leafHash(input), path, signed.root)).to.equal(true);
    const unknown = await post('/api/audit-verify', { hash: 'ab'.repeat(32) });
    expect(unknown.body).to.deep.include({ verdict: 'TAMPERED', reason: 'UNKNOWN_HASH' });
    const malformed = await post('/api/audit-verify', { hash: 'xyz' });
    expect(malformed.status).to.equal(400);

    const seq = Number(scan.body.provenance.ledger.seq);
    const raw = SqliteEventStore.open(`${svc.dataDir}/ledger.db`);
    raw.database.exec('DROP TRIGGER events_are_immutable');
    raw.database.exec(
      `UPDATE events SET content = replace(content, '"scan_verdict":"BLOCKED"', '"scan_verdict":"CLEAN"') WHERE seq = ${seq}`,
    );
    await raw.close();
    const tampered = await post('/api/audit-verify', { hash: scan.body.provenance.sha256 });
    expect(tampered.body).to.deep.include({ verdict: 'TAMPERED', reason: 'CONTENT_MISMATCH', seq });
  });
});
