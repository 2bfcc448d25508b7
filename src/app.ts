/**
 * createApp(deps): the HTTP surface, with no listen and no I/O of its own. Middleware order is the
 * contract: request id → security headers → metrics/log → admission → routes → 404/405 → problem+json;
 * every response is signed on its way out (platform/http/signing.ts).
 */
import { join } from 'node:path';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { keys } from '../projections/keys.js';
import { mountLedgerApi } from './audit/ledger-routes.js';
import { mountAuditVerify } from './audit/verify-route.js';
import { mountStatus } from './audit/status-route.js';
import { mountTlog } from './audit/tlog-routes.js';
import { mountGovernance } from './governance/routes.js';
import { mountDrawGovernance } from './governance/draw-routes.js';
import { mountProfiles } from './governance/profiles-route.js';
import { mountProjectOverview } from './governance/overview-route.js';
import { mountCertification } from './certification/routes.js';
import { mountNotarization } from './notarization/routes.js';
import { mountDeveloperResources } from './openapi/routes.js';
import { mountPayments } from './payments/routes.js';
import { PaymentOutbox } from './payments/outbox.js';
import { FileRailAdapter } from './payments/rail-adapter.js';
import { creditActions } from './lender-api/credit-actions.js';
import { creditView } from './lender-api/entity-facts.js';
import { historyAction } from './lender-api/history.js';
import { mountCreditReportPdf, pdfLinkAction } from './lender-api/pdf-route.js';
import { pdfLinkKey } from './lender-api/pdf-link.js';
import { mountCreditViews } from './lender-api/credit-views.js';
import { mountPages } from './pages/index.js';
import { mountProjects } from './projects/routes.js';
import { mountSigners } from './signers/routes.js';
import { mountAccounts } from './accounts/routes.js';
import type { SamApiSource } from './registry/index.js';
import { mountRegistry } from './registry/routes.js';
import { mountRegistryImport } from './registry/import-route.js';
import { mountRails } from './rails/routes.js';
import { usageAction, mountLenderApi } from './lender-api/routes.js';
import type { LenderAction } from './lender-api/actions.js';
import { keyResolver, signingSecretFor } from './orgs/keys.js';
import { mountKeyAdmin } from './orgs/routes.js';
import type { Clock } from './platform/clock.js';
import type { BackgroundVerifier } from './platform/ledger/background-verifier.js';
import type { Ledger } from './platform/ledger/ledger.js';
import type { Logger } from './platform/log.js';
import type { ProjectionRuntime } from './platform/projections/runtime.js';
import type { RateLimiter } from './platform/rate-limit/index.js';
import type { ServerSecrets } from './platform/secrets.js';
import type { TransparencyLog } from './platform/tlog/log.js';
import { AdmissionGate, type AdmissionLimits } from './platform/http/admission.js';
import { errorHandler } from './platform/http/errors.js';
import { mountHealth, type ReadinessProbes } from './platform/http/health.js';
import type { IdempotencyStore } from './platform/http/idempotency.js';
import { HttpMetrics } from './platform/http/metrics.js';
import { accessLog, chain, requestContext } from './platform/http/middleware.js';
import { RouteTable } from './platform/http/routes.js';
import type { Service } from './platform/http/service.js';
import { signResponses } from './platform/http/signing.js';
import { precomputedHeaders } from './platform/http/static-headers.js';

export interface AppDeps {
  clock: Clock;
  ledger: Ledger;
  runtime: ProjectionRuntime;
  limiter: RateLimiter;
  idempotency: IdempotencyStore;
  secrets: ServerSecrets;
  logger: Logger;
  verifier: BackgroundVerifier;
  /** The transparency log over the ledger (docs/transparency-log.md). */
  tlog: TransparencyLog;
  /** TLOG_PUBLIC=1: /tlog/* and the proof routes answer without a key. */
  tlogPublic?: boolean;
  publicBaseUrl: string;
  /** Where the service keeps its files (imports, payment instructions). */
  dataDir: string;
  probes?: ReadinessProbes;
  /** SAM.gov's online API (composed when SAM_API_KEY is set); null/absent = imported extracts only. */
  samApi?: SamApiSource | null;
  /** The admission gate's limits (HTTP_CONCURRENCY, HTTP_MAX_IN_FLIGHT); defaults 32 and 512. */
  admission?: AdmissionLimits;
  /** Collect Node process metrics (off in tests: prom-client's collectors are process-global). */
  processMetrics?: boolean;
}

