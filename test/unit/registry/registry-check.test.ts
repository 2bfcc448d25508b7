import { expect } from 'chai';
import {
  checkContractorRegistry,
  exclusionKey,
  recordContentHash,
  registrationKey,
  verifyContractorRegistry,
  type SamExclusionRecord,
  type SamRegistrationRecord,
} from '../../../src/registry/index.js';
import type { EventInput } from '../../../src/platform/ledger/index.js';
import { foldRegistry, sealAll } from './support.js';

const TODAY = '2026-03-01';

function registration(overrides: Partial<SamRegistrationRecord> = {}): SamRegistrationRecord {
  return {
    uei: 'ACMEBLDRS001',
    duns: null,
    cage: '1ABC2',
    legal_name: 'ACME BUILDERS, INC.',
    dba_name: null,
    status: 'active',
    purpose: 'Z2',
    registered_on: '2020-01-15',
    expires_on: '2027-01-14',
    updated_on: null,
    activated_on: null,
    city: 'AUSTIN',
    state: 'TX',
    business_types: [],
    sba_business_types: [],
    primary_naics: null,
    exclusion_flag: false,
    ...overrides,
  };
}

function exclusion(overrides: Partial<SamExclusionRecord> = {}): SamExclusionRecord {
  return {
    classification: 'Firm',
    name: 'ACME BUILDERS, INC.',
    person: null,
    uei: 'ACMEBLDRS001',
    duns: null,
    cage: null,
    npi: null,
    sam_number: 'S4MRACME1',
    program: 'Reciprocal',
    agency: 'GSA',
    ct_code: null,
    type: 'Ineligible (Proceedings Completed)',
    active_on: '2026-01-15',
    terminates_on: '2027-01-14',
    address: { lines: [], city: null, state_province: null, country: 'USA', zip: null },
    cross_reference: null,
    additional_comments: null,
    record_status: null,
    created_on: null,
    ...overrides,
  };
}

const subject = { legal_name: 'Acme Builders Inc', uei: 'ACMEBLDRS001', cage: '1ABC2' };
const check = (registrations: SamRegistrationRecord[], exclusions: SamExclusionRecord[]) =>
  checkContractorRegistry(subject, { registrations, exclusions }, TODAY);

describe('contractor registry check (DOMAIN §5)', () => {
  describe('registration', () => {
    it('is active when SAM lists it active and it expires today or later', () => {
      expect(check([registration({ expires_on: TODAY })], []).registration).to.equal('active');
    });

    it('is inactive once the expiration date has passed', () => {
      expect(check([registration({ expires_on: '2026-02-28' })], []).registration).to.equal('inactive');
    });

    it('is inactive when SAM has no record, or the record is expired, deleted or undated', () => {
      expect(check([], []).registration).to.equal('inactive');
      for (const status of ['expired', 'deleted', 'inactive'] as const) {
        expect(check([registration({ status })], []).registration, status).to.equal('inactive');
      }
      expect(check([registration({ expires_on: null })], []).registration).to.equal('inactive');
    });

    it("reports SAM's legal name and expiration date", () => {
      const result = check([registration()], []);
      expect(result).to.include({ legal_name: 'ACME BUILDERS, INC.', registration_expires_on: '2027-01-14' });
    });
  });

  describe('exclusions', () => {
    it('is excluded while a record is in effect, boundaries included', () => {
      expect(check([], [exclusion({ active_on: TODAY })]).exclusions).to.equal('excluded');
      expect(check([], [exclusion({ terminates_on: TODAY })]).exclusions).to.equal('excluded');
      expect(check([], [exclusion({ terminates_on: 'Indefinite' })]).exclusions).to.equal('excluded');
    });

    it('is clear before the active date and after the termination date', () => {
      expect(check([], [exclusion({ active_on: '2026-03-02' })]).exclusions).to.equal('clear');
      expect(check([], [exclusion({ terminates_on: '2026-02-28' })]).exclusions).to.equal('clear');
    });

    it('fails closed on blanks SAM leaves: no active date or no termination date is in effect', () => {
      expect(check([], [exclusion({ active_on: null })]).exclusions).to.equal('excluded');
      expect(check([], [exclusion({ terminates_on: null })]).exclusions).to.equal('excluded');
    });

    it('lists every matched record with whether it is in effect', () => {
      const result = check([], [exclusion(), exclusion({ terminates_on: '2026-01-31', agency: 'HUD' })]);
      expect(result.exclusion_records.map((r) => [r.agency, r.in_effect])).to.deep.equal([
        ['GSA', true],
        ['HUD', false],
      ]);
    });
  });
});

