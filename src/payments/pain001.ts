/**
 * ISO 20022 pain.001.001.09 (CustomerCreditTransferInitiationV09): the credit-transfer instruction
 * a funded draw produces — one payment information block with one transaction, the lender's
 * account debited, the GC's credited, the draw id as end-to-end id so the bank's statement line
 * leads back to the draw. Elements follow the schema's sequence order (GroupHeader85,
 * PaymentInstruction30, CreditTransferTransaction34); optional ones are left out.
 */
import type { Cents, IsoDate, IsoInstant } from '../projects/facts.js';

export const PAIN_001_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09';

/** A financial institution by BIC, by US ABA routing number (ClrSysMmbId, USABA), or both. */
export type Pain001Agent =
  { bic: string; aba_routing?: string | undefined } | { bic?: string | undefined; aba_routing: string };

/** An account: an IBAN (`Id/IBAN`), or a US account number (`Id/Othr/Id`, type CACC). */
export type Pain001Account = { iban: string } | { us_account: string };

export interface Pain001Party {
  name: string;
  /** A bank account, or (instructions recorded before issue 15) an internal reference (`Id/Othr/Id`). */
  account: Pain001Account | string;
  /** null → `NOTPROVIDED`, the usual placeholder where the schema requires an agent. */
  agent: Pain001Agent | null;
}

/**
 * PmtTpInf (PaymentTypeInformation26) per rail (docs/duties.md): ACH — service level NURG, local
 * instrument CCD (corporate credit); Wire — URGP; RTP — URGP with the proprietary local
 * instrument RTP; SWIFT — URGP, charges shared (ChrgBr SHAR); ESCROW — a book transfer between the
 * lender's own accounts (NURG, proprietary local instrument BOOK, category CASH).
 */
export interface Pain001PaymentType {
  service_level: string;
  local_instrument: { cd: string } | { prtry: string } | null;
  category_purpose: string;
  /** ChrgBr; null leaves it out (the agents' default). */
  charge_bearer: 'SHAR' | 'DEBT' | 'CRED' | 'SLEV' | null;
}

export interface Pain001Input {
  /** GrpHdr/MsgId, at most 35 characters. */
  message_id: string;
  created_at: IsoInstant;
  requested_execution_date: IsoDate;
  /** The lender (debtor and initiating party). */
  debtor: Pain001Party;
  /** The general contractor. */
  creditor: Pain001Party;
  /** Positive integer cents. */
  amount: Cents;
  currency: 'USD';
  /** The draw id, at most 35 characters. */
  end_to_end_id: string;
  /** RmtInf/Ustrd; longer than 140 characters is cut (Max140Text). */
  remittance_info: string;
  /** Absent on instructions recorded before issue 15: no PmtTpInf. */
  payment_type?: Pain001PaymentType | undefined;
}

type Node =
  { name: string; attrs?: Record<string, string>; text: string } | { name: string; children: Node[] };

const el = (name: string, ...children: Node[]): Node => ({ name, children });
const leaf = (name: string, text: string, attrs?: Record<string, string>): Node =>
  attrs === undefined ? { name, text } : { name, text, attrs };

