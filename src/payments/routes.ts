/**
 * Payment push (SPEC §6, DOMAIN §12): every gate of the project's profile is evaluated and
 * reported. Unmet → `PaymentPushBlocked` is recorded and 422 GATE_UNMET lists each gate; met →
 * `PaymentPushed` (the draw becomes FUNDED) and the rail adapter receives an ISO 20022 pain.001.
 * The decision runs inside the ledger's serialized commit on fresh state, so of two concurrent
 * pushes of one draw exactly one is funded and the other sees FUNDED (409).
 */
import { join } from 'node:path';
import { z } from 'zod';
import { governance } from '../../projections/governance.js';
import { keys } from '../../projections/keys.js';
import { projectsProjection } from '../../projections/projects.js';
import { registryProjection } from '../../projections/registry.js';
import { isoDate } from '../platform/clock.js';
import { sha256Hex } from '../platform/crypto/hash.js';
import { authOf } from '../platform/http/context.js';
import { runCommand } from '../platform/http/command.js';
import { ProblemError } from '../platform/http/problem.js';
import { provenanceOf } from '../platform/http/provenance.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { idFromUuid } from '../platform/ids.js';
import { adequacyOf, projectContext, type CreditView } from '../governance/context.js';
import {
  drawStream,
  governanceEvent,
  payloadHash,
  type PaymentPushBlockedData,
  type PaymentPushedData,
} from '../governance/events.js';
import { PAYMENT_RAILS, PROFILES } from '../projects/profiles.js';
import { getDraw } from '../projects/queries.js';
import { buildPain001 } from './pain001.js';
import { decidePaymentPush, paymentView } from './push.js';
import { FileRailAdapter, type RailAdapter } from './rail-adapter.js';
import type { GateResult } from './gates.js';

export const PaymentPushBody = z.strictObject({
  draw_id: z.string().min(1).max(80),
  rail: z.enum(PAYMENT_RAILS).optional(),
});

type Outcome =
  { funded: true; payment: PaymentPushedData; xml: string } | { funded: false; gates: GateResult[] };

export function mountPayments(
  s: Service,
  credit: CreditView,
  adapter: RailAdapter = new FileRailAdapter(join(s.dataDir, 'payments')),
): void {
  s.routes.add(
    'POST',
    '/api/payment-push',
    ...projectGuard(s, 'governance:write', { appends: true }),
    async (req, res) => {
      const body = parseWith(PaymentPushBody, req.body);
      const org = authOf(req).org_id;
      const seen = getDraw(s.runtime.state(projectsProjection), org, body.draw_id);
      if (!seen) throw new ProblemError('NOT_FOUND', `no draw ${body.draw_id}`);
      const ctx = await projectContext(s, org, seen.project_id);
      const committed = await runCommand<Outcome>(s.ledger, req, (_head, eventId) => {
        const projects = s.runtime.state(projectsProjection);
        const draw = getDraw(projects, org, body.draw_id)!;
        const draws = (projects.by_project[draw.project_id]?.draw_ids ?? [])
          .map((id) => projects.draws[id]!)
          .filter(Boolean);
        const g = s.runtime.state(governance);
        const compilationId = g.latest_compilation_by_draw[draw.id];
        const compilation = compilationId === undefined ? undefined : g.compilations[compilationId];
        const now = s.clock.now();
        const payment_id = idFromUuid('PAY-', eventId);
        const decision = decidePaymentPush({
          profile: PROFILES[ctx.project.profile],
          gates: {
            project: projects.projects[draw.project_id] ?? ctx.project,
            draw,
            draws,
            documents: ctx.input.documents,
            latest_compilation: compilation
              ? { seq: compilation.seq, draw_verdict: compilation.draw_verdict }
              : null,
            in_balance: adequacyOf(s, ctx, credit).in_balance,
            notarized_document_ids: new Set(Object.keys(g.notarizations_by_document)),
            critical_rails: ctx.rails.critical,
          },
          rail: body.rail,
          payment_id,
          message_id: `MSG-${payment_id.slice(4)}`,
          today: isoDate(now),
        });
        if (!decision.ok) {
          if (decision.code === 'CONFLICT') throw new ProblemError('CONFLICT', decision.message);
          if (decision.code !== 'GATE_UNMET')
            throw new ProblemError('INVALID_REQUEST', decision.message, {
              errors: [{ path: 'rail', code: 'invalid_value', message: decision.message }],
            });
          const blocked = {
            draw_id: draw.id,
            project_id: draw.project_id,
            rail: decision.rail,
            gates: decision.gates,
            attempted_on: isoDate(now),
          };
          const hash = payloadHash(blocked);
          const data: PaymentPushBlockedData = {
            ...blocked,
            payload_hash: hash,
            artifacts: [{ kind: 'payment_blocked', hash }],
          };
          return {
            events: [governanceEvent('PaymentPushBlocked', drawStream(draw.id), data, eventId)],
            result: { funded: false, gates: decision.gates },
          };
        }
        const lender = s.runtime.state(keys).orgs[org]?.name ?? org;
        const gc = s.runtime.state(registryProjection).entities[ctx.project.general_contractor];
        const xml = buildPain001({
          message_id: decision.payment.message_id,
          created_at: now.toISOString(),
          requested_execution_date: decision.payment.funded_on,
          // No bank accounts are governance facts: internal references here; a bank adapter maps them.
          debtor: { name: lender, account: org, agent: null },
          creditor: {
            name: gc?.legal_name ?? ctx.project.general_contractor,
            account: ctx.project.general_contractor,
            agent: null,
          },
          amount: decision.payment.amount,
          currency: 'USD',
          end_to_end_id: draw.id,
          remittance_info: `Draw ${draw.application_no} ${draw.id} on ${ctx.project.name}`,
        });
        const hash = payloadHash({ payment: paymentView(decision.payment) });
        const data: PaymentPushedData = {
          ...decision.payment,
          payload_hash: hash,
          artifacts: [
            { kind: 'payment', hash },
            { kind: 'payment_instruction', hash: sha256Hex(xml) },
          ],
        };
        return {
          events: [governanceEvent('PaymentPushed', drawStream(draw.id), data, eventId)],
          result: { funded: true, payment: data, xml },
        };
      });
      const outcome = committed.result;
      if (!outcome.funded) {
        throw new ProblemError(
          'GATE_UNMET',
          `${outcome.gates.filter((g) => !g.passed).length} of ${outcome.gates.length} payment gates are not met`,
          { gates: outcome.gates },
        );
      }
      await adapter.submit({ format: 'pain.001', message_id: outcome.payment.message_id, xml: outcome.xml });
      const event = committed.events[0]!;
      const body201 = { payment: paymentView(outcome.payment) };
      res
        .status(201)
        .json({ ...body201, provenance: provenanceOf(body201, { seq: event.seq, hash: event.hash }) });
    },
  );
}
