/**
 * The SAM port: one way to ask "what does SAM say about this UEI", answered either from the
 * imported extracts (the registry projection) or live from SAM.gov's APIs. Failures are typed
 * results, never exceptions: a registry check must be able to say "source unavailable".
 */
import type { SamExclusionRecord, SamRegistrationRecord } from '../records.js';
import { canonicalCode } from '../normalize.js';
import { listed, own, type RegistryState } from '../state.js';

export type SamSourceKind = 'sam_extract' | 'sam_api';

export interface SamAnswerSource {
  kind: SamSourceKind;
  file?: string;
  /** The date the answer describes: the extract's date, or the day of the live call. */
  as_of: string | null;
}

export type SamErrorCode =
  'timeout' | 'network' | 'unauthorized' | 'rate_limited' | 'http_error' | 'bad_response';

export interface SamError {
  code: SamErrorCode;
  /** HTTP status, when SAM answered. */
  status?: number;
  message: string;
}

export type SamAnswer<T> = { ok: true; value: T; source: SamAnswerSource } | { ok: false; error: SamError };

export interface SamSource {
  readonly kind: SamSourceKind;
  /** The entity registration for a UEI, or null when SAM has none. */
  lookupEntity(uei: string): Promise<SamAnswer<SamRegistrationRecord | null>>;
  /** Every exclusion record listed under a UEI (in effect or not). */
  lookupExclusions(uei: string): Promise<SamAnswer<SamExclusionRecord[]>>;
}

/** Answers from the imported extracts, as folded by the registry projection. */
export class ExtractSamSource implements SamSource {
  readonly kind = 'sam_extract' as const;

  /** `state` is a getter: the projection runtime may replace the state object (snapshot load). */
  constructor(private readonly state: () => RegistryState) {}

  lookupEntity(uei: string): Promise<SamAnswer<SamRegistrationRecord | null>> {
    const state = this.state();
    const entry = own(state.registrations, canonicalCode(uei) ?? '');
    const imported = state.imports.entity_v2;
    const source: SamAnswerSource = imported
      ? { kind: this.kind, file: imported.file, as_of: imported.as_of }
      : { kind: this.kind, as_of: null };
    return Promise.resolve({ ok: true, value: entry?.record ?? null, source });
  }

  lookupExclusions(uei: string): Promise<SamAnswer<SamExclusionRecord[]>> {
    const state = this.state();
    const keys = listed(state.exclusions_by_uei, canonicalCode(uei));
    const records = keys.map((key) => own(state.exclusions, key)?.record).filter((r) => r !== undefined);
    const imported = state.imports.exclusions_csv;
    const source: SamAnswerSource = imported
      ? { kind: this.kind, file: imported.file, as_of: imported.as_of }
      : { kind: this.kind, as_of: null };
    return Promise.resolve({ ok: true, value: records, source });
  }
}
