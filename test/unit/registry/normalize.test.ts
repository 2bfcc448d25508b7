import { expect } from 'chai';
import {
  canonicalEin,
  CORPORATE_SUFFIXES,
  nameKey,
  nameSimilarity,
  normalizeName,
  trigrams,
} from '../../../src/registry/normalize.js';

describe('entity name normalization (SPEC §4)', () => {
  it('ignores case, punctuation and whitespace', () => {
    expect(normalizeName('  ACME   Builders,  Inc. ')).to.equal('acme builders');
    expect(normalizeName('acme-builders')).to.equal(normalizeName('ACME / Builders'));
    expect(normalizeName("O'Brien & Sons")).to.equal('obrien and sons');
  });

  it('drops every corporate suffix SPEC §4 lists, including L.L.C.', () => {
    const spellings = [
      'Inc',
      'LLC',
      'L.L.C.',
      'Corp',
      'Corporation',
      'Co',
      'Company',
      'Ltd',
      'LP',
      'LLP',
      'PLLC',
      'Incorporated',
      'INCORPORATED',
      'Limited',
      'P.C.',
      'PC',
    ];
    for (const suffix of spellings)
      expect(normalizeName(`Keystone Framing ${suffix}`), suffix).to.equal('keystone framing');
    expect(CORPORATE_SUFFIXES).to.have.length(13);
  });

  it('drops stacked suffixes but keeps a designator word that is not at the end', () => {
    expect(normalizeName('Acme Co., Inc.')).to.equal('acme');
    expect(normalizeName('Co Op Builders LLC')).to.equal('co op builders');
  });

  it('never normalizes a name to nothing: a lone designator stays', () => {
    expect(normalizeName('Company')).to.equal('company');
    expect(normalizeName('---')).to.equal('');
  });

  it('removes invisible characters and reads look-alike Cyrillic and Greek letters as Latin', () => {
    expect(normalizeName('Ac\u200bme Build\u00ading\u2060s')).to.equal('acme buildings');
    expect(normalizeName('\u0410\u0420\u0415\u0425 Builders')).to.equal('apex builders');
    expect(normalizeName('\u0391\u03a1\u0395\u03a7 Builders')).to.equal('apex builders');
  });

  it('keys names without their spaces, so a hyphen or a space between words changes nothing', () => {
    expect(nameKey('Black-Water Paving, Inc.')).to.equal(nameKey('BLACKWATER PAVING CO.'));
    expect(nameKey('Black-Water Paving, Inc.')).to.equal('blackwaterpaving');
  });

  it('folds accents so SAM spellings and typed spellings meet', () => {
    expect(normalizeName('Société Générale SA')).to.equal('societe generale sa');
  });
});

describe('EIN references (SPEC §4)', () => {
  it('accepts NN-NNNNNNN and 9 digits as the same EIN', () => {
    expect(canonicalEin('12-3456789')).to.equal('12-3456789');
    expect(canonicalEin(' 123456789 ')).to.equal('12-3456789');
  });

  it('refuses other shapes', () => {
    for (const bad of ['1234-56789', '12345678', '12-345678', '12-34567890', 'AB-CDEFGHI']) {
      expect(canonicalEin(bad), bad).to.equal(undefined);
    }
  });
});

describe('name similarity (trigram Jaccard)', () => {
  const sim = (a: string, b: string) =>
    nameSimilarity(trigrams(normalizeName(a)), trigrams(normalizeName(b)));

  it('is 1 for equal names and 0 for names sharing no trigram', () => {
    expect(sim('Acme Builders', 'ACME BUILDERS LLC')).to.equal(1);
    expect(sim('Acme', 'Zyx')).to.equal(0);
  });

  it('scores a typo closer than an unrelated name', () => {
    expect(sim('Acme Bulders', 'Acme Builders')).to.be.greaterThan(sim('Apex Roofing', 'Acme Builders'));
  });
});
