/**
 * The ledger position a read was computed at: the read models' position and that event's hash.
 * Results that are not recorded as events (rails) carry it, so an auditor can replay the ledger to
 * exactly that prefix and re-evaluate at the same `as_of`.
 */
import { EMPTY_HEAD, type LedgerHead } from '../ledger/envelope.js';
import type { Service } from './service.js';

export async function readAnchor(s: Service): Promise<LedgerHead> {
  const position = s.runtime.position;
  if (position === 0) return EMPTY_HEAD;
  if (position === s.ledger.head.seq) return s.ledger.head;
  const [event] = await s.ledger.store.read(position, 1);
  return event ? { seq: event.seq, hash: event.hash } : EMPTY_HEAD;
}
