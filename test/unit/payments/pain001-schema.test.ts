import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import {
  buildPain001,
  paymentTypeOf,
  PAIN_001_NAMESPACE,
  type Pain001Input,
} from '../../../src/payments/index.js';
import type { PushRail } from '../../../src/projects/profiles.js';

/**
 * The parts of ISO 20022 pain.001.001.09 (CustomerCreditTransferInitiationV09) the service writes,
 * as the message definition orders them: each complex type's children in sequence, with their
 * cardinality [min, max] (max -1 = unbounded). Elements of a type not listed here are leaves.
 * Checked against the published definition (GroupHeader85, PaymentInstruction30,
 * PaymentTypeInformation26, CreditTransferTransaction34, CashAccount38, FinancialInstitution-
 * Identification18, …); a choice is listed with both branches optional and `choice` set.
 */
type Children = readonly (readonly [name: string, min: number, max: number])[];
interface TypeDef {
  children: Children;
  /** Exactly one child (an XSD choice). */
  choice?: boolean;
}
const T = (children: Children, choice = false): TypeDef => ({ children, choice });
const SCHEMA: Record<string, TypeDef> = {
  Document: T([['CstmrCdtTrfInitn', 1, 1]]),
  CstmrCdtTrfInitn: T([
    ['GrpHdr', 1, 1],
    ['PmtInf', 1, -1],
    ['SplmtryData', 0, -1],
  ]),
  GrpHdr: T([
    ['MsgId', 1, 1],
    ['CreDtTm', 1, 1],
    ['Authstn', 0, 2],
    ['NbOfTxs', 1, 1],
    ['CtrlSum', 0, 1],
    ['InitgPty', 1, 1],
    ['FwdgAgt', 0, 1],
  ]),
  Party135: T([
    ['Nm', 0, 1],
    ['PstlAdr', 0, 1],
    ['Id', 0, 1],
    ['CtryOfRes', 0, 1],
    ['CtctDtls', 0, 1],
  ]),
  PmtInf: T([
    ['PmtInfId', 1, 1],
    ['PmtMtd', 1, 1],
    ['BtchBookg', 0, 1],
    ['NbOfTxs', 0, 1],
    ['CtrlSum', 0, 1],
    ['PmtTpInf', 0, 1],
    ['ReqdExctnDt', 1, 1],
    ['PoolgAdjstmntDt', 0, 1],
    ['Dbtr', 1, 1],
    ['DbtrAcct', 1, 1],
    ['DbtrAgt', 1, 1],
    ['DbtrAgtAcct', 0, 1],
    ['InstrForDbtrAgt', 0, 1],
    ['UltmtDbtr', 0, 1],
    ['ChrgBr', 0, 1],
    ['ChrgsAcct', 0, 1],
    ['ChrgsAcctAgt', 0, 1],
    ['CdtTrfTxInf', 1, -1],
  ]),
  PmtTpInf: T([
    ['InstrPrty', 0, 1],
    ['SvcLvl', 0, -1],
    ['LclInstrm', 0, 1],
    ['CtgyPurp', 0, 1],
  ]),
  'Code|Prtry': T(
    [
      ['Cd', 0, 1],
      ['Prtry', 0, 1],
    ],
    true,
  ),
  ReqdExctnDt: T(
    [
      ['Dt', 0, 1],
      ['DtTm', 0, 1],
    ],
    true,
  ),
  CashAccount38: T([
    ['Id', 1, 1],
    ['Tp', 0, 1],
    ['Ccy', 0, 1],
    ['Nm', 0, 1],
    ['Prxy', 0, 1],
  ]),
  AccountId: T(
    [
      ['IBAN', 0, 1],
      ['Othr', 0, 1],
    ],
    true,
  ),
  GenericAccountId: T([
    ['Id', 1, 1],
    ['SchmeNm', 0, 1],
    ['Issr', 0, 1],
  ]),
  Agent: T([
    ['FinInstnId', 1, 1],
    ['BrnchId', 0, 1],
  ]),
  FinInstnId: T([
    ['BICFI', 0, 1],
    ['ClrSysMmbId', 0, 1],
    ['LEI', 0, 1],
    ['Nm', 0, 1],
    ['PstlAdr', 0, 1],
    ['Othr', 0, 1],
  ]),
  ClrSysMmbId: T([
    ['ClrSysId', 0, 1],
    ['MmbId', 1, 1],
  ]),
  GenericFinId: T([
    ['Id', 1, 1],
    ['SchmeNm', 0, 1],
    ['Issr', 0, 1],
  ]),
  CdtTrfTxInf: T([
    ['PmtId', 1, 1],
    ['PmtTpInf', 0, 1],
    ['Amt', 1, 1],
    ['XchgRateInf', 0, 1],
    ['ChrgBr', 0, 1],
    ['ChqInstr', 0, 1],
    ['UltmtDbtr', 0, 1],
    ['IntrmyAgt1', 0, 1],
    ['IntrmyAgt1Acct', 0, 1],
    ['IntrmyAgt2', 0, 1],
    ['IntrmyAgt2Acct', 0, 1],
    ['IntrmyAgt3', 0, 1],
    ['IntrmyAgt3Acct', 0, 1],
    ['CdtrAgt', 0, 1],
    ['CdtrAgtAcct', 0, 1],
    ['Cdtr', 0, 1],
    ['CdtrAcct', 0, 1],
    ['UltmtCdtr', 0, 1],
    ['InstrForCdtrAgt', 0, -1],
    ['InstrForDbtrAgt', 0, 1],
    ['Purp', 0, 1],
    ['RgltryRptg', 0, 10],
    ['Tax', 0, 1],
    ['RltdRmtInf', 0, 10],
    ['RmtInf', 0, 1],
    ['SplmtryData', 0, -1],
  ]),
  PmtId: T([
    ['InstrId', 0, 1],
    ['EndToEndId', 1, 1],
    ['UETR', 0, 1],
  ]),
  Amt: T(
    [
      ['InstdAmt', 0, 1],
      ['EqvtAmt', 0, 1],
    ],
    true,
  ),
  RmtInf: T([
    ['Ustrd', 0, -1],
    ['Strd', 0, -1],
  ]),
};

