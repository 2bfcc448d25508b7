/**
 * The evidence the draw compile passes between layers (DOMAIN §9), and the input it starts from.
 * Evidence names are the SPEC §6 `evidence_available` strings.
 */
import type { Cents, Document, Draw, EntityId, Project } from '../../projects/facts.js';
import type { Grade } from '../constants.js';
import type { DrawVerdict } from '../events.js';
import type { Finding, FindingCode, ResolvedAs } from '../findings.js';

/** DOMAIN §6 payment release authorization levels, best first. */
export const PRAL_LEVELS = ['RELEASE', 'RELEASE_WITH_CONDITIONS', 'HOLD', 'DENY'] as const;
export type Pral = (typeof PRAL_LEVELS)[number];

/** DOMAIN §9 draw verdicts, as `DrawCompiled` records them. */
export type { DrawVerdict };

/** The GC's standing as the registry (§5 contractor registry) and credit (§6 PRAL) capabilities see it. */
export interface ContractorStanding {
  entity_id: EntityId;
  registration: 'active' | 'inactive';
  excluded: boolean;
  /** The GC's PRAL from its credit grade and behavioral state (DOMAIN §6). */
  pral: Pral;
}

/** Everything a draw compile reads. `S`/`N` are the kernel rules' own input and clock types. */
export interface DrawCompileInput<S, N> {
  project: Project;
  draw: Draw;
  /** The project's documents as the projects projection holds them. */
  documents: readonly Document[];
  contractor: ContractorStanding;
  /**
   * Explicit resolutions by finding id (DOMAIN §2 "or by an explicit resolution"): a finding found
   * as its resolution covers it (`resolutionCovers`) is not open.
   */
  resolutions: Readonly<Record<string, ResolvedAs>>;
  /** Handed unchanged to the kernel's per-code rules. */
  scan_input: S;
  now: N;
}

/** `sov_integrity`: the G703 reads line for line against the SOV. */
export interface SovIntegrity {
  lines: number;
  contract_sum_to_date: Cents;
  total_completed_and_stored: Cents;
}

/** `document_inventory`: the documents this draw's review rests on, by role. */
export interface DocumentInventory {
  waivers_for_draw: string[];
  inspections_for_draw: string[];
  title_date_downs: string[];
  certificates: string[];
  invoices_listed: string[];
  bills_of_sale: string[];
}

/** `identity_registry`: who the GC is and what the registry says about it. */
export interface IdentityRegistry {
  general_contractor: EntityId;
  registration: 'active' | 'inactive';
  excluded: boolean;
}

/** `pral_verdict`. */
export interface PralVerdict {
  pral: Pral;
  contractor_pral: Pral;
  excluded: boolean;
  rationale: string[];
}

export interface ScoreGrade {
  score: number;
  grade: Grade;
}

/** `adequacy_vector` (DOMAIN §4, SPEC §6 adequacy shape). */
export interface AdequacyVector {
  overall: ScoreGrade;
  vector: Record<'lender' | 'contractor' | 'project' | 'cashflow' | 'compliance' | 'risk', ScoreGrade>;
}

/** `draw_verdict`. */
export interface DrawVerdictEvidence {
  draw_verdict: DrawVerdict;
  reasons: string[];
  open_blocking: number;
  open_warning: number;
  requested_amount: Cents;
  /**
   * What a payment on this verdict pays: G702 line 8 (current payment due, never the requested
   * figure), the REDUCED amount (line 8 less the inspected cut), or 0; never below 0.
   */
  fundable_amount: Cents;
}

/** `provenance`: the facts the verdict rests on, so a reader can replay it. */
export interface VerdictProvenance {
  draw_id: string;
  project_id: string;
  draw_last_fact_seq: number;
  project_last_fact_seq: number;
  finding_ids: string[];
}

export type FindingEvidenceName = `findings.${FindingCode}`;

export type DrawEvidence = {
  sov_integrity: SovIntegrity;
  document_inventory: DocumentInventory;
  identity_registry: IdentityRegistry;
  pral_verdict: PralVerdict;
  adequacy_vector: AdequacyVector;
  in_balance: boolean;
  draw_verdict: DrawVerdictEvidence;
  provenance: VerdictProvenance;
} & { [K in FindingEvidenceName]: Finding[] };

export const findingEvidence = (code: FindingCode): FindingEvidenceName => `findings.${code}`;
