import { expect } from 'chai';
import {
  buildPain001,
  formatAmount,
  PAIN_001_NAMESPACE,
  type Pain001Input,
} from '../../../src/payments/index.js';

const INPUT: Pain001Input = {
  message_id: 'PAY-paypaypaypaypaypa',
  created_at: '2026-03-06T10:00:00.000Z',
  requested_execution_date: '2026-03-06',
  debtor: { name: 'First Plumb Bank & Trust', account: '000123456789', agent: { aba_routing: '021000021' } },
  creditor: { name: `O'Neil <Builders> "West"`, account: '987654321', agent: { bic: 'BOFAUS3NXXX' } },
  amount: 1_234_567,
  currency: 'USD',
  end_to_end_id: 'DRW-secondsecondseco',
  remittance_info: 'Harbor Lofts draw 2 (G702 2026-02)',
};

/** The text of every element at a slash path, found by walking a tag stack (no DOM in node). */
function textsAt(xml: string, path: string): string[] {
  const stack: string[] = [];
  const found: string[] = [];
  const tags = /<(\/?)([A-Za-z][\w]*)([^>]*?)(\/?)>([^<]*)/g;
  for (const [, close, name, , selfClose, text] of xml.matchAll(tags)) {
    if (close === '/') {
      if (stack.pop() !== name) throw new Error(`mismatched </${name}>`);
      continue;
    }
    stack.push(name!);
    if (stack.join('/').endsWith(path) && text!.trim() !== '') found.push(unescape(text!));
    if (selfClose === '/') stack.pop();
  }
  if (stack.length !== 0) throw new Error(`unclosed: ${stack.join('/')}`);
  return found;
}
const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** Child element names of the first element named `parent`, in order. */
function childrenOf(xml: string, parent: string): string[] {
  const body = new RegExp(`<${parent}>([\\s\\S]*?)\\n(\\s*)</${parent}>`).exec(xml);
  if (!body) throw new Error(`no ${parent}`);
  const indent = (/\n(\s*)</.exec(body[1]!)?.[1] ?? '').length;
  return [...body[1]!.matchAll(new RegExp(`\\n {${indent}}<([A-Za-z]+)[ >]`, 'g'))].map((m) => m[1]!);
}

describe('pain.001.001.09 credit transfer (ISO 20022)', () => {
  const xml = buildPain001(INPUT);

  it('declares the pain.001.001.09 namespace on Document', () => {
    expect(PAIN_001_NAMESPACE).to.equal('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
    expect(xml).to.match(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain\.001\.001\.09">\n {2}<CstmrCdtTrfInitn>/,
    );
  });

  it('writes the amount from cents exactly, in the group control sum and the instructed amount', () => {
    expect(textsAt(xml, 'GrpHdr/CtrlSum')).to.deep.equal(['12345.67']);
    expect(textsAt(xml, 'PmtInf/CtrlSum')).to.deep.equal(['12345.67']);
    expect(xml).to.include('<InstdAmt Ccy="USD">12345.67</InstdAmt>');
    expect([5, 100, 1_00_00, 99_999_999_99].map(formatAmount)).to.deep.equal([
      '0.05',
      '1.00',
      '100.00',
      '99999999.99',
    ]);
    expect(() => formatAmount(0)).to.throw(RangeError);
    expect(() => formatAmount(12.5)).to.throw(RangeError);
  });

  it('carries the header, one transfer and the draw id as end-to-end id', () => {
    expect(textsAt(xml, 'GrpHdr/MsgId')).to.deep.equal(['PAY-paypaypaypaypaypa']);
    expect(textsAt(xml, 'GrpHdr/CreDtTm')).to.deep.equal(['2026-03-06T10:00:00.000Z']);
    expect(textsAt(xml, 'GrpHdr/NbOfTxs')).to.deep.equal(['1']);
    expect(textsAt(xml, 'InitgPty/Nm')).to.deep.equal(['First Plumb Bank & Trust']);
    expect(textsAt(xml, 'PmtInf/PmtMtd')).to.deep.equal(['TRF']);
    expect(textsAt(xml, 'ReqdExctnDt/Dt')).to.deep.equal(['2026-03-06']);
    expect(textsAt(xml, 'PmtId/EndToEndId')).to.deep.equal(['DRW-secondsecondseco']);
    expect(textsAt(xml, 'DbtrAcct/Id/Othr/Id')).to.deep.equal(['000123456789']);
    expect(textsAt(xml, 'DbtrAgt/FinInstnId/ClrSysMmbId/MmbId')).to.deep.equal(['021000021']);
    expect(textsAt(xml, 'ClrSysId/Cd')).to.deep.equal(['USABA']);
    expect(textsAt(xml, 'CdtrAgt/FinInstnId/BICFI')).to.deep.equal(['BOFAUS3NXXX']);
    expect(textsAt(xml, 'CdtrAcct/Id/Othr/Id')).to.deep.equal(['987654321']);
    expect(textsAt(xml, 'RmtInf/Ustrd')).to.deep.equal(['Harbor Lofts draw 2 (G702 2026-02)']);
  });

  it('orders elements as the schema’s sequences require', () => {
    expect(childrenOf(xml, 'GrpHdr')).to.deep.equal(['MsgId', 'CreDtTm', 'NbOfTxs', 'CtrlSum', 'InitgPty']);
    expect(childrenOf(xml, 'PmtInf')).to.deep.equal([
      'PmtInfId',
      'PmtMtd',
      'NbOfTxs',
      'CtrlSum',
      'ReqdExctnDt',
      'Dbtr',
      'DbtrAcct',
      'DbtrAgt',
      'CdtTrfTxInf',
    ]);
    expect(childrenOf(xml, 'CdtTrfTxInf')).to.deep.equal([
      'PmtId',
      'Amt',
      'CdtrAgt',
      'Cdtr',
      'CdtrAcct',
      'RmtInf',
    ]);
  });

  it('escapes names and free text, and the parsed text reads back as given', () => {
    expect(xml).to.include('<Nm>O&apos;Neil &lt;Builders&gt; &quot;West&quot;</Nm>');
    expect(xml).to.include('<Nm>First Plumb Bank &amp; Trust</Nm>');
    expect(textsAt(xml, 'Cdtr/Nm')).to.deep.equal([`O'Neil <Builders> "West"`]);
  });

  it('puts NOTPROVIDED where the debtor agent is unknown and leaves out an unknown creditor agent', () => {
    const plain = buildPain001({
      ...INPUT,
      debtor: { ...INPUT.debtor, agent: null },
      creditor: { ...INPUT.creditor, agent: null },
    });
    expect(textsAt(plain, 'DbtrAgt/FinInstnId/Othr/Id')).to.deep.equal(['NOTPROVIDED']);
    expect(plain).to.not.include('<CdtrAgt>');
  });

  it('cuts free text at 140 characters but refuses an identifier over 35', () => {
    const long = buildPain001({ ...INPUT, remittance_info: 'x'.repeat(200) });
    expect(textsAt(long, 'RmtInf/Ustrd')[0]).to.have.length(140);
    expect(() => buildPain001({ ...INPUT, end_to_end_id: 'D'.repeat(36) })).to.throw(RangeError, /Max35Text/);
  });
});