/** Which type an element has, by its parent and name (the contexts the service writes). */
function typeOf(parent: string, name: string): string | null {
  const key = `${parent}/${name}`;
  const byPath: Record<string, string> = {
    'GrpHdr/InitgPty': 'Party135',
    'PmtInf/Dbtr': 'Party135',
    'CdtTrfTxInf/Cdtr': 'Party135',
    'PmtInf/DbtrAcct': 'CashAccount38',
    'CdtTrfTxInf/CdtrAcct': 'CashAccount38',
    'CashAccount38/Id': 'AccountId',
    'AccountId/Othr': 'GenericAccountId',
    'CashAccount38/Tp': 'Code|Prtry',
    'PmtInf/DbtrAgt': 'Agent',
    'CdtTrfTxInf/CdtrAgt': 'Agent',
    'FinInstnId/Othr': 'GenericFinId',
    'ClrSysMmbId/ClrSysId': 'Code|Prtry',
    'PmtTpInf/SvcLvl': 'Code|Prtry',
    'PmtTpInf/LclInstrm': 'Code|Prtry',
    'PmtTpInf/CtgyPurp': 'Code|Prtry',
  };
  if (byPath[key] !== undefined) return byPath[key];
  return Object.hasOwn(SCHEMA, name) ? name : null;
}

interface El {
  name: string;
  children: El[];
  text: string;
}

/** A small XML reader for the service's own output (elements, text, no mixed content). */
function parse(xml: string): El {
  const root: El = { name: '#root', children: [], text: '' };
  const stack = [root];
  for (const [, close, name, , text] of xml
    .replace(/<\?xml[^>]*\?>/, '')
    .matchAll(/<(\/?)([A-Za-z]\w*)([^>]*)>([^<]*)/g)) {
    if (close === '/') {
      stack.pop();
      continue;
    }
    const el: El = { name: name!, children: [], text: text!.trim() };
    stack[stack.length - 1]!.children.push(el);
    stack.push(el);
  }
  return root.children[0]!;
}

