/**
 * SamSource over SAM.gov's online APIs: Entity Management API v3 (`/entity-information/v3/entities`)
 * and Exclusions API v4 (`/entity-information/v4/exclusions`), queried by `ueiSAM` with the
 * `api_key` query parameter. Responses are parsed leniently (SAM adds fields and sends nulls)
 * into the same records the extract import produces. Timeouts, HTTP errors and unparseable
 * bodies come back as typed results; the API key never appears in an error message.
 */
import { z } from 'zod';
import { isoDate, type Clock } from '../../platform/clock.js';
import { canonicalCode } from '../normalize.js';
import { INDEFINITE, type SamExclusionRecord, type SamRegistrationRecord } from '../records.js';
import { anySamDateToIso } from './dates.js';
import type { SamAnswer, SamError, SamSource } from './port.js';

export const SAM_ENTITY_PATH = '/entity-information/v3/entities';
export const SAM_EXCLUSIONS_PATH = '/entity-information/v4/exclusions';
/** Per request, body included. SAM usually answers in well under a second. */
export const SAM_API_TIMEOUT_MS = 10_000;
/** The sections the registry needs (the API returns only entityRegistration without them). */
const ENTITY_SECTIONS = 'entityRegistration,coreData,assertions';

export interface SamApiOptions {
  baseUrl: string;
  apiKey: string;
  clock: Clock;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const str = z.string().nullish();
const section = <T extends z.ZodRawShape>(shape: T) => z.object(shape).nullish();

const EntityResponse = z.object({
  entityData: z
    .array(
      z.object({
        entityRegistration: z.object({
          ueiSAM: z.string(),
          ueiDUNS: str,
          cageCode: str,
          legalBusinessName: z.string(),
          dbaName: str,
          registrationStatus: str,
          purposeOfRegistrationCode: str,
          registrationDate: str,
          registrationExpirationDate: str,
          lastUpdateDate: str,
          activationDate: str,
          exclusionStatusFlag: str,
        }),
        coreData: section({
          physicalAddress: section({ city: str, stateOrProvinceCode: str }),
          businessTypes: section({
            businessTypeList: z.array(z.object({ businessTypeCode: str })).nullish(),
            sbaBusinessTypeList: z.array(z.object({ sbaBusinessTypeCode: str })).nullish(),
          }),
        }),
        assertions: section({ goodsAndServices: section({ primaryNaics: str }) }),
      }),
    )
    .nullish(),
});

const ExclusionsResponse = z.object({
  excludedEntity: z
    .array(
      z.object({
        exclusionDetails: section({
          classificationType: str,
          exclusionType: str,
          exclusionProgram: str,
          excludingAgencyCode: str,
          excludingAgencyName: str,
        }),
        exclusionIdentification: section({
          ueiSAM: str,
          ueiDUNS: str,
          cageCode: str,
          npi: str,
          prefix: str,
          firstName: str,
          middleName: str,
          lastName: str,
          suffix: str,
          entityName: str,
          name: str,
        }),
        exclusionActions: section({
          listOfActions: z
            .array(
              z.object({
                createDate: str,
                activateDate: str,
                terminationDate: str,
                terminationType: str,
                recordStatus: str,
              }),
            )
            .nullish(),
        }),
        exclusionPrimaryAddress: section({
          addressLine1: str,
          addressLine2: str,
          city: str,
          stateOrProvinceCode: str,
          zipCode: str,
          countryCode: str,
        }),
        exclusionOtherInformation: section({ additionalComments: str, ctCode: str, samNumber: str }),
      }),
    )
    .nullish(),
});

type ApiEntity = NonNullable<z.infer<typeof EntityResponse>['entityData']>[number];
type ApiExclusion = NonNullable<z.infer<typeof ExclusionsResponse>['excludedEntity']>[number];

function clean(value: string | null | undefined): string | null {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? null : trimmed;
}

function date(value: string | null | undefined): string | null {
  const text = clean(value);
  return text === null ? null : (anySamDateToIso(text) ?? null);
}

function codes(items: ({ [k: string]: string | null | undefined } | undefined)[], field: string): string[] {
  return items.map((item) => clean(item?.[field])?.toUpperCase()).filter((c): c is string => c != null);
}

export function registrationFromApi(entity: ApiEntity): SamRegistrationRecord {
  const reg = entity.entityRegistration;
  const types = entity.coreData?.businessTypes;
  return {
    uei: canonicalCode(reg.ueiSAM) ?? reg.ueiSAM,
    duns: canonicalCode(reg.ueiDUNS),
    cage: canonicalCode(reg.cageCode),
    legal_name: reg.legalBusinessName.trim(),
    dba_name: clean(reg.dbaName),
    status: clean(reg.registrationStatus)?.toLowerCase() === 'active' ? 'active' : 'inactive',
    purpose: clean(reg.purposeOfRegistrationCode),
    registered_on: date(reg.registrationDate),
    expires_on: date(reg.registrationExpirationDate),
    updated_on: date(reg.lastUpdateDate),
    activated_on: date(reg.activationDate),
    city: clean(entity.coreData?.physicalAddress?.city),
    state: clean(entity.coreData?.physicalAddress?.stateOrProvinceCode),
    business_types: codes(types?.businessTypeList ?? [], 'businessTypeCode'),
    sba_business_types: codes(types?.sbaBusinessTypeList ?? [], 'sbaBusinessTypeCode'),
    primary_naics: clean(entity.assertions?.goodsAndServices?.primaryNaics),
    exclusion_flag: clean(reg.exclusionStatusFlag) === 'D',
  };
}

type ApiAction = NonNullable<NonNullable<ApiExclusion['exclusionActions']>['listOfActions']>[number];

function termination(action: ApiAction | undefined): string | null {
  const text = clean(action?.terminationDate);
  if (text?.toLowerCase() === INDEFINITE.toLowerCase()) return INDEFINITE;
  if (text !== null) return anySamDateToIso(text) ?? null;
  return clean(action?.terminationType)?.toLowerCase() === INDEFINITE.toLowerCase() ? INDEFINITE : null;
}

export function exclusionFromApi(item: ApiExclusion): SamExclusionRecord {
  const id = item.exclusionIdentification;
  const details = item.exclusionDetails;
  const actions = item.exclusionActions?.listOfActions ?? [];
  const action = actions[actions.length - 1];
  const address = item.exclusionPrimaryAddress;
  const person = {
    prefix: clean(id?.prefix),
    first: clean(id?.firstName),
    middle: clean(id?.middleName),
    last: clean(id?.lastName),
    suffix: clean(id?.suffix),
  };
  const hasPerson = Object.values(person).some((v) => v !== null);
  return {
    classification: clean(details?.classificationType),
    name: clean(id?.entityName) ?? clean(id?.name) ?? Object.values(person).filter(Boolean).join(' '),
    person: hasPerson ? person : null,
    uei: canonicalCode(id?.ueiSAM),
    duns: canonicalCode(id?.ueiDUNS),
    cage: canonicalCode(id?.cageCode),
    npi: clean(id?.npi),
    sam_number: canonicalCode(item.exclusionOtherInformation?.samNumber),
    program: clean(details?.exclusionProgram),
    agency: clean(details?.excludingAgencyCode) ?? clean(details?.excludingAgencyName),
    ct_code: clean(item.exclusionOtherInformation?.ctCode),
    type: clean(details?.exclusionType),
    active_on: date(action?.activateDate),
    terminates_on: termination(action),
    address: {
      lines: [clean(address?.addressLine1), clean(address?.addressLine2)].filter((l) => l !== null),
      city: clean(address?.city),
      state_province: clean(address?.stateOrProvinceCode),
      country: clean(address?.countryCode),
      zip: clean(address?.zipCode),
    },
    cross_reference: null,
    additional_comments: clean(item.exclusionOtherInformation?.additionalComments),
    record_status: clean(action?.recordStatus),
    created_on: date(action?.createDate),
  };
}

type Fetched = { ok: true; json: unknown } | { ok: false; error: SamError };

export class SamApiSource implements SamSource {
  readonly kind = 'sam_api' as const;
  readonly #base: string;
  readonly #apiKey: string;
  readonly #clock: Clock;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: SamApiOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#clock = options.clock;
    this.#timeoutMs = options.timeoutMs ?? SAM_API_TIMEOUT_MS;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  async lookupEntity(uei: string): Promise<SamAnswer<SamRegistrationRecord | null>> {
    const fetched = await this.#get(SAM_ENTITY_PATH, {
      ueiSAM: uei.trim(),
      includeSections: ENTITY_SECTIONS,
    });
    if (!fetched.ok) return fetched;
    const parsed = EntityResponse.safeParse(fetched.json);
    if (!parsed.success) return this.#badResponse('entity', parsed.error);
    const first = parsed.data.entityData?.[0];
    return { ok: true, value: first ? registrationFromApi(first) : null, source: this.#source() };
  }

  async lookupExclusions(uei: string): Promise<SamAnswer<SamExclusionRecord[]>> {
    const fetched = await this.#get(SAM_EXCLUSIONS_PATH, { ueiSAM: uei.trim() });
    if (!fetched.ok) return fetched;
    const parsed = ExclusionsResponse.safeParse(fetched.json);
    if (!parsed.success) return this.#badResponse('exclusions', parsed.error);
    const records = (parsed.data.excludedEntity ?? []).map(exclusionFromApi);
    return { ok: true, value: records, source: this.#source() };
  }

  #source() {
    return { kind: this.kind, as_of: isoDate(this.#clock.now()) };
  }

  #badResponse(what: string, error: z.ZodError): { ok: false; error: SamError } {
    const first = error.issues[0];
    const where = first ? ` at ${first.path.join('.') || '(root)'}: ${first.message}` : '';
    return { ok: false, error: { code: 'bad_response', message: `unexpected ${what} response${where}` } };
  }

  /** Never lets the key out: SAM echoes request URLs in some errors, and so does fetch. */
  #redact(message: string): string {
    return this.#apiKey === '' ? message : message.split(this.#apiKey).join('***');
  }

  async #get(path: string, params: Record<string, string>): Promise<Fetched> {
    const url = new URL(`${this.#base}${path}`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    url.searchParams.set('api_key', this.#apiKey);
    try {
      const response = await this.#fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      const body = await response.text();
      if (!response.ok) return { ok: false, error: this.#httpError(response.status, body) };
      try {
        return { ok: true, json: JSON.parse(body) as unknown };
      } catch {
        return {
          ok: false,
          error: { code: 'bad_response', status: response.status, message: 'body is not JSON' },
        };
      }
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        return { ok: false, error: { code: 'timeout', message: `no answer within ${this.#timeoutMs} ms` } };
      }
      return { ok: false, error: { code: 'network', message: this.#redact((error as Error).message) } };
    }
  }

  #httpError(status: number, body: string): SamError {
    const detail = this.#redact(body.slice(0, 200));
    if (status === 401 || status === 403)
      return { code: 'unauthorized', status, message: `SAM refused the API key (${status})` };
    if (status === 429) return { code: 'rate_limited', status, message: 'SAM rate limit reached' };
    return { code: 'http_error', status, message: `SAM answered ${status}: ${detail}` };
  }
}
