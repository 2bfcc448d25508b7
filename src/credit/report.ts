/**
 * The governance credit report (SPEC §4, seed §2.2): score, behavioral state, conflicts,
 * remediation, registry check, and its provenance — `provenance_hash` = SHA-256 of the JCS of the
 * report without `provenance_hash`/`provenance`; `provenance` adds SHA3-256 and BLAKE2b-256 of the
 * same bytes and the ledger head it was computed from (ARCHITECTURE §7). Same inputs, same bytes.
 */
import { multiHash, type MultiHash } from '../platform/crypto/hash.js';
import { canonicalJson } from '../platform/ledger/canonical.js';
import type { EventInput, LedgerHead } from '../platform/ledger/index.js';
import type { IsoInstant } from '../projects/facts.js';
import { conflictsOf, type Conflicts } from './conflicts.js';
import { dayOf } from './dates.js';
import { planBehavior } from './decide.js';
import {
  creditReportIssued,
  type BehavioralStateChangedData,
  type CreditReportIssuedData,
} from './events.js';
import {
  attributedFindings,
  type EntityFacts,
  type NoProtectedAttributes,
  type RegistryStatus,
} from './inputs.js';
import type { CreditState } from './read-model.js';
import { remediationVelocity, type Remediation } from './remediation.js';
import { scoreEntity, type CreditScore } from './score.js';
import { behaviorSnapshot, type BehaviorSnapshot } from './state-machine.js';

/** SPEC §4 `contractor_registry` in the report (`fallback` only when the live SAM.gov check failed). */
export type ContractorRegistryCheck = Pick<
  RegistryStatus,
  'registration' | 'exclusions' | 'checked_at' | 'source' | 'fallback'
>;

/** Everything the provenance hash covers. */
export interface CreditReportBody {
  ok: true;
  /** The entity's legal name. */
  entity: string;
  entity_id: string;
  as_of: IsoInstant;
  credit: CreditScore;
  behavioral: BehaviorSnapshot;
  conflicts: Conflicts;
  remediation: Remediation;
  contractor_registry: ContractorRegistryCheck;
}

export interface ReportProvenance extends MultiHash {
  ledger: LedgerHead;
}

export interface CreditReport extends CreditReportBody {
  provenance_hash: string;
  provenance: ReportProvenance;
}

export interface CreditReportInput extends NoProtectedAttributes {
  /** The entity's legal name (the report's `entity`). */
  entity: string;
  facts: EntityFacts;
  /** The assessed behavioral state (see `creditReportFor`, which assesses it). */
  behavior: BehaviorSnapshot;
  now: Date;
  /** The ledger head the facts were read at. */
  ledger_head: LedgerHead;
  /** Redacts other orgs' project ids in conflicts (ARCHITECTURE §4); null or absent shows all. */
  viewer_org_id?: string | null;
}

/** The canonical JSON of each score object, made once: a remembered score is shared read-only. */
const canonicalScores = new WeakMap<CreditScore, string>();

/**
 * JCS of a report body — the same bytes as `canonicalJson(body)`: an object's canonical form is its
 * members in key order (UTF-16 code units), each `"key":value`, so the score's part, most of the
 * report and the same for every inquiry while the facts stay the same, is reused rather than redone.
 */
export function canonicalBody(body: CreditReportBody): string {
  const members: string[] = [];
  for (const key of Object.keys(body).sort()) {
    const value = (body as unknown as Record<string, unknown>)[key];
    if (value === undefined) continue;
    let json: string;
    if (key === 'credit') {
      json = canonicalScores.get(body.credit) ?? canonicalJson(body.credit);
      canonicalScores.set(body.credit, json);
    } else json = canonicalJson(value);
    members.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${members.join(',')}}`;
}

/** Seals a report body: provenance hash and multi-hash over the same canonical bytes. */
export function sealReport(body: CreditReportBody, ledgerHead: LedgerHead): CreditReport {
  const digests = multiHash(canonicalBody(body));
  return {
    ...body,
    provenance_hash: digests.sha256,
    provenance: { ...digests, ledger: { seq: ledgerHead.seq, hash: ledgerHead.hash } },
  };
}

function registryCheck(registry: RegistryStatus): ContractorRegistryCheck {
  const { registration, exclusions, checked_at, source, fallback } = registry;
  return { registration, exclusions, checked_at, source, ...(fallback ? { fallback } : {}) };
}

function reportBody(input: CreditReportInput, credit: CreditScore): CreditReportBody {
  const { facts, now } = input;
  const today = dayOf(now);
  return {
    ok: true,
    entity: input.entity,
    entity_id: facts.entity_id,
    as_of: now.toISOString(),
    credit,
    behavioral: input.behavior,
    conflicts: conflictsOf(facts, now, input.viewer_org_id ?? null),
    remediation: remediationVelocity(attributedFindings(facts, today), today),
    contractor_registry: registryCheck(facts.registry),
  };
}

/** The credit report for the given facts and behavioral state (pure, deterministic). */
export function buildCreditReport(input: CreditReportInput): CreditReport {
  const credit = scoreEntity(input.facts, input.now);
  return sealReport(reportBody(input, credit), input.ledger_head);
}

export interface IssuedCreditReport {
  report: CreditReport;
  /** To append, in order: the behavior transitions due, then the `CreditReportIssued` inquiry. */
  events: (
    | EventInput<'BehavioralStateChanged', BehavioralStateChangedData>
    | EventInput<'CreditReportIssued', CreditReportIssuedData>
  )[];
}

/**
 * The `score` action's core: assesses the behavioral state (appending any transition due), builds
 * the report on it, and records the inquiry. The score is computed once and shared by both.
 */
export function creditReportFor(
  credit: CreditState,
  input: Omit<CreditReportInput, 'behavior'>,
): IssuedCreditReport {
  const score = scoreEntity(input.facts, input.now);
  const behavior = planBehavior(credit, input.facts, input.now, score.composite_score);
  const full: CreditReportInput = { ...input, behavior: behaviorSnapshot(behavior.record, input.now) };
  const report = sealReport(reportBody(full, score), input.ledger_head);
  return { report, events: [...behavior.events, creditReportIssued(report)] };
}
