/**
 * Liveness, readiness and metrics (SPEC §10). Readiness = the store answers, the read models are
 * within 100 events of the head and were not found damaged, Redis (when configured) answers, and no
 * ledger integrity failure stands (chain, Merkle tree, signed checkpoint); 503 lists what failed.
 */
import { REPAIR } from '../projections/read-model-damage.js';
import type { Service } from './service.js';

export const MAX_READY_LAG = 100;

export interface ReadinessProbes {
  /** Present when Redis is configured: resolves true when it answers PING. */
  redis?: () => Promise<boolean>;
}

export function mountHealth(s: Service, probes: ReadinessProbes): void {
  s.routes.add('GET', '/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  s.routes.add('GET', '/readyz', async (_req, res) => {
    const checks: Record<string, { ok: boolean; detail: string }> = {};
    let head = 0;
    try {
      head = (await s.ledger.store.head()).seq;
      checks.store = { ok: true, detail: `${s.ledger.store.kind} at seq ${head}` };
    } catch (error) {
      checks.store = { ok: false, detail: `store unreachable: ${(error as Error).message}` };
    }
    const lag = Math.max(0, head - s.runtime.position);
    checks.projections = { ok: lag <= MAX_READY_LAG, detail: `lag ${lag} events (max ${MAX_READY_LAG})` };
    const damage = s.runtime.damage;
    checks.read_models = damage
      ? {
          ok: false,
          detail: `${damage.path} found damaged at ${damage.detected_at} (${damage.code}: ${damage.reason}); appends suspended; ${REPAIR}`,
        }
      : { ok: true, detail: 'no damage met' };
    if (probes.redis) {
      const ok = await probes.redis().catch(() => false);
      checks.redis = { ok, detail: ok ? 'PONG' : 'redis did not answer' };
    }
    const verification = s.verifier.status();
    const failure = s.verifier.failure;
    checks.ledger_integrity = failure
      ? {
          ok: false,
          detail: `${failure.code} at seq ${failure.seq} (expected ${failure.expected}, found ${failure.actual}); appends suspended until an operator restarts with LEDGER_INTEGRITY_OVERRIDE=1`,
        }
      : {
          ok: true,
          detail: `chain, Merkle tree and signed checkpoint agree through seq ${verification.verified_through}`,
        };
    const ready = Object.values(checks).every((c) => c.ok);
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'not_ready',
      checks,
      ledger: {
        head,
        verified_through: verification.verified_through,
        chain_ok: verification.ok,
        ...(failure ? { integrity_failure: { reason: failure.code, first_bad_seq: failure.seq } } : {}),
      },
    });
  });

  s.routes.add('GET', '/metrics', async (_req, res) => {
    res.type(s.metrics.registry.contentType).send(await s.metrics.registry.metrics());
  });
}
