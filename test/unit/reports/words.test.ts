import { expect } from 'chai';
import { maskEin, sentence, words } from '../../../src/reports/words.js';
import { BEHAVIORAL_STATES, PRAL_LEVELS } from '../../../src/credit/index.js';
import { PRAL_MEANINGS, STATE_MEANINGS } from '../../../src/reports/words.js';

describe('the credit report’s words', () => {
  it('puts every behavioral state and PRAL in words, with what each means', () => {
    for (const state of BEHAVIORAL_STATES) {
      expect(words(state)).not.to.match(/[A-Z]{2}|_/);
      expect(STATE_MEANINGS[state], state).to.be.a('string');
    }
    for (const pral of PRAL_LEVELS) {
      expect(words(pral)).not.to.match(/[A-Z]{2}|_/);
      expect(PRAL_MEANINGS[pral], pral).to.be.a('string');
    }
    expect(words('NON_RESPONSIVE')).to.equal('Non-responsive');
    expect(words('SOME_NEW_VALUE')).to.equal('Some new value');
    expect(words(null)).to.equal('—');
  });

  it('spells out a rationale’s arrows and enum names', () => {
    expect(sentence('grade C → RELEASE_WITH_CONDITIONS')).to.equal('grade C gives Release with conditions');
    expect(sentence('behavioral state PROBATION → HOLD')).to.equal('behavioral state Probation gives Hold');
  });

  it('masks an EIN to its last four digits', () => {
    expect(maskEin('12-3456789')).to.equal('**-***6789');
    expect(maskEin('123456789')).to.equal('**-***6789');
    expect(maskEin(null)).to.equal('Not on file');
  });
});
