import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { ManualClock } from '../../../src/platform/clock.js';
import {
  ExtractSamSource,
  exclusionKey,
  recordContentHash,
  SamApiSource,
  type SamAnswer,
  type SamExclusionRecord,
} from '../../../src/registry/index.js';
import { entitiesPage, exclusionsPage, samEntity, samExclusion } from '../../support/sam-stub.js';
import { foldRegistry, sealAll } from './support.js';

const API_KEY = 'SAM-KEY-7f3c9d1e';
const clock = new ManualClock('2026-03-01T12:00:00Z');

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function errorOf<T>(answer: SamAnswer<T>) {
  return answer.ok ? undefined : answer.error;
}

const ENTITY_RESPONSE = entitiesPage(
  samEntity({ uei: 'ACMEBLDRS001', name: 'ACME BUILDERS, INC.', cage: '1ABC2', dba: 'ACME' }),
);

const EXCLUSIONS_RESPONSE = exclusionsPage(
  samExclusion({
    uei: 'ZA8RSU0AA8S8',
    name: 'KLA CONSTRUCTION SERVICE LLC',
    cage: '7UKA2',
    activate: '11-30-2017',
    terminate: '11-29-2032',
  }),
  {
    exclusionDetails: {
      classificationType: 'Individual',
      exclusionProgram: 'Reciprocal',
      excludingAgencyCode: 'HHS',
    },
    exclusionIdentification: { ueiSAM: 'ZA8RSU0AA8S8', firstName: 'JANE', lastName: 'DOE' },
    exclusionActions: { listOfActions: [{ activateDate: '03/01/2023', terminationDate: 'Indefinite' }] },
  },
);

