import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { FileRailAdapter } from '../../../src/payments/index.js';

describe('file rail adapter (SPEC §6 rail adapter port)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plumbline-rail-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('files the instruction as <dir>/<message_id>.xml and leaves no temporary file behind', async () => {
    const target = join(dir, 'payments');
    const receipt = await new FileRailAdapter(target).submit({
      format: 'pain.001',
      message_id: 'PAY-aaaa',
      xml: '<Document/>\n',
    });
    expect(receipt).to.deep.equal({ message_id: 'PAY-aaaa', location: 'PAY-aaaa.xml' });
    expect(await readFile(join(target, receipt.location), 'utf8')).to.equal('<Document/>\n');
    expect(await readdir(target)).to.deep.equal(['PAY-aaaa.xml']);
  });

  it('replaces an instruction of the same message id whole', async () => {
    const adapter = new FileRailAdapter(dir);
    await adapter.submit({ format: 'pain.001', message_id: 'PAY-bbbb', xml: 'first' });
    const receipt = await adapter.submit({ format: 'pain.001', message_id: 'PAY-bbbb', xml: 'second' });
    expect(await readFile(join(dir, receipt.location), 'utf8')).to.equal('second');
    expect(await readdir(dir)).to.deep.equal(['PAY-bbbb.xml']);
  });

  it('refuses a message id that could name another directory', async () => {
    for (const message_id of ['../escape', 'a/b', '.hidden', '']) {
      let error: unknown = null;
      await new FileRailAdapter(dir)
        .submit({ format: 'pain.001', message_id, xml: 'x' })
        .catch((e: unknown) => (error = e));
      expect(error, message_id).to.be.instanceOf(RangeError);
    }
    expect(await readdir(dir)).to.deep.equal([]);
  });
});
