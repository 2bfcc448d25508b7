/**
 * SamSource over SAM.gov's online APIs: Entity Management API v3 (`/entity-information/v3/entities`)
 * and Exclusions API v4 (`/entity-information/v4/exclusions`), queried by `ueiSAM` (or `cageCode`,
 * or the name: `legalBusinessName` / `exclusionName`) with the `api_key` query parameter.
 * Responses are parsed leniently (SAM adds fields and sends nulls) into the same records the
 * extract import produces.
 *
 * SAM's answers are untrusted input (OWASP API10:2023): a body is read up to
 * SAM_API_MAX_BODY_BYTES and no further, must be JSON of the documented shape, and records that do
 * not match what was asked (another UEI, another name) are dropped. Timeouts, HTTP errors, oversized
 * and unparseable bodies come back as typed results, never exceptions; the API key never appears in
 * an error message. After a 429 the adapter asks nothing more until SAM's Retry-After has passed
 * (SAM's quotas are daily), answering `rate_limited` meanwhile.
 */
import { z } from 'zod';
import { isoDate, type Clock } from '../../platform/clock.js';
import { canonicalCode, nameKey } from '../normalize.js';
import { INDEFINITE, type SamExclusionRecord, type SamRegistrationRecord } from '../records.js';
import type { RegistrySubject } from '../registry-check.js';
import { anySamDateToIso } from './dates.js';
import type { SamAnswer, SamError, SamSource } from './port.js';

export const SAM_ENTITY_PATH = '/entity-information/v3/entities';
export const SAM_EXCLUSIONS_PATH = '/entity-information/v4/exclusions';
/**
 * Per request, body included. SAM usually answers in well under a second; a lender call waits at
 * most this long (the two lookups of a check run side by side) before the extract answers instead.
 */
export const SAM_API_TIMEOUT_MS = 5_000;
/** The most of a response body read (a SAM page of 10 full entities is ~200 KB). */
export const SAM_API_MAX_BODY_BYTES = 1_048_576;
/** How long to stay away after a 429 that names no Retry-After, and the longest any pause lasts. */
export const SAM_RATE_LIMIT_PAUSE_MS = 60_000;
export const SAM_RATE_LIMIT_MAX_PAUSE_MS = 24 * 60 * 60 * 1000;
/** The sections the registry needs (the API returns only entityRegistration without them). */
const ENTITY_SECTIONS = 'entityRegistration,coreData,assertions';

export interface SamApiOptions {
  baseUrl: string;
  apiKey: string;
  clock: Clock;
  timeoutMs?: number;
  maxBodyBytes?: number;
  fetch?: typeof fetch;
}

/** No field SAM documents is anywhere near this long; a longer one is not a SAM record. */
const MAX_FIELD = 1_000;
const str = z.string().max(MAX_FIELD).nullish();
const section = <T extends z.ZodRawShape>(shape: T) => z.object(shape).nullish();

