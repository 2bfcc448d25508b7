import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { runScript } from '../support/cli.js';
import { startJourney, type DrawJourney } from '../support/draw-journey.js';
import { enroll, invite } from '../support/signers.js';

/** `npm run signer -- keygen|sign|verify` (docs/duties.md): a signer's shell, against a real service. */
describe('signer CLI (issue 15)', function () {
  this.timeout(120_000);
  let j: DrawJourney;
  let dir: string;
  beforeEach(async () => {
    j = await startJourney();
    dir = mkdtempSync(join(tmpdir(), 'signer-cli-'));
  });
  afterEach(async () => {
    await j.svc.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('--help names every command, --json and the exit codes it uses', () => {
    const help = runScript('signer.ts', ['--help'], {});
    expect(help.status).to.equal(0);
    expect(help.stdout).to.include('npm run signer -- public-key --key <key.pem>');
    expect(help.stdout).to.include('--json');
    expect(help.stdout).to.include(
      'Exit codes: 0 done (verify: valid), 1 failed (verify: invalid), 2 usage error.',
    );
  });

  it('generates a key, enrolls it, signs the draw as served and the service accepts the signature', async () => {
    const keyFile = join(dir, 'gc.pem');
    const keygen = runScript('signer.ts', ['keygen', '--out', keyFile, '--json'], {});
    expect(keygen.status, keygen.stderr).to.equal(0);
    expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
    const { public_key } = JSON.parse(keygen.stdout) as { public_key: string };

    const { id, token } = await invite(j.svc.app, j.lender, {
      name: 'Dana',
      capacity: 'Contractor',
      entity_id: j.gc,
    });
    expect((await enroll(j.svc.app, token, public_key)).status).to.equal(201);

    const draw = await request(j.svc.app)
      .get(`/api/draws/${j.drawId}`)
      .set({ Authorization: `Bearer ${j.lender.key}` });
    const drawFile = join(dir, 'draw.json');
    writeFileSync(drawFile, JSON.stringify(draw.body));
    const signed = runScript('signer.ts', ['sign', '--key', keyFile, '--draw', drawFile, '--json'], {});
    expect(signed.status, signed.stderr).to.equal(0);
    const { signature, sha256 } = JSON.parse(signed.stdout) as { signature: string; sha256: string };

    const verified = runScript(
      'signer.ts',
      ['verify', '--public-key', public_key, '--draw', drawFile, '--signature', signature],
      {},
    );
    expect(verified.status, verified.stderr).to.equal(0);
    expect(verified.stdout.trim()).to.equal('valid');

    const res = await j.post(`/api/draws/${j.drawId}/signatures`, {
      role: 'Contractor',
      signer_id: id,
      signature,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const shown = await request(j.svc.app)
      .get(`/api/draws/${j.drawId}`)
      .set({ Authorization: `Bearer ${j.lender.key}` });
    expect(shown.body.signatures[0]).to.include({
      attestation: 'ED25519',
      signer_id: id,
      application_sha256: sha256,
    });

    // Other bytes (one cent more due) do not verify: exit 1.
    writeFileSync(
      drawFile,
      JSON.stringify({
        ...draw.body,
        summary: { ...draw.body.summary, current_payment_due: draw.body.summary.current_payment_due + 1 },
      }),
    );
    const stale = runScript(
      'signer.ts',
      ['verify', '--public-key', public_key, '--draw', drawFile, '--signature', signature],
      {},
    );
    expect(stale.status).to.equal(1);
    expect(stale.stdout.trim()).to.equal('INVALID');
  });

  it('refuses to overwrite a key file and answers 2 for bad flags', () => {
    const keyFile = join(dir, 'k.pem');
    expect(runScript('signer.ts', ['keygen', '--out', keyFile], {}).status).to.equal(0);
    expect(runScript('signer.ts', ['keygen', '--out', keyFile], {}).status).to.equal(2);
    expect(runScript('signer.ts', ['sign', '--key', keyFile], {}).status).to.equal(2);
    expect(runScript('signer.ts', ['frobnicate'], {}).status).to.equal(2);
  });
});