/** Every violation of element order and cardinality, by path. */
function violations(el: El, type: string, path: string): string[] {
  const def = SCHEMA[type];
  if (def === undefined) return el.children.length === 0 ? [] : [`${path}: ${type} should be a leaf`];
  const out: string[] = [];
  let at = 0;
  const names = def.children.map(([n]) => n);
  for (const child of el.children) {
    const index = names.indexOf(child.name);
    if (index < 0) out.push(`${path}/${child.name}: not an element of ${type}`);
    else if (index < at) out.push(`${path}/${child.name}: out of order`);
    else at = index;
  }
  for (const [name, min, max] of def.children) {
    const n = el.children.filter((c) => c.name === name).length;
    if (n < min) out.push(`${path}/${name}: ${n} < min ${min}`);
    if (max >= 0 && n > max) out.push(`${path}/${name}: ${n} > max ${max}`);
  }
  if (def.choice && el.children.length !== 1) out.push(`${path}: a choice needs exactly one element`);
  for (const child of el.children) {
    const childType = typeOf(type, child.name);
    if (childType !== null) out.push(...violations(child, childType, `${path}/${child.name}`));
  }
  return out;
}

const BASE: Omit<Pain001Input, 'payment_type' | 'creditor'> = {
  message_id: 'MSG-paypaypaypaypaypa',
  created_at: '2026-06-03T15:00:00.000Z',
  requested_execution_date: '2026-06-03',
  debtor: {
    name: 'First Builders Bank',
    account: { us_account: '4000123456' },
    agent: { bic: 'CHASUS33', aba_routing: '021000021' },
  },
  amount: 13_500_000,
  currency: 'USD',
  end_to_end_id: 'DRW-secondsecondseco',
  remittance_info: 'Draw 1 DRW-secondsecondseco on Harbor View Lofts',
};
const US_GC = {
  name: 'Keystone Builders, Inc.',
  account: { us_account: '7765432109' },
  agent: { aba_routing: '121000358' },
};
const CASES: [PushRail, Pain001Input['creditor']][] = [
  ['ACH', US_GC],
  ['Wire', US_GC],
  ['RTP', US_GC],
  [
    'SWIFT',
    { name: 'Hafen Bau GmbH', account: { iban: 'DE89370400440532013000' }, agent: { bic: 'COBADEFFXXX' } },
  ],
  [
    'ESCROW',
    {
      name: 'First Builders Bank',
      account: { us_account: '4000998877' },
      agent: { bic: 'CHASUS33', aba_routing: '021000021' },
    },
  ],
];

const accountNumber = (a: Pain001Input['creditor']['account']): string =>
  typeof a === 'string' ? a : 'iban' in a ? a.iban : a.us_account;

/** python3's xml.etree as an independent reader: amounts, accounts, agents and payment type back. */
const PY = `
import sys, json, xml.etree.ElementTree as ET
ns = {'p': '${PAIN_001_NAMESPACE}'}
root = ET.fromstring(sys.stdin.read())
t = lambda e, p: (e.find(p, ns).text if e.find(p, ns) is not None else None)
pmt = root.find('p:CstmrCdtTrfInitn/p:PmtInf', ns)
tx = pmt.findall('p:CdtTrfTxInf', ns)
acct = lambda a: t(a, 'p:Id/p:IBAN') or t(a, 'p:Id/p:Othr/p:Id')
print(json.dumps({
  'grp_nb': t(root, 'p:CstmrCdtTrfInitn/p:GrpHdr/p:NbOfTxs'),
  'grp_sum': t(root, 'p:CstmrCdtTrfInitn/p:GrpHdr/p:CtrlSum'),
  'pmt_nb': t(pmt, 'p:NbOfTxs'), 'pmt_sum': t(pmt, 'p:CtrlSum'), 'txs': len(tx),
  'amount': t(tx[0], 'p:Amt/p:InstdAmt'), 'ccy': tx[0].find('p:Amt/p:InstdAmt', ns).get('Ccy'),
  'debtor_account': acct(pmt.find('p:DbtrAcct', ns)), 'creditor_account': acct(tx[0].find('p:CdtrAcct', ns)),
  'debtor_aba': t(pmt, 'p:DbtrAgt/p:FinInstnId/p:ClrSysMmbId/p:MmbId'),
  'creditor_bic': t(tx[0], 'p:CdtrAgt/p:FinInstnId/p:BICFI'),
  'creditor_aba': t(tx[0], 'p:CdtrAgt/p:FinInstnId/p:ClrSysMmbId/p:MmbId'),
  'svc': t(pmt, 'p:PmtTpInf/p:SvcLvl/p:Cd'),
  'lcl': t(pmt, 'p:PmtTpInf/p:LclInstrm/p:Cd') or t(pmt, 'p:PmtTpInf/p:LclInstrm/p:Prtry'),
  'chrgbr': t(pmt, 'p:ChrgBr'),
}))
`;

