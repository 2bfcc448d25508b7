/**
 * Registry request and response schemas (SPEC §5 `POST /api/entities`, `POST /api/registry/import`).
 * Strict objects: an unknown field is a 400 INVALID_REQUEST.
 */
import { z } from 'zod';
import { nameText } from '../platform/http/validate.js';
import { US_JURISDICTIONS } from '../projects/jurisdictions.js';
import { canonicalEin, normalizeName } from './normalize.js';

/** Entity roles (DOMAIN §1). */
export const ENTITY_ROLES = [
  'general_contractor',
  'subcontractor',
  'supplier',
  'owner',
  'architect',
  'inspector',
  'lender',
] as const;
export type EntityRole = (typeof ENTITY_ROLES)[number];

/** Longest legal name or alias accepted (SAM's legal business name field holds 120; room to spare). */
export const MAX_NAME_LENGTH = 200;
/** Aliases/DBAs per entity: enough for real trade names, small enough to keep name lookups cheap. */
export const MAX_ALIASES = 20;
/** SAM business type codes per entity (the V2 extract lists a few dozen at most). */
export const MAX_BUSINESS_TYPES = 50;

/** SAM UEI: 12 characters, letters O and I unused, first character not zero (SAM.gov UEI format). */
export const UEI_PATTERN = /^[A-HJ-NP-Z1-9][A-HJ-NP-Z0-9]{11}$/i;
/** CAGE code: 5 alphanumeric characters. */
export const CAGE_PATTERN = /^[A-Z0-9]{5}$/i;
/** SAM business type code: 2 alphanumeric characters (e.g. 2X, A2, 8W). */
export const BUSINESS_TYPE_PATTERN = /^[A-Z0-9]{2}$/i;

const name = nameText(MAX_NAME_LENGTH).refine((value) => normalizeName(value) !== '', {
  error: 'must contain a letter or digit',
});

export const RegisterEntityBody = z.strictObject({
  legal_name: name,
  aliases: z.array(name).max(MAX_ALIASES).optional(),
  ein: z
    .string()
    .trim()
    .refine((value) => canonicalEin(value) !== undefined, { error: 'must be NN-NNNNNNN or 9 digits' })
    .optional(),
  uei: z.string().trim().regex(UEI_PATTERN, { error: 'must be a 12-character SAM UEI' }).optional(),
  cage: z.string().trim().regex(CAGE_PATTERN, { error: 'must be a 5-character CAGE code' }).optional(),
  roles: z.array(z.enum(ENTITY_ROLES)).min(1).max(ENTITY_ROLES.length),
  business_types: z
    .array(z.string().trim().regex(BUSINESS_TYPE_PATTERN, { error: 'must be a 2-character SAM code' }))
    .max(MAX_BUSINESS_TYPES)
    .optional(),
  state: z.enum(US_JURISDICTIONS).optional(),
});
export type RegisterEntityBody = z.infer<typeof RegisterEntityBody>;

/** `POST /api/registry/import` with a JSON body: a file already on the server (the CLI's path). */
/**
 * `{path}` of a file under DATA_DIR/imports (the route confines it there, symlinks resolved). Never
 * a URL: the server fetches nothing on a caller's behalf (OWASP API7), so a scheme is refused here.
 */
export const ImportRegistryFileBody = z.strictObject({
  path: z
    .string()
    .trim()
    .min(1)
    .max(4096)
    .refine((p) => !/^[a-z][a-z0-9+.-]+:/i.test(p), {
      error: 'must be a path under DATA_DIR/imports, not a URL: the server fetches nothing',
    })
    .refine((p) => !p.includes('\0'), { error: 'must not contain NUL' }),
});
export type ImportRegistryFileBody = z.infer<typeof ImportRegistryFileBody>;

const lineReason = z.strictObject({ line: z.number().int().min(0), reason: z.string() });

/** The import summary returned by `importSamFile` (and by the import route as its 201 body). */
export const ImportSummarySchema = z.strictObject({
  format: z.enum(['exclusions_csv', 'entity_v2']),
  file: z.string(),
  file_sha256: z.string(),
  as_of: z.string(),
  declared_rows: z.number().int().nullable(),
  rows_read: z.number().int(),
  imported: z.number().int(),
  unchanged: z.number().int(),
  rejected_count: z.number().int(),
  rejected: z.array(lineReason),
  repaired: z.array(lineReason),
  events_appended: z.number().int(),
});

/** Candidate in a 404/409 entity problem (SPEC §2). */
export const EntityCandidateSchema = z.strictObject({ entity: z.string(), entity_id: z.string() });
