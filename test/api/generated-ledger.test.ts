import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { Fold, FoldReadModels } from '../../bench/lib/ledger-writer.js';
import { generateDataset, type GeneratedDataset } from '../../bench/lib/generate.js';
import { credit } from '../../projections/credit.js';
import { governance } from '../../projections/governance.js';
import { keys } from '../../projections/keys.js';
import { observationsProjection } from '../../projections/observations.js';
import { projectsProjection } from '../../projections/projects.js';
import { registryProjection } from '../../projections/registry.js';
import { accountsProjection } from '../../src/accounts/index.js';
import { signersProjection } from '../../src/signers/index.js';
import type { DrawCompiledData, ProjectScannedData } from '../../src/governance/events.js';
import { decideGovernance } from '../../src/governance/decide.js';
import { headFrom } from '../../src/governance/head.js';
import { creditView } from '../../src/lender-api/entity-facts.js';
import { ManualClock } from '../../src/platform/clock.js';
import { SqliteEventStore } from '../../src/platform/event-store/sqlite.js';
import type { SealedEvent } from '../../src/platform/ledger/envelope.js';
import { generateSignerKey } from '../../src/sdk/duties.js';
import { openService } from '../reliability/support.js';
import { enroll, invite } from '../support/signers.js';

/**
 * The bench generator records governance through the service's own deciders (issue 14): replaying
 * a generated ledger to the head each compilation was decided at, and running the service's
 * compile decider there, gives the compilation the ledger recorded; the service opens the ledger
 * and reads the same money the ledger says moved.
 */