const EntityResponse = z.object({
  entityData: z
    .array(
      z.object({
        entityRegistration: z.object({
          ueiSAM: z.string().max(64),
          ueiDUNS: str,
          cageCode: str,
          legalBusinessName: z.string().max(MAX_FIELD),
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

class BodyTooLarge extends Error {}

/** Reads at most `limit` bytes of a body; a longer one is cancelled and throws BodyTooLarge. */
async function readCapped(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    throw new BodyTooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Retry-After as delta-seconds or an HTTP date, bounded; SAM_RATE_LIMIT_PAUSE_MS when absent. */
function pauseAfter429(retryAfter: string | null, now: Date): number {
  const text = (retryAfter ?? '').trim();
  let ms = SAM_RATE_LIMIT_PAUSE_MS;
  if (/^\d{1,9}$/.test(text)) ms = Number(text) * 1000;
  else if (text !== '' && Number.isFinite(Date.parse(text))) ms = Date.parse(text) - now.getTime();
  return Math.min(Math.max(ms, 0), SAM_RATE_LIMIT_MAX_PAUSE_MS);
}

const sameName = (a: string | null | undefined, b: string): boolean => a != null && nameKey(a) === nameKey(b);

/** What SAM answered for one subject: its registrations and exclusions, each matched to it. */
export type SamSubjectAnswer = SamAnswer<{
  registrations: SamRegistrationRecord[];
  exclusions: SamExclusionRecord[];
}>;

export class SamApiSource implements SamSource {
  readonly kind = 'sam_api' as const;
  readonly #base: string;
  readonly #apiKey: string;
  readonly #clock: Clock;
  readonly #timeoutMs: number;
  readonly #maxBodyBytes: number;
  readonly #fetch: typeof fetch;
  /** No request before this instant (ms), after a 429. */
  #pausedUntil = 0;

  constructor(options: SamApiOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#clock = options.clock;
    this.#timeoutMs = options.timeoutMs ?? SAM_API_TIMEOUT_MS;
    this.#maxBodyBytes = options.maxBodyBytes ?? SAM_API_MAX_BODY_BYTES;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  /**
   * Everything SAM says about a governed entity, matched the way the extract check matches
   * (registry-check.ts): registrations by UEI, else CAGE, else legal name; exclusions by UEI,
   * else CAGE, else name. The two lookups run side by side; if either fails, the answer is that
   * failure (half an answer could clear an excluded contractor).
   */
  async lookupSubject(subject: RegistrySubject): Promise<SamSubjectAnswer> {
    const uei = canonicalCode(subject.uei);
    const cage = canonicalCode(subject.cage);
    const [registrations, exclusions] = await Promise.all([
      uei !== null
        ? this.#entities({ ueiSAM: uei }, (r) => r.uei === uei)
        : cage !== null
          ? this.#entities({ cageCode: cage }, (r) => r.cage === cage)
          : this.#entities(
              { legalBusinessName: subject.legal_name.trim() },
              (r) => sameName(r.legal_name, subject.legal_name) || sameName(r.dba_name, subject.legal_name),
            ),
      uei !== null
        ? this.#exclusions({ ueiSAM: uei }, (r) => r.uei === uei)
        : cage !== null
          ? this.#exclusions({ cageCode: cage }, (r) => r.cage === cage)
          : this.#exclusions({ exclusionName: subject.legal_name.trim() }, (r) =>
              [subject.legal_name, ...(subject.aliases ?? [])].some((n) => sameName(r.name, n)),
            ),
    ]);
    if (!registrations.ok) return registrations;
    if (!exclusions.ok) return exclusions;
    return {
      ok: true,
      value: { registrations: registrations.value, exclusions: exclusions.value },
      source: this.#source(),
    };
  }

  async #entities(
    params: Record<string, string>,
    matches: (record: SamRegistrationRecord) => boolean,
  ): Promise<SamAnswer<SamRegistrationRecord[]>> {
    const fetched = await this.#get(SAM_ENTITY_PATH, { ...params, includeSections: ENTITY_SECTIONS });
    if (!fetched.ok) return fetched;
    const parsed = EntityResponse.safeParse(fetched.json);
    if (!parsed.success) return this.#badResponse('entity', parsed.error);
    const records = (parsed.data.entityData ?? []).map(registrationFromApi).filter(matches);
    return { ok: true, value: records, source: this.#source() };
  }

  async #exclusions(
    params: Record<string, string>,
    matches: (record: SamExclusionRecord) => boolean,
  ): Promise<SamAnswer<SamExclusionRecord[]>> {
    const fetched = await this.#get(SAM_EXCLUSIONS_PATH, params);
    if (!fetched.ok) return fetched;
    const parsed = ExclusionsResponse.safeParse(fetched.json);
    if (!parsed.success) return this.#badResponse('exclusions', parsed.error);
    const records = (parsed.data.excludedEntity ?? []).map(exclusionFromApi).filter(matches);
    return { ok: true, value: records, source: this.#source() };
  }

  async lookupEntity(uei: string): Promise<SamAnswer<SamRegistrationRecord | null>> {
    const answer = await this.#entities({ ueiSAM: uei.trim() }, () => true);
    return answer.ok ? { ...answer, value: answer.value[0] ?? null } : answer;
  }

  lookupExclusions(uei: string): Promise<SamAnswer<SamExclusionRecord[]>> {
    return this.#exclusions({ ueiSAM: uei.trim() }, () => true);
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
    const now = this.#clock.now();
    if (now.getTime() < this.#pausedUntil) {
      const until = new Date(this.#pausedUntil).toISOString();
      return {
        ok: false,
        error: { code: 'rate_limited', message: `SAM rate limit reached; not asking again before ${until}` },
      };
    }
    const url = new URL(`${this.#base}${path}`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    url.searchParams.set('api_key', this.#apiKey);
    try {
      const response = await this.#fetch(url, {
        headers: { accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      if (response.status === 429)
        this.#pausedUntil = now.getTime() + pauseAfter429(response.headers.get('retry-after'), now);
      let body: string;
      try {
        body = await readCapped(response, this.#maxBodyBytes);
      } catch (error) {
        if (!(error instanceof BodyTooLarge)) throw error;
        const message = `body exceeds ${this.#maxBodyBytes} bytes`;
        return { ok: false, error: { code: 'bad_response', status: response.status, message } };
      }
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
