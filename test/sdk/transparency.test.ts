/**
 * The SDK's transparency-log checks (the shipped bundle): verifyReceipt and verifyConsistency
 * refuse each way a server could lie — a forged event, a proof for another leaf, a checkpoint not
 * signed by the log, a rollback, a split view.
 */
import { expect } from 'chai';
import { chainLinks, logKey, TestLog, witnessKey } from '../support/tlog-fixture.js';
import { loadBuiltSdk, type Sdk } from './harness.js';

describe('SDK transparency checks: verifyReceipt and verifyConsistency', function () {
  this.timeout(60_000); // the first test to load the SDK bundle builds it
  let sdk: Sdk;
  before(async () => {
    sdk = await loadBuiltSdk();
  });
  const links = chainLinks(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  const log = () => new TestLog().appendLinks(links);
  const vkey = logKey().noteVkey;

  it('verifies a receipt offline with the log verifier key', async () => {
    const result = await sdk.verifyReceipt(log().receipt(links[4]!), vkey);
    expect(result).to.include({ valid: true, seq: 5, hash: links[4]!.hash, tree_size: 7 });
  });

  it('counts witness cosignatures on the receipt checkpoint when asked for a quorum', async () => {
    const receipt = log().receipt(links[0]!);
    const text = receipt.checkpoint.slice(0, receipt.checkpoint.indexOf('\n\n') + 1);
    const cosigned = {
      ...receipt,
      checkpoint: `${receipt.checkpoint}${witnessKey().cosign(text, 1_780_000_000)}\n`,
    };
    const w = witnessKey().vkey;
    const ok = await sdk.verifyReceipt(cosigned, vkey, { witnesses: [w], quorum: 1 });
    expect(ok.valid && ok.checkpoint.cosignatures).to.deep.equal([
      { name: 'witness.test/w1', timestamp: 1_780_000_000 },
    ]);
    const short = await sdk.verifyReceipt(receipt, vkey, { witnesses: [w], quorum: 1 });
    expect(short).to.include({ valid: false, reason: 'bad_checkpoint' });
  });

  const refused: [string, (r: ReturnType<TestLog['receipt']>) => unknown, string][] = [
    ['not a receipt', () => ({ hello: 'world' }), 'malformed'],
    [
      'an edited content hash',
      (r) => ({ ...r, event: { ...r.event, content_hash: 'f'.repeat(64) } }),
      'event_hash_mismatch',
    ],
    [
      'an event whose hash is recomputed after an edit (not the logged leaf)',
      (r) => ({
        ...r,
        event: chainLinks(['X'], { ...r.event, seq: r.event.seq - 1, hash: r.event.prev_hash })[0],
      }),
      'not_included',
    ],
    ['another leaf index', (r) => ({ ...r, leaf_index: r.leaf_index + 1 }), 'index_mismatch'],
    ['another tree size', (r) => ({ ...r, tree_size: r.tree_size - 1 }), 'size_mismatch'],
    [
      'a checkpoint signed by another key',
      (r) => ({
        ...r,
        checkpoint: new TestLog(witnessKey('plumbline.test/ledger')).appendLinks(links).checkpoint(),
      }),
      'bad_checkpoint',
    ],
    [
      'an altered checkpoint root',
      (r) => ({
        ...r,
        checkpoint: r.checkpoint.replace(/\n7\n(.)/, (_m, c: string) => `\n7\n${c === 'A' ? 'B' : 'A'}`),
      }),
      'bad_checkpoint',
    ],
    [
      'a proof with a flipped bit',
      (r) => ({
        ...r,
        inclusion_proof: [
          Buffer.from(
            Buffer.from(r.inclusion_proof[0]!, 'base64').map((b, i) => (i === 0 ? b ^ 1 : b)),
          ).toString('base64'),
          ...r.inclusion_proof.slice(1),
        ],
      }),
      'not_included',
    ],
    ['a truncated proof', (r) => ({ ...r, inclusion_proof: r.inclusion_proof.slice(0, -1) }), 'not_included'],
  ];
  for (const [what, mutate, reason] of refused)
    it(`refuses a receipt with ${what} (${reason})`, async () => {
      const result = await sdk.verifyReceipt(mutate(log().receipt(links[4]!)), vkey);
      expect(result).to.include({ valid: false, reason });
    });

  it('verifies a consistent pair of checkpoints, and names a rollback and a split view', async () => {
    const honest = log();
    const at4 = await sdk.verifyCheckpoint(honest.checkpoint(4), vkey);
    const at7 = await sdk.verifyCheckpoint(honest.checkpoint(7), vkey);
    expect(sdk.verifyConsistency(at4, at7, honest.consistency(4, 7))).to.deep.equal({
      ok: true,
      from: 4,
      to: 7,
    });
    expect(sdk.verifyConsistency(at7, at4, [])).to.include({ ok: false, reason: 'rollback' });
    // The same key signs a history where event 3 was edited and the chain re-hashed after it.
    const forked = new TestLog().appendLinks(chainLinks(['a', 'b', 'C', 'd', 'e', 'f', 'g', 'h']));
    const f7 = await sdk.verifyCheckpoint(forked.checkpoint(7), vkey);
    const f8 = await sdk.verifyCheckpoint(forked.checkpoint(8), vkey);
    expect(sdk.verifyConsistency(at7, f7, [])).to.include({ ok: false, reason: 'split_view' });
    expect(sdk.verifyConsistency(at4, f8, forked.consistency(4, 8))).to.include({
      ok: false,
      reason: 'split_view',
    });
    expect(sdk.verifyConsistency(at4, at7, ['nope'])).to.include({ ok: false, reason: 'malformed_proof' });
  });
});
