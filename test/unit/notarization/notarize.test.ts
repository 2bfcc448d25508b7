import { expect } from 'chai';
import { asPlatformMultiHash, notarize } from '../../../src/notarization/index.js';
import { multiHash } from '../../../src/platform/crypto/hash.js';
import type { LienWaiver } from '../../../src/projects/facts.js';

/** A recorded conditional waiver, with a non-ASCII exception so canonical UTF-8 bytes are exercised. */
const waiver: LienWaiver = {
  org_id: 'org_test',
  recorded_at: '2026-03-03T00:00:00.000Z',
  recorded_seq: 16,
  id: 'WAIV-condcondcondcond',
  project_id: 'prj_harborloftsaaaaa',
  type: 'LIEN_WAIVER',
  claimant: 'ent_gcgcgcgcgcgcgcgc',
  draw_id: 'DRW-secondsecondseco',
  waiver_type: 'CONDITIONAL_PROGRESS',
  amount: 50_000_00,
  through_date: '2026-02-28',
  signed_on: '2026-03-03',
  executed: true,
  exceptions: [{ description: 'Retention — Ünit 4 <held>', amount: null }],
};

/**
 * Computed independently with Python's hashlib over
 * json.dumps(doc, sort_keys=True, separators=(',', ':'), ensure_ascii=False).encode() — the same
 * bytes as RFC 8785 for a document of strings, integers, booleans and nulls.
 */
const CANONICAL =
  '{"amount":5000000,"claimant":"ent_gcgcgcgcgcgcgcgc","draw_id":"DRW-secondsecondseco","exceptions":[{"amount":null,"description":"Retention — Ünit 4 <held>"}],"executed":true,"id":"WAIV-condcondcondcond","org_id":"org_test","project_id":"prj_harborloftsaaaaa","recorded_at":"2026-03-03T00:00:00.000Z","recorded_seq":16,"signed_on":"2026-03-03","through_date":"2026-02-28","type":"LIEN_WAIVER","waiver_type":"CONDITIONAL_PROGRESS"}';
const KNOWN = {
  sha256: '60bcc08eb742bb63735cd82ea81077e740403e1bb162d9745f753fe08fcf476a',
  sha3: '1f10b806aded08babb0ed565f3aa9973d9cb08da8fe4fcce6b9a079da8f16334',
  blake2b: 'b227cdeef7bd5e4107f12a4338e9d050e20f91b692c170d561f7950542893d5e',
};

describe('notarization (SPEC §6)', () => {
  it('hashes the canonical JSON of the recorded document to independently computed digests', () => {
    const result = notarize(waiver, {
      jurisdiction: 'CA',
      notarized_at: '2026-03-06T10:00:00.000Z',
      document_type: 'LIEN_WAIVER',
    });
    expect(result).to.deep.equal({
      ok: true,
      value: {
        document_id: 'WAIV-condcondcondcond',
        document_type: 'LIEN_WAIVER',
        project_id: 'prj_harborloftsaaaaa',
        jurisdiction: 'CA',
        notarized_at: '2026-03-06T10:00:00.000Z',
        multi_hash: KNOWN,
        canonical: CANONICAL,
      },
    });
  });

  it('records the same digests the platform multi-hash gives for the canonical bytes', () => {
    expect(asPlatformMultiHash(KNOWN)).to.deep.equal(multiHash(CANONICAL));
  });

  it('gives the same digests whatever the key order of the object it is handed', () => {
    const reordered = Object.fromEntries(Object.entries(waiver).reverse()) as unknown as LienWaiver;
    const result = notarize(reordered, { jurisdiction: 'PR', notarized_at: '2026-03-06T10:00:00.000Z' });
    expect(result.ok && result.value.multi_hash).to.deep.equal(KNOWN);
  });

  it('changes every digest when any recorded field changes, including where it was recorded', () => {
    const moved = notarize(
      { ...waiver, recorded_seq: 17 },
      { jurisdiction: 'CA', notarized_at: '2026-03-06T10:00:00.000Z' },
    );
    if (!moved.ok) throw new Error('expected a notarization');
    expect(moved.value.multi_hash.sha256).to.not.equal(KNOWN.sha256);
    expect(moved.value.multi_hash.sha3).to.not.equal(KNOWN.sha3);
    expect(moved.value.multi_hash.blake2b).to.not.equal(KNOWN.blake2b);
  });

  it('rejects a jurisdiction that is not a US state or territory code', () => {
    for (const jurisdiction of ['ON', 'ca', 'USA', '']) {
      const result = notarize(waiver, { jurisdiction, notarized_at: '2026-03-06T10:00:00.000Z' });
      expect(result).to.deep.equal({
        ok: false,
        error: {
          code: 'UNKNOWN_JURISDICTION',
          jurisdiction,
          message: `"${jurisdiction}" is not a US state or territory code`,
        },
      });
    }
  });

  it('accepts DC and the inhabited territories', () => {
    for (const jurisdiction of ['DC', 'GU', 'VI', 'AS', 'MP']) {
      expect(notarize(waiver, { jurisdiction, notarized_at: '2026-03-06T10:00:00.000Z' }).ok).to.equal(true);
    }
  });

  it('rejects a document that is not of the type the caller named', () => {
    const result = notarize(waiver, {
      jurisdiction: 'CA',
      notarized_at: '2026-03-06T10:00:00.000Z',
      document_type: 'INVOICE',
    });
    expect(result.ok === false && result.error).to.include({
      code: 'DOCUMENT_TYPE_MISMATCH',
      expected: 'INVOICE',
      actual: 'LIEN_WAIVER',
    });
  });
});
