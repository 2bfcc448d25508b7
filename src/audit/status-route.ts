/**
 * The service's public status (the front door, issue 18): what the ledger head is, how far the
 * background verifier has checked the chain, and the latest checkpoint the transparency log signed.
 * Counts and digests only — no tenant's content — so it answers without a key.
 */
import { API_VERSION } from '../platform/http/middleware.js';
import type { Service } from '../platform/http/service.js';

export interface ServiceStatus {
  service: 'Plumbline';
  version: string;
  head: { seq: number };
  chain: { ok: boolean; verified_through: number; last_run_at: string | null };
  checkpoint: { origin: string; size: number; root: string; key_id: string } | null;
  as_of: string;
}

export function mountStatus(s: Service): void {
  s.routes.add('GET', '/api/status', async (_req, res) => {
    const head = await s.ledger.store.head();
    const verification = s.verifier.status();
    if (!s.tlog.publishing || !s.tlog.latest) await s.tlog.publish();
    const latest = s.tlog.latest;
    const status: ServiceStatus = {
      service: 'Plumbline',
      version: API_VERSION,
      head: { seq: head.seq },
      chain: {
        ok: verification.ok,
        verified_through: verification.verified_through,
        last_run_at: verification.last_run_at,
      },
      checkpoint: latest
        ? {
            origin: latest.origin,
            size: latest.size,
            root: latest.root.toString('base64'),
            key_id: s.tlog.signer.keyId.toString('hex'),
          }
        : null,
      as_of: s.clock.now().toISOString(),
    };
    res.set('Cache-Control', 'no-store').json(status);
  });
}
