import { expect } from 'chai';
import { multiHash, sha256Hex } from '../../../src/platform/crypto/hash.js';
import { canonicalJson } from '../../../src/platform/ledger/canonical.js';
import { INSURANCE_RAIL } from '../../../src/rails/insurance.js';
import { railResult } from '../../../src/rails/result.js';
import { certificate, facts, NOW, project } from './builders.js';

const HEAD = { seq: 4242, hash: 'd'.repeat(64) };
const insuredFacts = (expires_on: string) =>
  facts({
    projects: [project({ required_coverages: [{ type: 'GL', min_limit: 100_000_000 }] })],
    documents: [certificate('COI-1', { expires_on })],
  });

describe('rail result provenance (ARCHITECTURE §7)', () => {
  it('given identical facts built twice, then the provenance hash is identical', () => {
    const a = railResult(INSURANCE_RAIL, insuredFacts('2026-07-01'), NOW, HEAD);
    const b = railResult(INSURANCE_RAIL, insuredFacts('2026-07-01'), new Date(NOW.getTime()), HEAD);
    expect(a.findings).to.have.length(1);
    expect(b.provenance_hash).to.equal(a.provenance_hash);
    expect(b).to.deep.equal(a);
  });

  it('given one fact changed, then the provenance hash changes', () => {
    const a = railResult(INSURANCE_RAIL, insuredFacts('2026-07-01'), NOW, HEAD);
    const b = railResult(INSURANCE_RAIL, insuredFacts('2026-07-02'), NOW, HEAD);
    expect(b.provenance_hash).to.not.equal(a.provenance_hash);
  });

  it('given another evaluation instant, then as_of and the hash change', () => {
    const a = railResult(INSURANCE_RAIL, insuredFacts('2026-07-01'), NOW, HEAD);
    const b = railResult(
      INSURANCE_RAIL,
      insuredFacts('2026-07-01'),
      new Date('2026-06-15T12:00:01.000Z'),
      HEAD,
    );
    expect(b.as_of).to.equal('2026-06-15T12:00:01.000Z');
    expect(b.provenance_hash).to.not.equal(a.provenance_hash);
  });

  it('hashes the JCS of the payload without provenance fields, three ways, and anchors the ledger head', () => {
    const result = railResult(INSURANCE_RAIL, insuredFacts('2026-07-01'), NOW, HEAD);
    const { provenance_hash, provenance, ...payload } = result;
    expect(Object.keys(payload)).to.deep.equal(['rail', 'posture', 'score', 'findings', 'coverage', 'as_of']);
    expect(payload.rail).to.equal('INSURANCE');
    const canonical = canonicalJson(payload);
    expect(provenance_hash).to.equal(sha256Hex(canonical));
    expect(provenance).to.deep.equal({ ...multiHash(canonical), ledger: HEAD });
  });
});