export function buildPain001(input: Pain001Input): string {
  const amount = formatAmount(input.amount);
  const document: Node = el(
    'CstmrCdtTrfInitn',
    el(
      'GrpHdr',
      leaf('MsgId', max35('message_id', input.message_id)),
      leaf('CreDtTm', input.created_at),
      leaf('NbOfTxs', '1'),
      leaf('CtrlSum', amount),
      el('InitgPty', leaf('Nm', max140(input.debtor.name))),
    ),
    el(
      'PmtInf',
      leaf('PmtInfId', max35('message_id', input.message_id)),
      leaf('PmtMtd', 'TRF'),
      leaf('NbOfTxs', '1'),
      leaf('CtrlSum', amount),
      ...(input.payment_type === undefined ? [] : [paymentType(input.payment_type)]),
      el('ReqdExctnDt', leaf('Dt', input.requested_execution_date)),
      el('Dbtr', leaf('Nm', max140(input.debtor.name))),
      account('DbtrAcct', input.debtor.account),
      agent('DbtrAgt', input.debtor.agent),
      ...(input.payment_type?.charge_bearer ? [leaf('ChrgBr', input.payment_type.charge_bearer)] : []),
      el(
        'CdtTrfTxInf',
        el('PmtId', leaf('EndToEndId', max35('end_to_end_id', input.end_to_end_id))),
        el('Amt', leaf('InstdAmt', amount, { Ccy: input.currency })),
        ...(input.creditor.agent === null ? [] : [agent('CdtrAgt', input.creditor.agent)]),
        el('Cdtr', leaf('Nm', max140(input.creditor.name))),
        account('CdtrAcct', input.creditor.account),
        el('RmtInf', leaf('Ustrd', max140(input.remittance_info))),
      ),
    ),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="${PAIN_001_NAMESPACE}">\n${render(document, 1)}</Document>\n`;
}

function paymentType(t: Pain001PaymentType): Node {
  const local =
    t.local_instrument === null
      ? []
      : [
          el(
            'LclInstrm',
            'cd' in t.local_instrument
              ? leaf('Cd', t.local_instrument.cd)
              : leaf('Prtry', t.local_instrument.prtry),
          ),
        ];
  return el(
    'PmtTpInf',
    el('SvcLvl', leaf('Cd', t.service_level)),
    ...local,
    el('CtgyPurp', leaf('Cd', t.category_purpose)),
  );
}

function account(name: string, id: Pain001Account | string): Node {
  if (typeof id === 'string') return el(name, el('Id', el('Othr', leaf('Id', id))));
  if ('iban' in id) return el(name, el('Id', leaf('IBAN', id.iban)));
  return el(name, el('Id', el('Othr', leaf('Id', id.us_account))), el('Tp', leaf('Cd', 'CACC')));
}

function agent(name: string, agentId: Pain001Agent | null): Node {
  if (agentId === null) return el(name, el('FinInstnId', el('Othr', leaf('Id', 'NOTPROVIDED'))));
  const bic = agentId.bic === undefined ? [] : [leaf('BICFI', agentId.bic)];
  const aba =
    agentId.aba_routing === undefined
      ? []
      : [el('ClrSysMmbId', el('ClrSysId', leaf('Cd', 'USABA')), leaf('MmbId', agentId.aba_routing))];
  return el(name, el('FinInstnId', ...bic, ...aba));
}

/** Cents as a decimal with exactly two places, by integer arithmetic (1234567 → "12345.67"). */
export function formatAmount(cents: Cents): string {
  if (!Number.isSafeInteger(cents) || cents <= 0)
    throw new RangeError(`amount must be positive integer cents, got ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Identifiers are never cut: a truncated id would point at another payment. */
function max35(field: string, text: string): string {
  if ([...text].length > 35 || text.length === 0)
    throw new RangeError(`${field} must be 1–35 characters (Max35Text)`);
  return text;
}

/** Free text is cut to the schema's limit, by code point. */
function max140(text: string): string {
  const chars = [...text];
  return chars.length <= 140 ? text : chars.slice(0, 140).join('');
}

function render(node: Node, depth: number): string {
  const pad = '  '.repeat(depth);
  if ('children' in node) {
    return `${pad}<${node.name}>\n${node.children.map((c) => render(c, depth + 1)).join('')}${pad}</${node.name}>\n`;
  }
  const attrs = Object.entries(node.attrs ?? {})
    .map(([k, v]) => ` ${k}="${escapeXml(v)}"`)
    .join('');
  return `${pad}<${node.name}${attrs}>${escapeXml(node.text)}</${node.name}>\n`;
}

/** XML-escapes text and drops the C0 controls XML 1.0 cannot carry. */
export function escapeXml(text: string): string {
  return text.replace(XML_FORBIDDEN_CONTROLS, '').replace(/[&<>"']/g, (c) => XML_ENTITIES[c] ?? c);
}
// eslint-disable-next-line no-control-regex -- matching the forbidden controls is the point
const XML_FORBIDDEN_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;
const XML_ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
