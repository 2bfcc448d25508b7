/**
 * The EventStore contract against a real EventStoreDB, when `EVENTSTORE_URL` names one
 * (`docker compose up` gives one). It is the only proof of the server itself; the stand-in
 * proves only the adapter's use of the client. Without the variable this file registers no tests
 * and says so once — a skipped test would count as passing, and nothing here has passed.
 *
 * Each store gets a stream name unique to this run, so runs on a shared server never collide.
 */
import { randomUUID } from 'node:crypto';
import { EsdbEventStore } from '../../src/platform/event-store/esdb.js';
import { runEsdbAssumptions } from '../support/esdb-standin/assumptions.js';
import { runEventStoreContract } from './event-store.contract.js';

const url = process.env.EVENTSTORE_URL;

if (url === undefined || url === '') {
  console.log('ESDB real-server contract: skipped — EVENTSTORE_URL is not set (docker compose up gives one)');
} else {
  const run = randomUUID().slice(0, 8);
  let stores = 0;
  let lastStream = '';

  runEventStoreContract(`EsdbEventStore on EventStoreDB at ${url}`, {
    makeStore: () => {
      stores += 1;
      lastStream = `plumbline-ledger-test-${run}-${stores}`;
      return Promise.resolve(EsdbEventStore.connect(url, { stream: lastStream }));
    },
    secondHandle: () => Promise.resolve(EsdbEventStore.connect(url, { stream: lastStream })),
  });

  runEsdbAssumptions(`EventStoreDB at ${url}`, () => url, `plumbline-assumption-${run}`);
}
