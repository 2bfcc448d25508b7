/**
 * Compile-time proof (`npm run typecheck`) that the SDK's hand-written result types describe what
 * the server really sends: each server type must be assignable to its SDK type, so a field the
 * SDK declares that the server lacks, renames or retypes fails to compile. (A field the server
 * adds is allowed: SPEC §2 promises additive 1.x changes.)
 */
import type { CreditReport as ServerCreditReport } from '../../src/credit/report.js';
import type { Adequacy as ServerAdequacy } from '../../src/governance/adequacy.js';
import type { NotarialActRecord as ServerNotarialAct } from '../../src/governance/events.js';
import type { NotarialActClaim as ServerNotarialActClaim } from '../../src/notarization/decide.js';
import type { PortfolioRow as ServerPortfolioRow } from '../../src/credit/summary.js';
import type { RedactedEvent } from '../../src/audit/ledger-routes.js';
import type { Provenance as ServerProvenance } from '../../src/platform/http/provenance.js';
import type { SealedEvent } from '../../src/platform/ledger/envelope.js';
import type * as F from '../../src/projects/facts.js';
import type { EntityRecord } from '../../src/registry/state.js';
import type { RailName as ServerRailName } from '../../src/rails/rail.js';
import type { Receipt as ServerReceipt } from '../../src/platform/tlog/receipt.js';
import type * as Sdk from '../../src/sdk/index.js';

type Assignable<From, To> = [From] extends [To] ? true : false;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export const SDK_TYPES_MATCH_SERVER: [
  Assignable<ServerCreditReport, Sdk.CreditReport>,
  Assignable<ServerPortfolioRow, Sdk.PortfolioRow>,
  Assignable<ServerProvenance, Sdk.Provenance>,
  Assignable<F.Project, Sdk.Project>,
  Assignable<F.ChangeOrder, Sdk.ChangeOrder>,
  Assignable<F.Document, Sdk.Document>,
  Assignable<F.Draw, Sdk.Draw>,
  Assignable<F.Observation, Sdk.Observation>,
  Assignable<EntityRecord, Sdk.Entity>,
  Assignable<SealedEvent, Sdk.LedgerEvent>,
  Assignable<RedactedEvent, Sdk.RedactedLedgerEvent>,
  Same<ServerRailName, Sdk.RailName>,
  Assignable<ServerReceipt, Sdk.LedgerReceipt>,
  Assignable<ServerAdequacy['vector'], Sdk.AdequacyVector>,
  Assignable<ServerAdequacy['overall'], Sdk.GradedScore>,
  // The payment gate needs a notarial act, not a hash stamp: the SDK must be able to send one.
  Assignable<ServerNotarialActClaim, NonNullable<Sdk.NotarizeBody['act']>>,
  Assignable<ServerNotarialAct, NonNullable<Sdk.NotarizationResult['act']>>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];
