/**
 * `GET /api/profiles` (SPEC §7, DOMAIN §12): the five governance profiles as the code runs them —
 * gates evaluated by the payment push, payment rails, certification chain, documents that must be
 * notarized, the rails it lets go without evidence, and the number of engines the compile DAG really registers (not a published figure).
 */
import { projectGuard, type Service } from '../platform/http/service.js';
import { PROFILES, PROFILE_NAMES } from '../projects/profiles.js';
import { PROFILE_GATES } from '../payments/gates.js';
import { PROFILE_OPTIONAL_RAILS } from '../rails/index.js';
import { registeredEngineCount } from './compile/index.js';

export function profilesDocument(): Record<string, unknown> {
  const engines = registeredEngineCount();
  return {
    data: PROFILE_NAMES.map((name) => {
      const p = PROFILES[name];
      return {
        name,
        engines,
        gates: PROFILE_GATES[name],
        gate_count: PROFILE_GATES[name].length,
        payment_rails: p.payment_rails,
        certification_chain: p.certification_chain,
        notarized_document_types: p.notarized_document_types,
        optional_rails: PROFILE_OPTIONAL_RAILS[name],
      };
    }),
  };
}

export function mountProfiles(s: Service): void {
  s.routes.add('GET', '/api/profiles', ...projectGuard(s, 'governance:read'), (_req, res) => {
    res.json(profilesDocument());
  });
}