/** The app's payment outbox (tests drive and stop it; main stops it at shutdown). */
export function paymentOutboxOf(app: Express): PaymentOutbox {
  return app.locals.paymentOutbox as PaymentOutbox;
}

/** The service bundle behind an app (for background jobs the composition root starts). */
export function serviceOf(app: Express): Service {
  return app.locals.plumbline as Service;
}

/** helmet's options: static (no nonces), so its headers can be computed once (static-headers.ts). */
export const HELMET_OPTIONS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    useDefaults: true,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
};

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('etag', false);
  const metrics = new HttpMetrics(
    {
      appendConflicts: () => deps.ledger.conflicts,
      projectionLag: () => Math.max(0, deps.ledger.head.seq - deps.runtime.position),
      ledgerIntegrity: () => (deps.verifier.failure ? 0 : 1),
      readModelsDamaged: () => (deps.runtime.damage ? 1 : 0),
      verifiedThrough: () => deps.verifier.status().verified_through,
    },
    { defaultMetrics: deps.processMetrics === true },
  );
  const routes = new RouteTable(app);
  const service: Service = {
    clock: deps.clock,
    ledger: deps.ledger,
    runtime: deps.runtime,
    limiter: deps.limiter,
    idempotency: deps.idempotency,
    logger: deps.logger,
    metrics,
    verifier: deps.verifier,
    tlog: deps.tlog,
    tlogPublic: deps.tlogPublic === true,
    resolveKey: keyResolver(() => deps.runtime.state(keys), deps.secrets.keyPepper),
    routes,
    publicBaseUrl: deps.publicBaseUrl,
    dataDir: deps.dataDir,
    linkKey: pdfLinkKey(deps.secrets.signingKey),
  };

  app.locals.plumbline = service;
  const gate = new AdmissionGate(deps.admission);
  app.locals.admissionGate = gate;
  // A key's signing secret is derived (HMAC of its id, then base62), the same on every request; it is
  // remembered per key id instead of being re-derived for each response.
  const signingSecrets = new Map<string, string>();
  // Every response this app sends is signed when its request is authenticated (res.send, replaced
  // on the app's response prototype).
  signResponses(app, deps.clock, (keyId) => {
    let secret = signingSecrets.get(keyId);
    if (secret === undefined) {
      secret = signingSecretFor(deps.secrets.signingKey, keyId);
      if (signingSecrets.size >= 10_000) signingSecrets.clear();
      signingSecrets.set(keyId, secret);
    }
    return secret;
  });
  // The edge, in this order, as one router layer (`chain`): request id → security headers →
  // metrics/log → admission → the direct routes.
  app.use(
    chain(
      requestContext(),
      // helmet's headers are static here (no nonces): computed once, set in one loop per request.
      precomputedHeaders(helmet(HELMET_OPTIONS)),
      metrics.middleware(),
      accessLog(deps.logger),
      gate.middleware(),
      // A route on a fixed path runs from here, without Express's walk over the routes before it.
      routes.direct(),
    ),
  );

  mountHealth(service, deps.probes ?? {});
  mountStatus(service);
  const credit = creditView(service);
  const lenderActions: LenderAction[] = [
    ...creditActions(service, deps.samApi ?? null),
    historyAction(service),
    usageAction(service),
    pdfLinkAction(service),
  ];
  mountLenderApi(service, lenderActions);
  mountCreditReportPdf(service, deps.samApi ?? null);
  // Before the ledger API: its `/api/ledger/:seq` would otherwise take `/api/ledger/receipt`.
  mountTlog(service);
  mountLedgerApi(service);
  mountCreditViews(service);
  mountRegistry(service);
  mountRegistryImport(service);
  mountProjects(service);
  mountSigners(service, deps.secrets.signingKey);
  mountAccounts(service);
  mountRails(service, credit);
  mountProfiles(service);
  mountGovernance(service, credit);
  mountDrawGovernance(service, credit);
  mountProjectOverview(service, credit);
  mountCertification(service, credit);
  mountNotarization(service, credit);
  const outbox = new PaymentOutbox(deps, new FileRailAdapter(join(deps.dataDir, 'payments')));
  app.locals.paymentOutbox = outbox;
  outbox.start();
  mountPayments(service, credit, () => outbox.kick());
  mountAuditVerify(service);
  mountKeyAdmin(service, deps.secrets);

  mountDeveloperResources(service);
  mountPages(service);
  app.use(routes.fallback());
  app.use(errorHandler(deps.logger));
  return app;
}