describe('matching SAM records to an entity (DOMAIN §5)', () => {
  function recorded(exclusions: SamExclusionRecord[], registrations: SamRegistrationRecord[] = []) {
    const inputs: EventInput[] = [
      ...exclusions.map((record) => {
        const key = exclusionKey(record);
        const data = { key, content_hash: recordContentHash(record), previous_hash: null, record };
        return { stream: `registry-${key}`, type: 'SamExclusionRecorded', data: { ...data, source: SOURCE } };
      }),
      ...registrations.map((record) => {
        const key = registrationKey(record.uei);
        const data = { key, content_hash: recordContentHash(record), previous_hash: null, record };
        return {
          stream: `registry-${key}`,
          type: 'SamRegistrationRecorded',
          data: { ...data, source: SOURCE },
        };
      }),
    ];
    return foldRegistry(sealAll(inputs));
  }
  const SOURCE = { kind: 'sam_extract', file: 'x.csv', line: 2 };

  it('matches exclusions by UEI or by CAGE', () => {
    const state = recorded([
      exclusion({ uei: null, cage: '1ABC2', sam_number: 'S1' }),
      exclusion({ sam_number: 'S2' }),
    ]);
    const result = verifyContractorRegistry(state, subject, TODAY);
    expect(result.exclusion_records).to.have.length(2);
    expect(result.exclusions).to.equal('excluded');
  });

  it('matches by exact normalized name only when the entity has neither UEI nor CAGE', () => {
    const state = recorded([exclusion({ uei: 'OTHERUEI0001' })]);
    const named = { legal_name: 'Acme Builders LLC', uei: null, cage: null };
    expect(verifyContractorRegistry(state, named, TODAY).exclusions).to.equal('excluded');
    expect(verifyContractorRegistry(state, subject, TODAY).exclusions).to.equal('clear');
  });

  it('matches the name however it is spelled: spaces and hyphens, invisible characters, look-alike letters, & for and', () => {
    const state = recorded([
      exclusion({ uei: 'OTHERUEI0001', name: 'BLACKWATER PAVING CO.', sam_number: 'S1' }),
      exclusion({ uei: 'OTHERUEI0002', name: "O'NEIL & SONS CONCRETE, INC.", sam_number: 'S2' }),
    ]);
    const spellings = [
      'Black-Water Paving, Inc.',
      'Black Water Paving',
      'Blackwater Pav\u200bing LLC',
      'Blackwater Pa\u00adving',
      'Bl\u0430ckw\u0430ter P\u0430ving',
      'BL\u0391CKW\u0391TER P\u0391VING',
      'ONeil and Sons Concrete',
    ];
    for (const legal_name of spellings)
      expect(
        verifyContractorRegistry(state, { legal_name, uei: null, cage: null }, TODAY).exclusions,
        legal_name,
      ).to.equal('excluded');
    const other = { legal_name: 'Blackwater Paving Supply', uei: null, cage: null };
    expect(verifyContractorRegistry(state, other, TODAY).exclusions).to.equal('clear');
  });

  it('matches a designator SAM spells out (INCORPORATED, LIMITED, P.C.) to the abbreviation a firm registers under', () => {
    // 36 records of the real SAM extract end in INCORPORATED or LIMITED; with neither UEI nor CAGE
    // on the entity, "…, Inc." read clear against "… INCORPORATED".
    const state = recorded([
      exclusion({ uei: 'OTHERUEI0001', name: 'JAMALALI UAGUCH INCORPORATED', sam_number: 'S1' }),
      exclusion({ uei: 'OTHERUEI0002', name: 'HARBOR DREDGE LIMITED', sam_number: 'S2' }),
      exclusion({ uei: 'OTHERUEI0003', name: 'STONE AND SONS DESIGN P.C.', sam_number: 'S3' }),
    ]);
    for (const legal_name of ['Jamalali Uaguch, Inc.', 'Harbor Dredge Ltd', 'Stone & Sons Design, PC'])
      expect(
        verifyContractorRegistry(state, { legal_name, uei: null, cage: null }, TODAY).exclusions,
        legal_name,
      ).to.equal('excluded');
  });

  it('matches the registration by UEI, else by CAGE', () => {
    const state = recorded([], [registration()]);
    const byCage = { legal_name: 'Acme', uei: null, cage: '1ABC2' };
    expect(verifyContractorRegistry(state, byCage, TODAY)).to.include({
      registration: 'active',
      uei: 'ACMEBLDRS001',
    });
  });

  it('says where its answer comes from, as of the stalest extract', () => {
    const state = recorded([]);
    expect(verifyContractorRegistry(state, subject, TODAY).source).to.deep.equal({
      kind: 'sam_extract',
      as_of: null,
    });
    state.imports.exclusions_csv = { file: 'ex.zip', file_sha256: 'a', as_of: '2026-02-20', seq: 1 };
    state.imports.entity_v2 = { file: 'v2.zip', file_sha256: 'b', as_of: '2026-02-01', seq: 2 };
    expect(verifyContractorRegistry(state, subject, TODAY).source).to.deep.equal({
      kind: 'sam_extract',
      file: 'v2.zip',
      as_of: '2026-02-01',
    });
  });
});