describe('SAM online adapter (Entity Management API v3, Exclusions API v4) against a stub server', () => {
  let server: Server;
  let base: string;
  let handler: Handler;
  const requests: URL[] = [];

  before(async () => {
    server = createServer((req, res) => {
      requests.push(new URL(req.url ?? '/', 'http://stub'));
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    requests.length = 0;
  });

  const sam = (timeoutMs?: number) =>
    new SamApiSource({ baseUrl: `${base}/`, apiKey: API_KEY, clock, ...(timeoutMs ? { timeoutMs } : {}) });

  it('asks the v3 entities endpoint by ueiSAM with the api key and maps the registration', async () => {
    handler = (_req, res) => json(res, 200, ENTITY_RESPONSE);
    const answer = await sam().lookupEntity('acmebldrs001 ');
    const [request] = requests;
    expect(request?.pathname).to.equal('/entity-information/v3/entities');
    expect(Object.fromEntries(request!.searchParams)).to.deep.equal({
      ueiSAM: 'acmebldrs001',
      includeSections: 'entityRegistration,coreData,assertions',
      api_key: API_KEY,
    });
    expect(answer).to.deep.equal({
      ok: true,
      source: { kind: 'sam_api', as_of: '2026-03-01' },
      value: {
        uei: 'ACMEBLDRS001',
        duns: null,
        cage: '1ABC2',
        legal_name: 'ACME BUILDERS, INC.',
        dba_name: 'ACME',
        status: 'active',
        purpose: 'Z2',
        registered_on: '2020-01-15',
        expires_on: '2027-01-14',
        updated_on: '2026-01-10',
        activated_on: '2026-01-15',
        city: 'AUSTIN',
        state: 'TX',
        business_types: ['2X'],
        sba_business_types: ['A6'],
        primary_naics: '236220',
        exclusion_flag: false,
      },
    });
  });

  it('answers null when SAM has no registration for the UEI', async () => {
    handler = (_req, res) => json(res, 200, { totalRecords: 0, entityData: [] });
    expect(await sam().lookupEntity('NOPE00000001')).to.deep.include({ ok: true, value: null });
  });

  it('asks the v4 exclusions endpoint and maps each excluded entity, Indefinite included', async () => {
    handler = (_req, res) => json(res, 200, EXCLUSIONS_RESPONSE);
    const answer = await sam().lookupExclusions('ZA8RSU0AA8S8');
    expect(requests[0]?.pathname).to.equal('/entity-information/v4/exclusions');
    expect(requests[0]?.searchParams.get('api_key')).to.equal(API_KEY);
    expect(answer.ok).to.equal(true);
    if (!answer.ok) return;
    expect(answer.value.map((r) => [r.name, r.agency, r.active_on, r.terminates_on, r.cage])).to.deep.equal([
      ['KLA CONSTRUCTION SERVICE LLC', 'DOI', '2017-11-30', '2032-11-29', '7UKA2'],
      ['JANE DOE', 'HHS', '2023-03-01', 'Indefinite', null],
    ]);
    expect(answer.value[1]?.person).to.deep.include({ first: 'JANE', last: 'DOE' });
  });

  it('reports a refused key, a rate limit and a server error as typed results without leaking the key', async () => {
    const cases: [number, string][] = [
      [401, 'unauthorized'],
      [403, 'unauthorized'],
      [429, 'rate_limited'],
      [500, 'http_error'],
    ];
    for (const [status, code] of cases) {
      handler = (req, res) => json(res, status, `{"error":"failed for ${req.url}"}`);
      const error = errorOf(await sam().lookupEntity('ACMEBLDRS001'));
      expect(error, String(status)).to.deep.include({ code, status });
      expect(error?.message, String(status)).not.to.include(API_KEY);
    }
  });

  it('reports a body that is not JSON, or not the expected shape, as bad_response', async () => {
    handler = (_req, res) => json(res, 200, '<html>maintenance</html>');
    expect(errorOf(await sam().lookupExclusions('X'))?.code).to.equal('bad_response');
    handler = (_req, res) => json(res, 200, { entityData: [{ entityRegistration: { ueiSAM: 7 } }] });
    const error = errorOf(await sam().lookupEntity('X'));
    expect(error?.code).to.equal('bad_response');
    expect(error?.message).to.match(/^unexpected entity response at entityData\.0\.entityRegistration/);
  });

  it('gives up after its timeout', async () => {
    const held: ServerResponse[] = [];
    handler = (_req, res) => held.push(res);
    const started = performance.now();
    const error = errorOf(await sam(150).lookupEntity('ACMEBLDRS001'));
    expect(error).to.deep.equal({ code: 'timeout', message: 'no answer within 150 ms' });
    expect(performance.now() - started).to.be.below(2000);
    for (const res of held) res.end();
  });

  it('reports an unreachable server as a network error without the key', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = new SamApiSource({ baseUrl: `http://127.0.0.1:${port}`, apiKey: API_KEY, clock });
    const error = errorOf(await unreachable.lookupExclusions('ACMEBLDRS001'));
    expect(error?.code).to.equal('network');
    expect(error?.message).not.to.include(API_KEY);
  });
});

describe('SAM port backed by the imported extracts', () => {
  const record: SamExclusionRecord = {
    classification: 'Firm',
    name: 'KLA CONSTRUCTION SERVICE LLC',
    person: null,
    uei: 'ZA8RSU0AA8S8',
    duns: null,
    cage: '7UKA2',
    npi: null,
    sam_number: 'S4MRKLA01',
    program: 'Reciprocal',
    agency: 'DOI',
    ct_code: null,
    type: 'Ineligible (Proceedings Completed)',
    active_on: '2017-11-30',
    terminates_on: '2032-11-29',
    address: { lines: [], city: null, state_province: null, country: 'USA', zip: null },
    cross_reference: null,
    additional_comments: null,
    record_status: null,
    created_on: null,
  };
  const key = exclusionKey(record);
  const state = foldRegistry(
    sealAll([
      {
        stream: `registry-${key}`,
        type: 'SamExclusionRecorded',
        data: {
          key,
          content_hash: recordContentHash(record),
          previous_hash: null,
          record,
          source: { kind: 'sam_extract', file: 'x.zip', line: 2 },
        },
      },
      {
        stream: 'registry-imports',
        type: 'SamExtractImported',
        data: {
          format: 'exclusions_csv',
          file: 'x.zip',
          file_sha256: 'ab',
          as_of: '2020-02-18',
          rows_read: 1,
          imported: 1,
          unchanged: 0,
          rejected_count: 0,
          rejected_sample: [],
        },
      },
    ]),
  );
  const source = new ExtractSamSource(() => state);

  it('answers exclusions for a UEI in any case, with the extract file and date', async () => {
    expect(await source.lookupExclusions('za8rsu0aa8s8')).to.deep.equal({
      ok: true,
      value: [record],
      source: { kind: 'sam_extract', file: 'x.zip', as_of: '2020-02-18' },
    });
  });

  it('answers no registration, dated null, when no entity extract was imported', async () => {
    expect(await source.lookupEntity('ZA8RSU0AA8S8')).to.deep.equal({
      ok: true,
      value: null,
      source: { kind: 'sam_extract', as_of: null },
    });
  });
});
