/**
 * A local stand-in for SAM.gov's Entity Management API v3 and Exclusions API v4: a real HTTP
 * server on a free loopback port whose answers a test sets per path, in the shapes SAM documents
 * (`{totalRecords, entityData: [{entityRegistration, coreData, assertions}]}` and
 * `{totalRecords, excludedEntity: [{exclusionDetails, exclusionIdentification, exclusionActions, …}]}`).
 * It records every request so a test can prove what was (not) asked.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SAM_ENTITIES = '/entity-information/v3/entities';
export const SAM_EXCLUSIONS = '/entity-information/v4/exclusions';

export type SamStubHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** One entity registration as the Entity Management API v3 returns it. */
export function samEntity(fields: {
  uei: string;
  name: string;
  cage?: string | null;
  dba?: string | null;
  status?: string;
  expires?: string;
  exclusionFlag?: string;
}): Record<string, unknown> {
  return {
    entityRegistration: {
      samRegistered: 'Yes',
      ueiSAM: fields.uei,
      ueiDUNS: null,
      cageCode: fields.cage ?? null,
      legalBusinessName: fields.name,
      dbaName: fields.dba ?? null,
      registrationStatus: fields.status ?? 'Active',
      purposeOfRegistrationCode: 'Z2',
      registrationDate: '2020-01-15',
      registrationExpirationDate: fields.expires ?? '2027-01-14',
      lastUpdateDate: '2026-01-10',
      activationDate: '2026-01-15',
      exclusionStatusFlag: fields.exclusionFlag ?? 'N',
      noPublicDisplayFlag: 'N',
    },
    coreData: {
      physicalAddress: { addressLine1: '100 MAIN ST', city: 'AUSTIN', stateOrProvinceCode: 'TX' },
      businessTypes: {
        businessTypeList: [{ businessTypeCode: '2X', businessTypeDescription: 'For Profit Organization' }],
        sbaBusinessTypeList: [{ sbaBusinessTypeCode: 'A6', sbaBusinessTypeDescription: '8(a)' }],
      },
    },
    assertions: { goodsAndServices: { primaryNaics: '236220' } },
  };
}

/** One excluded entity as the Exclusions API v4 returns it (dates MM-DD-YYYY, as SAM sends them). */
export function samExclusion(fields: {
  uei: string | null;
  name: string;
  cage?: string | null;
  activate?: string;
  terminate?: string;
  agency?: string;
}): Record<string, unknown> {
  return {
    exclusionDetails: {
      classificationType: 'Firm',
      exclusionType: 'Ineligible (Proceedings Completed)',
      exclusionProgram: 'Reciprocal',
      excludingAgencyCode: fields.agency ?? 'DOI',
      excludingAgencyName: 'DEPARTMENT OF THE INTERIOR',
    },
    exclusionIdentification: {
      ueiSAM: fields.uei,
      cageCode: fields.cage ?? null,
      npi: null,
      prefix: null,
      firstName: null,
      middleName: null,
      lastName: null,
      suffix: null,
      entityName: fields.name,
    },
    exclusionActions: {
      listOfActions: [
        {
          createDate: fields.activate ?? '11-30-2017',
          updateDate: null,
          activateDate: fields.activate ?? '11-30-2017',
          terminationDate: fields.terminate ?? 'Indefinite',
          terminationType: fields.terminate ? 'Definite' : 'Indefinite',
          recordStatus: 'Active',
        },
      ],
    },
    exclusionPrimaryAddress: {
      addressLine1: '1 A ST',
      city: 'ANCHORAGE',
      stateOrProvinceCode: 'AK',
      zipCode: '99501',
      countryCode: 'USA',
    },
    exclusionOtherInformation: { additionalComments: null, ctCode: null },
  };
}

export const entitiesPage = (...entities: Record<string, unknown>[]) => ({
  totalRecords: entities.length,
  entityData: entities,
  links: { selfLink: 'https://api.sam.gov/entity-information/v3/entities' },
});
export const exclusionsPage = (...excluded: Record<string, unknown>[]) => ({
  totalRecords: excluded.length,
  excludedEntity: excluded,
});

export interface SamStub {
  url: string;
  /** Every request, in order. */
  requests: URL[];
  /** The handler for a path (SAM_ENTITIES, SAM_EXCLUSIONS); others answer 404. */
  on(path: string, handler: SamStubHandler): void;
  /** Answer both paths with these documented bodies. */
  answer(entities: unknown, exclusions: unknown): void;
  /** Never answer (until stop): a hung SAM. */
  hang(): void;
  reset(): void;
  stop(): Promise<void>;
}

export async function startSamStub(): Promise<SamStub> {
  const handlers = new Map<string, SamStubHandler>();
  const requests: URL[] = [];
  const held: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sam.stub');
    requests.push(url);
    const handler = handlers.get(url.pathname);
    if (handler) handler(req, res, url);
    else sendJson(res, 404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    on: (path, handler) => handlers.set(path, handler),
    answer(entities, exclusions) {
      handlers.set(SAM_ENTITIES, (_req, res) => sendJson(res, 200, entities));
      handlers.set(SAM_EXCLUSIONS, (_req, res) => sendJson(res, 200, exclusions));
    },
    hang() {
      const hold: SamStubHandler = (_req, res) => held.push(res);
      handlers.set(SAM_ENTITIES, hold);
      handlers.set(SAM_EXCLUSIONS, hold);
    },
    reset() {
      handlers.clear();
      requests.length = 0;
    },
    async stop() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
