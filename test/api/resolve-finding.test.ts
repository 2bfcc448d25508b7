import { expect } from 'chai';
import { startJourney, type DrawJourney } from '../support/draw-journey.js';

/**
 * Resolving a finding (SPEC §5) is decided at the head like every governance command: the finding
 * must be one a scan recorded on one of the caller's org's projects — another org's finding answers
 * exactly like an unknown one (404) — and its id must have the finding shape (400).
 */
describe('POST /api/findings/:id/resolve', function () {
  this.timeout(60_000);
  let j: DrawJourney;
  afterEach(async () => {
    await j.svc.close();
  });

  it('resolves the org’s own finding once; another org’s, an unknown or a malformed id change nothing', async () => {
    j = await startJourney();
    const scan = await j.post('/api/kernel-core', { action: 'full_scan', project_id: j.projectId });
    const finding = String(scan.body.temporal.items[0].id);
    const body = { resolution: 'Title company confirmed by phone', resolved_on: '2026-06-03' };
    const other = await j.svc.key('Second Street Capital');
    const before = await j.svc.head();

    const foreign = await j.post(`/api/findings/${finding}/resolve`, body, other);
    const unknown = await j.post('/api/findings/FND-aaaaaaaaaaaaaaaa/resolve', body);
    expect(foreign.status).to.equal(404);
    expect(unknown.status).to.equal(404);
    expect(foreign.body.detail).to.equal(unknown.body.detail.replace('FND-aaaaaaaaaaaaaaaa', finding));
    expect((await j.post('/api/findings/not-a-finding/resolve', body)).status).to.equal(400);
    expect(await j.svc.head()).to.equal(before);

    const resolved = await j.post(`/api/findings/${finding}/resolve`, body);
    expect(resolved.status, JSON.stringify(resolved.body)).to.equal(201);
    expect((await j.post(`/api/findings/${finding}/resolve`, body)).status).to.equal(409);
  });
});
