/**
 * Deciding a payment push (SPEC §6 `payment-push`, ARCHITECTURE §5). Pure: the caller mints the
 * ids, appends what is decided and answers — `PaymentPushed` and 201 when the gate is met;
 * `PaymentPushBlocked` and 422 GATE_UNMET when it is not (a refusal that must be audited); 409
 * for a draw already funded; 400 for a rail the profile does not carry (no trace: a malformed
 * request).
 */
import type { Cents, IsoDate } from '../projects/facts.js';
import { PAYMENT_RAILS, type PaymentRail, type Profile } from '../projects/profiles.js';
import { evaluateGates, gatesPassed, type GateContext, type GateResult } from './gates.js';

export type RailCheck =
  | { ok: true; rail: PaymentRail }
  | { ok: false; code: 'RAIL_NOT_ALLOWED'; rail: string; allowed: readonly PaymentRail[]; message: string };

/** The requested rail, or the profile's first rail when none is named (DOMAIN §12 lists them in preference order). */
export function checkRail(profile: Profile, requested: string | undefined): RailCheck {
  const rail = requested ?? profile.payment_rails[0];
  const allowed = profile.payment_rails;
  if (rail !== undefined && isPaymentRail(rail) && allowed.includes(rail)) return { ok: true, rail };
  const message = `rail "${rail ?? ''}" is not available to the ${profile.name} profile (allowed: ${allowed.join(', ')})`;
  return { ok: false, code: 'RAIL_NOT_ALLOWED', rail: rail ?? '', allowed, message };
}

function isPaymentRail(rail: string): rail is PaymentRail {
  return (PAYMENT_RAILS as readonly string[]).includes(rail);
}

/** The `PaymentPushed` payload before the caller adds `payload_hash` and `artifacts`. */
export interface PaymentPushedPayload {
  payment_id: string;
  draw_id: string;
  project_id: string;
  amount: Cents;
  rail: PaymentRail;
  /** pain.001 message id. */
  message_id: string;
  funded_on: IsoDate;
}

export interface PaymentPushRequest {
  profile: Profile;
  gates: GateContext;
  /** SPEC §6 body `rail?`. */
  rail: string | undefined;
  /** `PAY-…`, minted by the caller from the recording event's id. */
  payment_id: string;
  message_id: string;
  today: IsoDate;
}

export type PaymentPushDecision =
  | { ok: true; payment: PaymentPushedPayload; gates: GateResult[] }
  | Extract<RailCheck, { ok: false }>
  | { ok: false; code: 'CONFLICT'; message: string }
  | { ok: false; code: 'GATE_UNMET'; rail: PaymentRail; gates: GateResult[] };

export function decidePaymentPush(request: PaymentPushRequest): PaymentPushDecision {
  const rail = checkRail(request.profile, request.rail);
  if (!rail.ok) return rail;
  const { draw } = request.gates;
  switch (draw.status) {
    case 'FUNDED':
      return {
        ok: false,
        code: 'CONFLICT',
        message: `${draw.id} is already funded (${draw.payment_id ?? 'payment recorded'})`,
      };
    case 'REJECTED':
      return { ok: false, code: 'CONFLICT', message: `${draw.id} was rejected; submit a new application` };
    case 'SUBMITTED':
    case 'COMPILED':
      break;
    default: {
      const unhandled: never = draw.status;
      throw new Error(`unknown draw status ${String(unhandled)}`);
    }
  }
  const gates = evaluateGates(request.profile, request.gates);
  if (!gatesPassed(gates)) return { ok: false, code: 'GATE_UNMET', rail: rail.rail, gates };
  return {
    ok: true,
    gates,
    payment: {
      payment_id: request.payment_id,
      draw_id: draw.id,
      project_id: draw.project_id,
      amount: draw.requested_amount,
      rail: rail.rail,
      message_id: request.message_id,
      funded_on: request.today,
    },
  };
}

/** SPEC §6 201 body `payment`. */
export function paymentView(payment: PaymentPushedPayload): {
  id: string;
  draw_id: string;
  amount: Cents;
  rail: PaymentRail;
  status: 'SUBMITTED';
  instruction: { format: 'pain.001'; message_id: string };
} {
  return {
    id: payment.payment_id,
    draw_id: payment.draw_id,
    amount: payment.amount,
    rail: payment.rail,
    status: 'SUBMITTED',
    instruction: { format: 'pain.001', message_id: payment.message_id },
  };
}
