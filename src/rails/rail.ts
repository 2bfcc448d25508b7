/**
 * The rail contract (DOMAIN §8, SPEC §7): a rail is a name, an HTTP path and a pure evaluation of
 * one org's facts at `now`. Rails read no clock and do no I/O; the HTTP edge builds the facts
 * (`railFactsFor`) and adds `as_of` and provenance (`railResult`).
 */
import type { LedgerHead } from '../platform/ledger/envelope.js';
import type {
  ChangeOrder,
  Cents,
  Document,
  Draw,
  EntityId,
  IsoDate,
  Observation,
  Project,
} from '../projects/facts.js';
import type { Coverage } from './coverage.js';
import type { RailFinding } from './findings.js';

/** The eleven rails in SPEC §7 / DOMAIN §8 order (scan_all lists them in this order). */
export const RAIL_NAMES = [
  'SYSTEM_RISK',
  'WORKFORCE',
  'SCHEDULE',
  'SAFETY',
  'INSURANCE',
  'ENVIRONMENTAL',
  'PROCUREMENT',
  'EQUIPMENT',
  'WEATHER',
  'COUNTERPARTY',
  'MARKET',
] as const;
export type RailName = (typeof RAIL_NAMES)[number];

/** The GET path of each rail (DOMAIN §8 table, seed §2.10). */
export const RAIL_PATHS = {
  SYSTEM_RISK: '/api/system-risk',
  WORKFORCE: '/api/workforce-rail',
  SCHEDULE: '/api/schedule-rail',
  SAFETY: '/api/safety-governance',
  INSURANCE: '/api/insurance-rail',
  ENVIRONMENTAL: '/api/environmental-rail',
  PROCUREMENT: '/api/procurement-rail',
  EQUIPMENT: '/api/equipment-rail',
  WEATHER: '/api/weather-rail',
  COUNTERPARTY: '/api/counterparty-rail',
  MARKET: '/api/market-rail',
} as const satisfies Record<RailName, `/api/${string}`>;
export type RailPath = (typeof RAIL_PATHS)[RailName];

/** DOMAIN §8 postures, from best to worst. */
export const POSTURES = ['NOMINAL', 'ELEVATED', 'CRITICAL'] as const;
export type Posture = (typeof POSTURES)[number];

/** What `Rail.evaluate` returns (SPEC §7 minus `rail`, `as_of` and provenance). */
export interface RailEvaluation {
  posture: Posture;
  score: number;
  findings: RailFinding[];
  /** Which of the facts the rail reads the slice holds (none → INSUFFICIENT_DATA, ELEVATED). */
  coverage: Coverage;
}

/**
 * The ledger position the slice was projected at. Only ledger facts: the chain verifier's
 * watermark and the read models' lag are process state, which no rail reads (system-risk.ts).
 */
export interface PlatformWatermarks {
  ledger_head: LedgerHead;
}

export interface PlatformFacts extends PlatformWatermarks {
  /** Latest day each rail's facts were observed in this slice; null = the rail has never been fed. */
  rail_data_last_observed: Record<RailName, IsoDate | null>;
}

/** One org project as the portfolio view sees it (COUNTERPARTY; never narrowed to one project). */
export interface PortfolioProject {
  id: string;
  general_contractor: EntityId;
  /** Committed exposure: the loan commitment, cents. */
  loan_amount: Cents;
}

export interface PortfolioFacts {
  projects: PortfolioProject[];
  /** Org projects the caller judges distressed (e.g. latest scan BLOCKED or a CRITICAL rail). */
  distressed_project_ids: string[];
}

/**
 * The org-scoped slice every rail evaluates. `project_id` non-null = narrowed to that project
 * (`?project_id=`): projects, draws, change orders, documents and observations are then that
 * project's only, while `portfolio` stays org-wide because concentration is a portfolio property.
 */
export interface RailFacts {
  org_id: string;
  project_id: string | null;
  projects: Project[];
  draws: Draw[];
  change_orders: ChangeOrder[];
  documents: Document[];
  observations: Observation[];
  platform: PlatformFacts;
  portfolio: PortfolioFacts;
}

export interface Rail {
  readonly name: RailName;
  readonly path: RailPath;
  evaluate(facts: RailFacts, now: Date): RailEvaluation;
}
