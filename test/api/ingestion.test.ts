import { expect } from 'chai';
import request from 'supertest';
import type { IssuedKey } from '../../src/orgs/keys.js';
import { D, firstDrawBody, projectBody } from '../support/api-fixtures.js';
import { startService, type TestService } from '../support/service.js';

describe('ingestion API (SPEC §5) end to end', function () {
  this.timeout(30_000);
  let svc: TestService;
  let lender: IssuedKey;
  let other: IssuedKey;
  const auth = (k: IssuedKey) => ({ Authorization: `Bearer ${k.key}` });

  async function entity(name: string, roles: string[], extra: Record<string, unknown> = {}): Promise<string> {
    const res = await request(svc.app)
      .post('/api/entities')
      .set(auth(lender))
      .send({ legal_name: name, roles, ...extra });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return String(res.body.id);
  }

  async function project(): Promise<{ id: string; gc: string }> {
    const borrower = await entity('Harbor View Owner LLC', ['owner']);
    const gc = await entity('Keystone Builders, Inc.', ['general_contractor'], { ein: '12-3456789' });
    const architect = await entity('Lumen Architecture PLLC', ['architect']);
    const body = projectBody(
      { borrower, general_contractor: gc, architect },
      { required_coverages: [{ type: 'GL', min_limit: D(1_000_000) }] },
    );
    const res = await request(svc.app).post('/api/projects').set(auth(lender)).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.id).to.match(/^prj_/);
    expect(res.body.ledger.hash).to.match(/^[0-9a-f]{64}$/);
    return { id: String(res.body.id), gc };
  }

  const drawBody = firstDrawBody();

  beforeEach(async () => {
    svc = await startService();
    lender = await svc.key('First Builders Bank');
    other = await svc.key('Second Street Capital');
  });
  afterEach(async () => {
    await svc.close();
  });

  it('records an entity, a project with an SOV, a draw, a waiver and an inspection, each as an event in the ledger', async () => {
    const { id: projectId, gc } = await project();
    const draw = await request(svc.app)
      .post(`/api/projects/${projectId}/draws`)
      .set(auth(lender))
      .send(drawBody);
    expect(draw.status, JSON.stringify(draw.body)).to.equal(201);
    const drawId = String(draw.body.id);
    expect(drawId).to.match(/^DRW-/);
    const waiver = await request(svc.app)
      .post(`/api/projects/${projectId}/documents`)
      .set(auth(lender))
      .send({
        type: 'LIEN_WAIVER',
        claimant: gc,
        draw_id: drawId,
        waiver_type: 'CONDITIONAL_PROGRESS',
        amount: D(135_000),
        through_date: '2026-05-31',
        executed: true,
        signed_on: '2026-06-01',
      });
    expect(waiver.status, JSON.stringify(waiver.body)).to.equal(201);
    expect(waiver.body.id).to.match(/^WAIV-/);
    const inspector = await entity('Clearline Inspections LLC', ['inspector']);
    const inspection = await request(svc.app)
      .post(`/api/projects/${projectId}/documents`)
      .set(auth(lender))
      .send({
        type: 'INSPECTION_REPORT',
        draw_id: drawId,
        inspector,
        inspected_on: '2026-06-02',
        lines: [
          { line: 1, percent_complete: 25 },
          { line: 2, percent_complete: 8 },
        ],
        stored_materials_verified: true,
      });
    expect(inspection.status, JSON.stringify(inspection.body)).to.equal(201);

    const got = await request(svc.app).get(`/api/draws/${drawId}`).set(auth(lender));
    expect(got.status).to.equal(200);
    expect(got.body.lines[0]).to.include({
      completed_and_stored: D(100_000),
      percent_complete: 25,
      balance_to_finish: D(300_000),
    });

    const ledger = await request(svc.app).get('/api/ledger?limit=500').set(auth(lender));
    const types = (ledger.body.events as { type: string }[]).map((e) => e.type);
    expect(types).to.include.members([
      'EntityRegistered',
      'ProjectRegistered',
      'DrawSubmitted',
      'DocumentRecorded',
    ]);
    const verify = await request(svc.app).get('/api/ledger/verify').set(auth(lender));
    expect(verify.body.ok).to.equal(true);
  });

  it('answers another org’s project, draw and document ids exactly like unknown ids (404)', async () => {
    const { id: projectId } = await project();
    const draw = await request(svc.app)
      .post(`/api/projects/${projectId}/draws`)
      .set(auth(lender))
      .send(drawBody);
    const theirs = await request(svc.app).get(`/api/projects/${projectId}`).set(auth(other));
    const unknown = await request(svc.app).get('/api/projects/prj_aaaaaaaaaaaaaaaa').set(auth(other));
    expect(theirs.status).to.equal(404);
    expect(unknown.status).to.equal(404);
    expect(theirs.body.title).to.equal(unknown.body.title);
    expect(
      (
        await request(svc.app)
          .get(`/api/draws/${String(draw.body.id)}`)
          .set(auth(other))
      ).status,
    ).to.equal(404);
    const before = await svc.head();
    const sneaky = await request(svc.app)
      .post(`/api/projects/${projectId}/draws`)
      .set(auth(other))
      .send(drawBody);
    expect(sneaky.status).to.equal(404);
    expect(await svc.head()).to.equal(before);
    const page = await request(svc.app).get('/api/ledger?limit=500').set(auth(other));
    const redacted = (page.body.events as { type: string; data?: unknown }[]).filter(
      (e) => e.type === 'Redacted',
    );
    expect(redacted.length).to.be.greaterThan(0);
    expect(redacted.every((e) => e.data === undefined)).to.equal(true);
  });

  it('refuses an unknown SOV line, a draw for an unknown project and a signer role outside the chain, changing nothing', async () => {
    const { id: projectId } = await project();
    const before = await svc.head();
    const badLine = await request(svc.app)
      .post(`/api/projects/${projectId}/draws`)
      .set(auth(lender))
      .send({
        ...drawBody,
        lines: [
          ...(drawBody.lines as object[]),
          { line: 9, previous: 0, this_period: 1, stored_materials: 0 },
        ],
      });
    expect(badLine.status).to.equal(400);
    expect(JSON.stringify(badLine.body.errors)).to.match(/lines/);
    const noProject = await request(svc.app)
      .post('/api/projects/prj_aaaaaaaaaaaaaaaa/draws')
      .set(auth(lender))
      .send(drawBody);
    expect(noProject.status).to.equal(404);
    const draw = await request(svc.app)
      .post(`/api/projects/${projectId}/draws`)
      .set(auth(lender))
      .send(drawBody);
    const mid = await svc.head();
    const badRole = await request(svc.app)
      .post(`/api/draws/${String(draw.body.id)}/signatures`)
      .set(auth(lender))
      .send({ role: 'Treasury', signer_name: 'T. Reasury', signed_on: '2026-06-03' });
    expect(badRole.status).to.equal(400);
    expect(await svc.head()).to.equal(mid);
    expect(mid).to.equal(before + 1);
  });

  it('refuses money that would not be exact in integer cents: totals past 2^53 − 1 (400, nothing recorded)', async () => {
    // Each figure was within range, so a schedule of two $90-trillion lines was registered and a
    // draw claiming them was taken with G702 totals a double rounds: total completed
    // 27021597764222972 for 3 × (2^53 − 1) = 27021597764222973, and line 8 rounded with it.
    const MAX = Number.MAX_SAFE_INTEGER;
    const { id: projectId } = await project();
    const borrower = await entity('Vast Owner LLC', ['owner']);
    const gc = await entity('Vast Builders LLC', ['general_contractor']);
    const before = await svc.head();
    const huge = await request(svc.app)
      .post('/api/projects')
      .set(auth(lender))
      .send(
        projectBody(
          { borrower, general_contractor: gc },
          {
            name: 'Vast Towers',
            sov: [
              { line: 1, description: 'Sitework', scheduled_value: MAX, trade: 'sitework' },
              { line: 2, description: 'Framing', scheduled_value: MAX, trade: 'carpentry' },
            ],
            loan_amount: MAX,
            equity: MAX,
          },
        ),
      );
    expect(huge.status, JSON.stringify(huge.body)).to.equal(400);
    expect(huge.body.errors.map((e: { path: string }) => e.path)).to.have.members(['sov', 'loan_amount']);
    const draw = await request(svc.app)
      .post(`/api/projects/${projectId}/draws`)
      .set(auth(lender))
      .send({
        ...drawBody,
        lines: [
          { line: 1, previous: MAX, this_period: MAX, stored_materials: 0 },
          { line: 2, previous: 0, this_period: 0, stored_materials: MAX },
        ],
      });
    expect(draw.status, JSON.stringify(draw.body)).to.equal(400);
    expect(draw.body.errors[0]).to.include({ path: 'lines', code: 'out_of_range' });
    expect(draw.body.errors[0].message).to.match(/total_completed_and_stored/);
    expect(await svc.head()).to.equal(before);
    const ordinary = await request(svc.app)
      .post(`/api/projects/${projectId}/draws`)
      .set(auth(lender))
      .send(drawBody);
    expect(ordinary.status, JSON.stringify(ordinary.body)).to.equal(201);
  });

  it('refuses an application billing a line past its scheduled value (400 naming lines[i] and G, C; nothing recorded) and takes one billed up to C with its executed change orders', async () => {
    // Seen: line 1 billed $40,000,000 against its $400,000 scheduled value compiled FUNDABLE and
    // was paid $36,045,000 on an $800,000 loan. G = D + E + F must stay within C.
    const { id: projectId } = await project();
    const before = await svc.head();
    const submit = (lines: unknown[], application_no = 1) =>
      request(svc.app)
        .post(`/api/projects/${projectId}/draws`)
        .set(auth(lender))
        .send({ ...drawBody, application_no, lines });
    const over = await submit([
      { line: 1, previous: 0, this_period: D(40_000_000), stored_materials: 0 },
      { line: 2, previous: D(500_000), this_period: D(50_000), stored_materials: D(50_001) },
    ]);
    expect(over.status, JSON.stringify(over.body)).to.equal(400);
    expect(over.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(over.body.code).to.equal('INVALID_REQUEST');
    expect(over.body.errors).to.deep.equal([
      {
        path: 'lines.0',
        code: 'exceeds_scheduled_value',
        message:
          'line 1: completed and stored to date (G = previous 0 + this period 4000000000 + stored materials 0 = 4000000000 cents) exceeds its scheduled value (C = 40000000 cents) by 3960000000 cents',
      },
      {
        path: 'lines.1',
        code: 'exceeds_scheduled_value',
        message:
          'line 2: completed and stored to date (G = previous 50000000 + this period 5000000 + stored materials 5000100 = 60000100 cents) exceeds its scheduled value (C = 60000000 cents) by 100 cents',
      },
    ]);
    expect(await svc.head()).to.equal(before);

    // An executed change order adds $25,000 to line 2's C: billing it whole is within C. One not
    // yet executed adds $20,000 to line 1: billing into it is CHANGE_ORDER_PRECEDENCE's to judge
    // (BLOCKING in the scan), not a line billed past anything on file.
    const changeOrder = async (number: string, line: number, delta: number, executed_on?: string) => {
      const res = await request(svc.app)
        .post(`/api/projects/${projectId}/change-orders`)
        .set(auth(lender))
        .send({
          number,
          amount: delta,
          lines: [{ line, delta }],
          description: 'Deeper footings',
          ...(executed_on === undefined ? {} : { executed_on }),
        });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    };
    await changeOrder('CO-001', 2, D(25_000), '2026-05-10');
    await changeOrder('CO-002', 1, D(20_000));
    const whole = [
      { line: 1, previous: 0, this_period: D(420_000), stored_materials: 0 },
      { line: 2, previous: 0, this_period: D(600_000), stored_materials: D(25_000) },
    ];
    const past = await submit([
      { ...whole[0], stored_materials: 1 },
      { ...whole[1], stored_materials: D(25_000) + 1 },
    ]);
    expect(past.status, JSON.stringify(past.body)).to.equal(400);
    expect(past.body.errors.map((e: { message: string }) => e.message)).to.deep.equal([
      'line 1: completed and stored to date (G = previous 0 + this period 42000000 + stored materials 1 = 42000001 cents) exceeds its scheduled value (C = 40000000 cents) and the 2000000 cents change orders not executed by 2026-05-31 would add by 1 cents',
      'line 2: completed and stored to date (G = previous 0 + this period 60000000 + stored materials 2500001 = 62500001 cents) exceeds its scheduled value (C = 62500000 cents (SOV 60000000 + executed change orders 2500000)) by 1 cents',
    ]);
    const atC = await submit(whole);
    expect(atC.status, JSON.stringify(atC.body)).to.equal(201);
  });

  it('refuses a change order executed after today (400 problem+json naming executed_on, nothing recorded) and takes one executed today', async () => {
    const { id: projectId } = await project();
    const today = svc.clock.now().toISOString().slice(0, 10);
    const tomorrow = new Date(svc.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    const changeOrder = (executed_on: string) =>
      request(svc.app)
        .post(`/api/projects/${projectId}/change-orders`)
        .set(auth(lender))
        .send({
          number: `CO-${executed_on}`,
          amount: D(25_000),
          lines: [{ line: 2, delta: D(25_000) }],
          description: 'Deeper footings',
          executed_on,
        });
    const before = await svc.head();
    const ahead = await changeOrder(tomorrow);
    expect(ahead.status, JSON.stringify(ahead.body)).to.equal(400);
    expect(ahead.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(ahead.body.code).to.equal('INVALID_REQUEST');
    expect(ahead.body.errors).to.deep.include({
      path: 'executed_on',
      code: 'out_of_range',
      message: `executed_on ${tomorrow} is after today (${today})`,
    });
    expect(await svc.head()).to.equal(before);
    const onTheDay = await changeOrder(today);
    expect(onTheDay.status, JSON.stringify(onTheDay.body)).to.equal(201);
    expect(await svc.head()).to.equal(before + 1);
  });

  it('replays the first response for a repeated Idempotency-Key and refuses the key with another body (422)', async () => {
    const first = await request(svc.app)
      .post('/api/entities')
      .set(auth(lender))
      .set('Idempotency-Key', 'ent-create-0001')
      .send({ legal_name: 'Granite Supply Co', roles: ['supplier'] });
    expect(first.status).to.equal(201);
    const head = await svc.head();
    const again = await request(svc.app)
      .post('/api/entities')
      .set(auth(lender))
      .set('Idempotency-Key', 'ent-create-0001')
      .send({ legal_name: 'Granite Supply Co', roles: ['supplier'] });
    expect(again.status).to.equal(201);
    expect(again.headers['idempotent-replayed']).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
    const different = await request(svc.app)
      .post('/api/entities')
      .set(auth(lender))
      .set('Idempotency-Key', 'ent-create-0001')
      .send({ legal_name: 'Other Name LLC', roles: ['supplier'] });
    expect(different.status).to.equal(422);
    expect(different.body.code).to.equal('IDEMPOTENCY_KEY_REUSED');
    expect(await svc.head()).to.equal(head);
  });

  it('records a different request under a key past its 24 h window as itself, not as the first request', async () => {
    // The key's record is gone after 24 h (or with a store that lost it). Event ids derived from
    // the key alone made the second body re-derive the first one's ids: the store kept the first
    // events, appended nothing, and the answer was 201 naming Granite — Quarry was never recorded.
    const register = (legal_name: string) =>
      request(svc.app)
        .post('/api/entities')
        .set(auth(lender))
        .set('Idempotency-Key', 'ent-create-0002')
        .send({ legal_name, roles: ['supplier'] });
    const first = await register('Granite Supply Co');
    expect(first.status).to.equal(201);
    svc.clock.set(new Date(svc.clock.now().getTime() + 25 * 3600_000).toISOString());
    const head = await svc.head();
    const second = await register('Quarry Stone LLC');
    expect(second.status, JSON.stringify(second.body)).to.equal(201);
    expect(second.body.id).to.not.equal(first.body.id);
    const stored = await request(svc.app)
      .get(`/api/entities/${String(second.body.id)}`)
      .set(auth(lender));
    expect(stored.body.legal_name).to.equal('Quarry Stone LLC');
    expect(await svc.head()).to.be.greaterThan(head);
    // The key now holds Quarry's request for its next 24 h: Granite's body again is refused.
    const again = await register('Granite Supply Co');
    expect(again.status).to.equal(422);
    expect(again.body.code).to.equal('IDEMPOTENCY_KEY_REUSED');
  });

  it('never answers 201 to a request its Idempotency-Key did not record, even when the key races itself', async () => {
    // Three bodies under one key at once: the first to start records; the others must hear 422
    // (another body) — not a 201 naming the winner's entity as if theirs had been registered.
    const before = await svc.head();
    const names = ['Race Alpha Supply', 'Race Bravo Supply', 'Race Charlie Supply'];
    const answers = await Promise.all(
      names.map((legal_name) =>
        request(svc.app)
          .post('/api/entities')
          .set(auth(lender))
          .set('Idempotency-Key', 'ent-race-0001')
          .send({ legal_name, roles: ['supplier'] }),
      ),
    );
    expect(await svc.head()).to.equal(before + 1);
    const created = answers.filter((a) => a.status === 201);
    expect(created, JSON.stringify(answers.map((a): unknown => a.body))).to.have.length(1);
    const recorded = await request(svc.app)
      .get(`/api/entities/${String(created[0]!.body.id)}`)
      .set(auth(lender));
    expect(recorded.body.legal_name).to.equal(names[answers.indexOf(created[0]!)]);
    for (const other of answers.filter((a) => a !== created[0])) {
      expect(other.status, JSON.stringify(other.body)).to.equal(422);
      expect(other.body.code).to.equal('IDEMPOTENCY_KEY_REUSED');
    }
    // The same body three times at once: one runs; the others hear its answer or "still running".
    const same = await Promise.all(
      [0, 1, 2].map(() =>
        request(svc.app)
          .post('/api/entities')
          .set(auth(lender))
          .set('Idempotency-Key', 'ent-race-0002')
          .send({ legal_name: 'Race Delta Supply', roles: ['supplier'] }),
      ),
    );
    expect(await svc.head()).to.equal(before + 2);
    const ran: unknown = same.find((a) => a.status === 201)?.body;
    for (const a of same) {
      if (a.status === 409) expect(a.headers['retry-after']).to.equal('1');
      else expect(a.body).to.deep.equal(ran);
    }
    const retry = await request(svc.app)
      .post('/api/entities')
      .set(auth(lender))
      .set('Idempotency-Key', 'ent-race-0002')
      .send({ legal_name: 'Race Delta Supply', roles: ['supplier'] });
    expect(retry.headers['idempotent-replayed']).to.equal('true');
  });

  it('pages every project list by next_cursor and refuses a cursor it did not issue (400), never restarting at page one', async () => {
    const { id: projectId, gc } = await project();
    for (const number of ['INV-P-1', 'INV-P-2']) {
      const invoice = await request(svc.app)
        .post(`/api/projects/${projectId}/documents`)
        .set(auth(lender))
        .send({ type: 'INVOICE', vendor: gc, number, amount: D(1_000), line: 1 });
      expect(invoice.status, JSON.stringify(invoice.body)).to.equal(201);
    }
    const documents = `/api/projects/${projectId}/documents`;
    const first = await request(svc.app).get(`${documents}?limit=1`).set(auth(lender));
    expect(first.body.data).to.have.length(1);
    const second = await request(svc.app)
      .get(`${documents}?limit=1&cursor=${String(first.body.next_cursor)}`)
      .set(auth(lender));
    expect(second.body.data[0].id).to.not.equal(first.body.data[0].id);
    expect(second.body.next_cursor).to.equal(null);
    const lists = [
      '/api/projects',
      documents,
      `/api/projects/${projectId}/draws`,
      `/api/projects/${projectId}/change-orders`,
      '/api/observations',
    ];
    for (const list of lists) {
      for (const cursor of ['zzzz', 'bzp4', '%00']) {
        const res = await request(svc.app).get(`${list}?cursor=${cursor}`).set(auth(lender));
        expect(res.status, `${list}?cursor=${cursor}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body.code).to.equal('INVALID_REQUEST');
        expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
      }
    }
  });

  it('refuses an entity reference the lender API would refuse (over 200 characters, control characters) with 400', async () => {
    // Unchecked, a 14 KB path segment was compared by trigrams against every entity (CPU per
    // request growing with the registry) and echoed back whole in the 404's detail.
    await entity('Keystone Builders, Inc.', ['general_contractor']);
    const words = Array.from({ length: 2_000 }, (_, i) => `w${i.toString(36)}x`).join('%20');
    for (const ref of [words, 'k'.repeat(201), 'Keystone%00Builders']) {
      const res = await request(svc.app).get(`/api/entities/${ref}`).set(auth(lender));
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(400);
      expect(res.body.code).to.equal('INVALID_REQUEST');
      expect(String(res.body.detail).length).to.be.below(200);
    }
    const longest = await request(svc.app)
      .get(`/api/entities/${'k'.repeat(200)}`)
      .set(auth(lender));
    expect(longest.status).to.equal(404);
  });

  it('refuses a duplicate EIN with 409 and looks entities up by name with candidates when none match', async () => {
    await entity('Keystone Builders, Inc.', ['general_contractor'], { ein: '12-3456789' });
    const dup = await request(svc.app)
      .post('/api/entities')
      .set(auth(lender))
      .send({ legal_name: 'Someone Else LLC', roles: ['supplier'], ein: '123456789' });
    expect(dup.status).to.equal(409);
    const byName = await request(svc.app).get('/api/entities/keystone%20builders').set(auth(lender));
    expect(byName.status).to.equal(200);
    expect(byName.body.legal_name).to.equal('Keystone Builders, Inc.');
    const near = await request(svc.app).get('/api/entities/Keystone%20Bilders').set(auth(lender));
    expect(near.status).to.equal(404);
    expect(near.body.candidates[0]).to.include({ entity: 'Keystone Builders, Inc.' });
  });
});
