// Compiled by types.test.ts against the built static/sdk/plumbline.d.ts (not by the root
// tsconfig: the file exists only after the SDK is built). Each @ts-expect-error marks a misuse the
// declarations must reject; types.test.ts also compiles this file with the markers removed and
// checks that every marked line then fails.
import {
  Plumbline,
  PlumblineError,
  verifyChain,
  verifySignature,
  type CreditReport,
  type LedgerEntry,
  type RecordDocumentBody,
} from '../../static/sdk/plumbline.js';

const client = new Plumbline({ baseUrl: 'https://plumbline.example', apiKey: 'pl_test_x', retries: 1 });

export async function wellTyped(): Promise<number> {
  const report: CreditReport = await client.score('Keystone Builders');
  const grade: 'A' | 'B' | 'C' | 'D' | 'F' = report.credit.grade;
  const page = await client.ledgerPage({ after: 0, limit: 10 });
  const entries: LedgerEntry[] = page.events;
  const chain = verifyChain(entries, { from: { seq: 0, hash: '0'.repeat(64) } });
  const first: number | null = chain.first_broken_seq;
  const check = await verifySignature({ headers: {}, bodyText: '{}' }, 'plsig_x', { toleranceSeconds: 60 });
  const rail = await client.rail('SCHEDULE', { project_id: 'prj_x' });
  const waiver: RecordDocumentBody = {
    type: 'INVOICE',
    vendor: 'ent_x',
    number: '7',
    amount: 100,
    line: 1,
  };
  await client.recordDocument('prj_x', waiver, { idempotencyKey: 'k-1' });
  try {
    await client.pushPayment('DRW-x', 'ACH');
  } catch (error) {
    if (error instanceof PlumblineError && error.code === 'GATE_UNMET')
      return error.problem?.gates?.length ?? 0;
  }
  return (first ?? 0) + rail.score + (check.valid ? 1 : 0) + grade.length;
}

export async function misuses(): Promise<void> {
  // @ts-expect-error apiKey is required
  new Plumbline({ baseUrl: 'https://plumbline.example' });
  // @ts-expect-error an entity reference is a string
  await client.score(42);
  // @ts-expect-error rails are named by SPEC §7 name
  await client.rail('NOT_A_RAIL');
  // @ts-expect-error a payment rail is ACH | Wire | RTP | SWIFT
  await client.pushPayment('DRW-x', 'Cash');
  const report = await client.score('x');
  // @ts-expect-error a grade is a letter, not a number
  const grade: number = report.credit.grade;
  // @ts-expect-error a document body needs the fields of its type
  await client.recordDocument('prj_x', { type: 'INVOICE', vendor: 'ent_x' });
  try {
    await client.usage();
  } catch (error) {
    // @ts-expect-error codes are a closed vocabulary
    if (error instanceof PlumblineError && error.code === 'TEAPOT') return;
  }
  void grade;
}