describe('a generated bench ledger replays to what the service computes', function () {
  this.timeout(180_000);
  let dataDir: string;
  let dataset: GeneratedDataset;
  let events: SealedEvent[];

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'plumbline-generated-'));
    dataset = await generateDataset({ dataDir, events: 5_000, seed: 'generated-ledger-replay' });
    const store = SqliteEventStore.open(join(dataDir, 'ledger.db'));
    events = await store.read(1, dataset.events);
    await store.close();
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('records governance the way the service does: compilations, pushes, deliveries and certifications', () => {
    const count = (type: string) => events.filter((e) => e.type === type).length;
    expect(events).to.have.length(dataset.events);
    expect(count('DrawCompiled')).to.be.greaterThan(10);
    expect(count('PaymentPushed')).to.be.greaterThan(5);
    expect(count('PaymentInstructionDelivered')).to.equal(count('PaymentPushed'));
    for (const e of events.filter((x) => x.type === 'DrawCompiled'))
      expect((e.data as DrawCompiledData).layers_executed, e.id).to.equal(6);
    for (const e of events.filter((x) => x.type === 'CertificationIssued')) {
      const data = e.data as { issued_on: string; valid_until: string };
      const days = (Date.parse(data.valid_until) - Date.parse(data.issued_on)) / 86_400_000;
      expect(days, e.id).to.equal(90);
    }
    // Every payment rests on the compilation it ran at the head, recorded just before it.
    for (const e of events.filter((x) => x.type === 'PaymentPushed')) {
      const data = e.data as { compilation_id: string; draw_verdict: string };
      const compiled = events.find(
        (x) =>
          x.type === 'DrawCompiled' && (x.data as DrawCompiledData).compilation_id === data.compilation_id,
      );
      expect(compiled, e.id).to.not.equal(undefined);
      expect((compiled!.data as DrawCompiledData).draw_verdict).to.equal(data.draw_verdict);
      expect(['FUNDABLE', 'FUNDABLE_WITH_CONDITIONS', 'REDUCED']).to.include(data.draw_verdict);
    }
  });

  it('pays through the signed duties (issue 15): enrolled signers, executed waivers, notarial acts, stable accounts', () => {
    const count = (type: string) => events.filter((e) => e.type === type).length;
    expect(count('SignerEnrolled')).to.equal(count('SignerInvited'));
    expect(count('BankAccountRegistered')).to.be.greaterThan(6);
    const data = (type: string) => events.filter((e) => e.type === type).map((e) => e.data);
    for (const d of data('DrawSigned'))
      expect((d as { attestation: string }).attestation).to.equal('ED25519');
    // Every notarized waiver was first executed by its claimant's signer; every act is a notarial act.
    const executed = new Set(data('DocumentSigned').map((d) => (d as { document_id: string }).document_id));
    expect(count('DocumentNotarized')).to.be.greaterThan(10);
    for (const d of data('DocumentNotarized') as { document_id: string; status: string }[])
      expect([d.status, executed.has(d.document_id)], d.document_id).to.deep.equal(['NOTARIAL_ACT', true]);
    // A refused push is refused for what the facts say, never for a duty the generator skipped.
    const duties = ['signatures', 'waivers_executed', 'notarization', 'payee_account_stable'];
    for (const d of data('PaymentPushBlocked')) {
      const failed = (d as { gates: { gate: string; passed: boolean; detail: string }[] }).gates.filter(
        (g) => !g.passed && duties.includes(g.gate),
      );
      expect(failed, JSON.stringify(failed)).to.deep.equal([]);
    }
  });

  it('records each signer enrollment as the enrollment route does: the inviting org’s event, made by no key', async () => {
    // The route's own record, on a copy of the generated ledger: a signer the second lender invites
    // enrolls with its token alone (POST /api/signers/enroll takes no API key).
    const copy = mkdtempSync(join(tmpdir(), 'plumbline-generated-route-'));
    const lender = dataset.keys[1]!;
    let routed: SealedEvent;
    let shown: { type: string; meta: { org_id: string | null } }[];
    try {
      cpSync(dataDir, copy, { recursive: true });
      const service = await openService(copy, { clock: new ManualClock(events.at(-1)!.recorded_at) });
      try {
        const { token } = await invite(service.app, lender, { name: 'Robin Reference', capacity: 'Lender' });
        const { publicKey } = await generateSignerKey();
        const enrolled = await enroll(service.app, token, publicKey);
        expect(enrolled.status, JSON.stringify(enrolled.body)).to.equal(201);
        // What the second lender's ledger API answers for enrollments: its own, never another org's.
        const page = await request(service.app)
          .get('/api/ledger?type=SignerEnrolled&limit=500')
          .set({ Authorization: `Bearer ${lender.key}` });
        expect(page.status, JSON.stringify(page.body)).to.equal(200);
        shown = page.body.events as typeof shown;
      } finally {
        await service.close();
      }
      const store = SqliteEventStore.open(join(copy, 'ledger.db'));
      const appended = await store.read(dataset.events + 1, 100);
      await store.close();
      routed = appended.find((e) => e.type === 'SignerEnrolled')!;
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
    expect(routed, 'the route recorded the enrollment').to.not.equal(undefined);
    expect(routed.meta.org_id).to.equal(lender.org_id);
    // Each generated enrollment carries what the route records: the org of the signer's invitation,
    // and the route's actor.
    const invitedBy = new Map(
      events.filter((e) => e.type === 'SignerInvited').map((e) => [e.stream, e.meta.org_id]),
    );
    const enrollments = events.filter((e) => e.type === 'SignerEnrolled');
    expect(enrollments.length).to.be.greaterThan(10);
    for (const e of enrollments) {
      expect(invitedBy.get(e.stream), e.stream).to.be.a('string');
      expect({ org_id: e.meta.org_id, actor: e.meta.actor }, e.stream).to.deep.equal({
        org_id: invitedBy.get(e.stream),
        actor: routed.meta.actor,
      });
    }
    // So another lender's enrollments (their key ids and public keys) are not shown to this one.
    expect(shown.length).to.be.greaterThan(1);
    for (const e of shown) expect(e.meta.org_id, JSON.stringify(e)).to.equal(lender.org_id);
  });

  it('is deterministic: the same seed and size give the same ledger, byte for byte', async () => {
    const again = mkdtempSync(join(tmpdir(), 'plumbline-generated-'));
    try {
      const twin = await generateDataset({ dataDir: again, events: 5_000, seed: 'generated-ledger-replay' });
      expect([twin.head, twin.counts]).to.deep.equal([dataset.head, dataset.counts]);
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  });

  it('re-running the service’s compile decider at each recorded compilation’s head gives the recorded verdict and findings', () => {
    const folds = [
      new Fold(keys),
      new Fold(registryProjection),
      new Fold(projectsProjection),
      new Fold(governance),
      new Fold(observationsProjection),
      new Fold(credit),
      new Fold(signersProjection),
      new Fold(accountsProjection),
    ] as Fold<unknown>[];
    const reads = new FoldReadModels(folds);
    const view = creditView({ runtime: reads });
    let compared = 0;
    for (let i = 0; i < events.length; i += 1) {
      const scan = events[i]!;
      const compiled = events[i + 1];
      if (scan.type === 'ProjectScanned' && compiled?.type === 'DrawCompiled') {
        const recorded = compiled.data as DrawCompiledData;
        const head = headFrom(reads, { seq: scan.seq - 1, hash: scan.prev_hash }, view, dataDir);
        const decided = decideGovernance(
          head,
          { type: 'CompileDraw', project_id: recorded.project_id, draw_id: recorded.draw_id },
          {
            org_id: scan.meta.org_id!,
            now: new Date(scan.recorded_at),
            eventId: compiled.id,
            publicBaseUrl: 'https://plumbline.example',
          },
        );
        expect(decided.ok, recorded.draw_id).to.equal(true);
        const again = decided.events.find((e) => e.type === 'DrawCompiled')!.data as DrawCompiledData;
        const rescan = decided.events.find((e) => e.type === 'ProjectScanned')!.data as ProjectScannedData;
        const codes = (d: ProjectScannedData) => d.findings.map((f) => `${f.code}/${f.severity}`).sort();
        expect(
          [again.draw_verdict, again.verdict_status, again.layers_executed],
          recorded.draw_id,
        ).to.deep.equal([recorded.draw_verdict, recorded.verdict_status, recorded.layers_executed]);
        expect(codes(rescan), recorded.draw_id).to.deep.equal(codes(scan.data as ProjectScannedData));
        compared += 1;
      }
      for (const fold of folds) fold.apply(scan);
      reads.applied(scan);
    }
    expect(compared).to.be.greaterThan(10);
  });

  it('opens in the service: the chain verifies, and each paid draw reads FUNDED for the amount the ledger paid', async () => {
    const last = events.at(-1)!;
    const service = await openService(dataDir, { clock: new ManualClock(last.recorded_at) });
    try {
      const auth = { Authorization: `Bearer ${dataset.keys[0]!.key}` };
      const org = dataset.keys[0]!.org_id;
      const paid = events.filter((e) => e.type === 'PaymentPushed' && e.meta.org_id === org).slice(0, 5);
      expect(paid.length).to.be.greaterThan(0);
      for (const e of paid) {
        const data = e.data as { draw_id: string; amount: number; payload_hash: string };
        const draw = await request(service.app).get(`/api/draws/${data.draw_id}`).set(auth);
        expect(draw.status, JSON.stringify(draw.body)).to.equal(200);
        expect([draw.body.status, draw.body.funded_amount]).to.deep.equal(['FUNDED', data.amount]);
        const verdict = await request(service.app)
          .post('/api/audit-verify')
          .set(auth)
          .send({ hash: data.payload_hash });
        expect(verdict.body.verdict, JSON.stringify(verdict.body)).to.equal('AUTHENTIC');
      }
    } finally {
      await service.close();
    }
  });
});
