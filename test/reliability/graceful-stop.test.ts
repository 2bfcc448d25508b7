import { rmSync } from 'node:fs';
import { once } from 'node:events';
import { createConnection } from 'node:net';
import { expect } from 'chai';
import { freePort } from '../../bench/lib/child.js';
import { ledgerWith, startMain, stopChild, type Child } from './support.js';

/**
 * A SIGTERM (a rolling restart, `docker compose stop`) lets the requests already in the server
 * finish before the stores close. Probed on three nodes on EventStoreDB: six clients registering
 * entities through one node, SIGTERMed midway — one request was answered 500 INTERNAL ('The database
 * connection is not open': the read models closed under it) although its entity was recorded, so a
 * client without an Idempotency-Key that retried it recorded it twice; a request whose body was
 * still arriving was cut off (the process exited under it).
 */
describe('the real server on SIGTERM', function () {
  this.timeout(120_000);
  let dataDir: string;
  let child: Child | undefined;

  after(async () => {
    if (child) await stopChild(child.process, 'SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the requests it has before it stops: none 5xx, every one recorded was acknowledged', async () => {
    const ledger = await ledgerWith(200, 'graceful-stop');
    dataDir = ledger.dataDir;
    const port = await freePort();
    child = await startMain(dataDir, port);
    const running = child;

    // A request whose body is still on its way when the signal comes. It asks for 100 Continue, so
    // the spec knows the server has begun it (bytes it has not read yet are no request of its own).
    const slow = createConnection({ host: '127.0.0.1', port });
    await once(slow, 'connect');
    const body = JSON.stringify({ legal_name: 'Slow Sender Paving', roles: ['supplier'] });
    let answer = '';
    const begun = new Promise<void>((resolve) => {
      slow.setEncoding('utf8').on('data', (chunk: string) => {
        answer += chunk;
        if (answer.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) resolve();
      });
    });
    const slowClosed = new Promise<void>((resolve) => {
      slow.once('close', () => resolve());
      slow.once('error', () => resolve());
    });
    slow.write(
      [
        'POST /api/entities HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        `Authorization: ${ledger.bearer}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Expect: 100-continue',
        'Connection: close',
        '',
        '',
      ].join('\r\n'),
    );
    await begun;
    slow.write(body.slice(0, 10));

    // Clients appending flat out on kept-alive connections.
    const statuses: number[] = [];
    const stop = { now: false };
    const lane = async (l: number): Promise<void> => {
      for (let n = 0; !stop.now; n += 1) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/entities`, {
            method: 'POST',
            headers: { authorization: ledger.bearer, 'content-type': 'application/json' },
            body: JSON.stringify({ legal_name: `Graceful Lane ${l}-${n}`, roles: ['supplier'] }),
          });
          await res.text();
          statuses.push(res.status);
        } catch {
          statuses.push(0); // refused or closed: never answered
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    };
    const lanes = [0, 1, 2, 3, 4, 5].map(lane);
    await new Promise((r) => setTimeout(r, 1000));

    const exited = once(running.process, 'exit');
    running.process.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    slow.write(body.slice(10));
    await slowClosed;
    const [code] = (await exited) as [number | null];
    stop.now = true;
    await Promise.all(lanes);
    child = undefined;

    expect(answer.split('\r\n\r\n')[1]?.split('\r\n')[0], answer).to.equal('HTTP/1.1 201 Created');
    expect(code).to.equal(0);
    expect(
      statuses.filter((s) => s !== 201 && s !== 0),
      JSON.stringify(statuses),
    ).to.deep.equal([]);

    // What the ledger holds is what was acknowledged.
    child = await startMain(dataDir, port);
    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await fetch(
        `http://127.0.0.1:${port}/api/entities?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { headers: { authorization: ledger.bearer } },
      );
      const page = (await res.json()) as { data: Array<{ legal_name: string }>; next_cursor: string | null };
      names.push(...page.data.map((e) => e.legal_name));
      cursor = page.next_cursor;
    } while (cursor);
    expect(names).to.include('Slow Sender Paving');
    expect(names.filter((n) => n.startsWith('Graceful Lane ')).length).to.equal(
      statuses.filter((s) => s === 201).length,
    );
    await stopChild(child.process, 'SIGTERM');
    child = undefined;
  });
});
