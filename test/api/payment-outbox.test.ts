import { readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { paymentOutboxOf } from '../../src/app.js';
import { instructionOf, type PaymentPushedPayload } from '../../src/payments/index.js';
import { revealAccount, vaultDir } from '../../src/accounts/index.js';
import { startJourney, type DrawJourney } from '../support/draw-journey.js';

/**
 * The instruction and the event cannot disagree (issue 14 item 6): `PaymentPushed` carries
 * everything the pain.001 needs, and the outbox delivers it after the event is recorded — when the
 * rail directory refuses writes the payment stands, the failure is recorded with its next attempt,
 * and once the directory recovers the same bytes are delivered and recorded once.
 */
describe('payment outbox: the instruction follows the recorded payment', function () {
  this.timeout(60_000);
  let j: DrawJourney;
  afterEach(async () => {
    await j.svc.close();
  });

  const ledgerTypes = async (after: number) => {
    const res = await request(j.svc.app)
      .get(`/api/ledger?after=${after}&limit=50`)
      .set('Authorization', `Bearer ${j.lender.key}`);
    return res.body.events as { type: string; data: Record<string, unknown> }[];
  };

  /**
   * A draw ready to pay, pushed while the rail refuses every write (its "directory" is a file): the
   * payment is recorded (201) and its first delivery fails. The rail path and the head before the push.
   */
  const pushWithRailDown = async () => {
    j = await startJourney();
    await j.readyToPay();
    const rail = join(j.svc.dataDir, 'payments');
    writeFileSync(rail, 'not a directory');
    const before = await j.svc.head();
    const paid = await j.post('/api/payment-push', { draw_id: j.drawId });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
    return { rail, before };
  };

  it('delivers the instruction regenerated from the event, byte for byte', async () => {
    j = await startJourney();
    await j.readyToPay();
    const before = await j.svc.head();
    const paid = await j.post('/api/payment-push', { draw_id: j.drawId });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
    const events = await ledgerTypes(before);
    expect(events.map((e) => e.type)).to.deep.equal([
      'ProjectScanned',
      'DrawCompiled',
      'PaymentPushed',
      'PaymentInstructionDelivered',
    ]);
    const pushed = events[2]!.data as unknown as PaymentPushedPayload;
    const messageId = String(paid.body.payment.instruction.message_id);
    const file = join(j.svc.dataDir, 'payments', `${messageId}.xml`);
    expect(readFileSync(file, 'utf8')).to.equal(
      instructionOf(pushed, (id) => revealAccount(vaultDir(j.svc.dataDir), id)),
    );
    expect(events[3]!.data).to.include({ message_id: messageId, attempt: 1 });
  });

  it('records a failed delivery, keeps the payment, retries with backoff and delivers once the rail recovers', async () => {
    const { rail, before } = await pushWithRailDown();
    let events = await ledgerTypes(before);
    expect(events.map((e) => e.type)).to.deep.equal([
      'ProjectScanned',
      'DrawCompiled',
      'PaymentPushed',
      'PaymentInstructionFailed',
    ]);
    expect(events[3]!.data).to.include({ attempt: 1, next_attempt_at: '2026-06-03T15:00:01.000Z' });
    const again = await j.post('/api/payment-push', { draw_id: j.drawId });
    expect(again.status, 'the draw is funded: a retry of the push is a conflict').to.equal(409);

    // Not yet due: a kick delivers nothing.
    const outbox = paymentOutboxOf(j.svc.app);
    await outbox.kick();
    expect((await ledgerTypes(before)).length).to.equal(4);

    rmSync(rail);
    j.svc.clock.set('2026-06-03T15:00:01Z');
    await outbox.kick();
    events = await ledgerTypes(before);
    expect(events.map((e) => e.type).slice(4)).to.deep.equal(['PaymentInstructionDelivered']);
    expect(events[4]!.data).to.include({ attempt: 2 });
    const pushed = events[2]!.data as unknown as PaymentPushedPayload;
    expect(readdirSync(rail).filter((f) => !f.startsWith('.'))).to.deep.equal([`${pushed.message_id}.xml`]);
    expect(readFileSync(join(rail, `${pushed.message_id}.xml`), 'utf8')).to.equal(
      instructionOf(pushed, (id) => revealAccount(vaultDir(j.svc.dataDir), id)),
    );

    // Delivered once: further kicks record nothing.
    await outbox.kick();
    expect((await ledgerTypes(before)).length).to.equal(5);
    expect(existsSync(join(rail, `${pushed.message_id}.xml`))).to.equal(true);
  });

  it('records a payment whose payee account was erased as undeliverable once, and never retries it', async () => {
    const { rail, before } = await pushWithRailDown();
    // Attempt 1 failed on the rail. Then the payee's accounts are erased (its vault key deleted).
    const erased = await j.post('/api/accounts/erase', { entity_id: j.gc });
    expect(erased.status, JSON.stringify(erased.body)).to.equal(201);
    rmSync(rail);
    const outbox = paymentOutboxOf(j.svc.app);
    j.svc.clock.set('2026-06-03T15:00:01Z');
    await outbox.kick();
    const failures = async () =>
      (await ledgerTypes(before)).filter((e) => e.type === 'PaymentInstructionFailed').map((e) => e.data);
    let failed = await failures();
    expect(failed).to.have.length(2);
    expect(failed[1]).to.include({ attempt: 2, next_attempt_at: null });
    expect(String(failed[1]!.error)).to.match(/^the account \S+ was erased: no instruction can be built/);
    // Hours later, kicked again and again: nothing more is recorded, and nothing reaches the rail.
    for (const at of ['2026-06-03T16:00:00Z', '2026-06-04T15:00:00Z']) {
      j.svc.clock.set(at);
      await outbox.kick();
    }
    failed = await failures();
    expect(failed).to.have.length(2);
    expect((await ledgerTypes(before)).map((e) => e.type)).to.not.include('PaymentInstructionDelivered');
    expect(existsSync(rail) ? readdirSync(rail).filter((f) => f.endsWith('.xml')) : []).to.deep.equal([]);
  });

  it('retries a failed delivery that is already due when its pass ends, without waiting for another payment', async () => {
    const { rail, before } = await pushWithRailDown();
    // Attempt 1 failed; its retry is due at 15:00:01. The second attempt also fails, and time passes
    // before its pass ends (a slow bank call for another payment, say): by then attempt 3, due two
    // seconds after the failure, is already due. The rail recovers meanwhile.
    j.svc.composed.deps.runtime.onApplied((event) => {
      if (event.type !== 'PaymentInstructionFailed' || (event.data as { attempt: number }).attempt !== 2)
        return;
      j.svc.clock.set('2026-06-03T15:00:10Z');
      rmSync(rail);
    });
    j.svc.clock.set('2026-06-03T15:00:01Z');
    await paymentOutboxOf(j.svc.app).kick();
    // Nothing else happens: no other payment, no restart. The outbox must come back on its own.
    const deadline = Date.now() + 5_000;
    let types: string[] = [];
    while (Date.now() < deadline) {
      types = (await ledgerTypes(before)).map((e) => e.type);
      if (types.includes('PaymentInstructionDelivered')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(types.slice(2)).to.deep.equal([
      'PaymentPushed',
      'PaymentInstructionFailed',
      'PaymentInstructionFailed',
      'PaymentInstructionDelivered',
    ]);
  });
});