describe('pain.001.001.09 as a bank takes it: order, cardinality and read-back per rail (issue 15)', () => {
  for (const [rail, creditor] of CASES) {
    it(`${rail}: every part follows the message definition and reads back to the same amounts and accounts`, () => {
      const xml = buildPain001({ ...BASE, creditor, payment_type: paymentTypeOf(rail) });
      expect(violations(parse(xml), 'Document', 'Document')).to.deep.equal([]);
      const py = spawnSync('python3', ['-c', PY], { input: xml, encoding: 'utf8' });
      expect(py.status, py.stderr).to.equal(0);
      const back = JSON.parse(py.stdout) as Record<string, string | number | null>;
      const type = paymentTypeOf(rail);
      expect(back).to.deep.equal({
        grp_nb: '1',
        grp_sum: '135000.00',
        pmt_nb: '1',
        pmt_sum: '135000.00',
        txs: 1,
        amount: '135000.00',
        ccy: 'USD',
        debtor_account: '4000123456',
        creditor_account: accountNumber(creditor.account),
        debtor_aba: '021000021',
        creditor_bic: (creditor.agent as { bic?: string }).bic ?? null,
        creditor_aba: (creditor.agent as { aba_routing?: string }).aba_routing ?? null,
        svc: type.service_level,
        lcl:
          type.local_instrument === null
            ? null
            : 'cd' in type.local_instrument
              ? type.local_instrument.cd
              : type.local_instrument.prtry,
        chrgbr: type.charge_bearer,
      });
    });
  }

  it('gives each rail its own payment type: ACH/CCD, Wire, RTP, SWIFT (shared charges), escrow book transfer', () => {
    const xmls = CASES.map(([rail, creditor]) =>
      buildPain001({ ...BASE, creditor, payment_type: paymentTypeOf(rail) }),
    );
    const typeParts = (x: string) =>
      `${/<PmtTpInf>[\s\S]*?<\/PmtTpInf>/.exec(x)![0]}${/<ChrgBr>.*<\/ChrgBr>/.exec(x)?.[0] ?? ''}`;
    expect(new Set(xmls.map(typeParts)).size).to.equal(5);
    expect(xmls[0]).to.include('<Cd>CCD</Cd>');
    expect(xmls[4]).to.include('<Prtry>BOOK</Prtry>');
  });

  it('finds an element out of order or missing (the checker can fail)', () => {
    const xml = buildPain001({ ...BASE, creditor: US_GC, payment_type: paymentTypeOf('ACH') });
    const swapped = xml.replace(/(<MsgId>.*<\/MsgId>)(\s*)(<CreDtTm>.*<\/CreDtTm>)/, '$3$2$1');
    expect(violations(parse(swapped), 'Document', 'Document')).to.include(
      'Document/CstmrCdtTrfInitn/GrpHdr/MsgId: out of order',
    );
    const noAgent = xml.replace(/<DbtrAgt>[\s\S]*?<\/DbtrAgt>/, '');
    expect(violations(parse(noAgent), 'Document', 'Document')).to.include(
      'Document/CstmrCdtTrfInitn/PmtInf/DbtrAgt: 0 < min 1',
    );
  });
});
