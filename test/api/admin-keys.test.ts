/**
 * Org and key administration over HTTP (issue 17): the platform operator (`platform:admin`)
 * registers orgs and issues and revokes any org's keys; a tenant's `admin` key manages its own
 * org's keys only, with scopes it holds; another org's key answers exactly like an unknown one.
 * Everything is a ledger event; a key's secret is shown once.
 */
import { expect } from 'chai';
import request from 'supertest';
import type { SealedEvent } from '../../src/platform/ledger/index.js';
import { readAll } from '../../src/platform/event-store/port.js';
import { startEsdbStandin, type EsdbStandin } from '../support/esdb-standin/index.js';
import { startService, type TestService } from '../support/service.js';

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

describe('org and key administration over HTTP', function () {
  this.timeout(30_000);
  let svc: TestService;
  let operatorKey: string;
  beforeEach(async () => {
    svc = await startService();
    operatorKey = (await svc.operator()).key;
  });
  afterEach(async () => {
    await svc.close();
  });

  async function ledgerEvents(): Promise<SealedEvent[]> {
    const out: SealedEvent[] = [];
    for await (const e of readAll(svc.composed.store)) out.push(e);
    return out;
  }
  const post = (path: string, key: string, body: unknown) =>
    request(svc.app)
      .post(path)
      .set(bearer(key))
      .send(body as object);
  const get = (path: string, key: string) => request(svc.app).get(path).set(bearer(key));

  async function createOrg(name: string): Promise<string> {
    const res = await post('/api/admin/orgs', operatorKey, { name });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.org_id as string;
  }
  async function issue(orgId: string, scopes: string[]) {
    const res = await post('/api/admin/keys', operatorKey, { org_id: orgId, scopes });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as { key_id: string; key: string; signing_secret: string; org_id: string };
  }

  describe('the platform operator', () => {
    it('registers an org, issues it a key that works, lists both, and revokes the key', async () => {
      const orgId = await createOrg('Harbor Credit Union');
      const issued = await issue(orgId, ['credit:read']);
      expect(issued.key).to.match(/^pl_live_/);
      expect(issued.signing_secret).to.match(/^plsig_/);
      const usage = await request(svc.app)
        .post('/api/lender-credit?action=usage')
        .set('x-plumbline-api-key', issued.key);
      expect(usage.status).to.equal(200);

      const orgs = await get('/api/admin/orgs', operatorKey);
      expect(orgs.body.data.map((o: { name: string }) => o.name)).to.include('Harbor Credit Union');
      const keys = await get(`/api/admin/keys?org_id=${orgId}`, operatorKey);
      expect(keys.body.data).to.have.length(1);
      expect(keys.body.data[0]).to.include({ key_id: issued.key_id, revoked_at: null });
      expect(JSON.stringify(keys.body)).not.to.include(issued.key);
      expect(keys.body.data[0]).not.to.have.property('digest');

      const revoked = await post(`/api/admin/keys/${issued.key_id}/revoke`, operatorKey, {
        reason: 'rotated',
      });
      expect(revoked.status).to.equal(200);
      const after = await request(svc.app)
        .post('/api/lender-credit?action=usage')
        .set('x-plumbline-api-key', issued.key);
      expect(after.status).to.equal(401);

      const types = (await ledgerEvents()).slice(-3).map((e) => e.type);
      expect(types).to.deep.equal(['OrganizationRegistered', 'ApiKeyIssued', 'ApiKeyRevoked']);
    });

    it('refuses a second org of the same name with 409 and appends nothing', async () => {
      await createOrg('Harbor Credit Union');
      const head = await svc.head();
      const res = await post('/api/admin/orgs', operatorKey, { name: 'harbor credit union' });
      expect(res.status).to.equal(409);
      expect(await svc.head()).to.equal(head);
    });

    it('never grants a platform scope to a tenant org (403, nothing appended)', async () => {
      const orgId = await createOrg('Harbor Credit Union');
      const head = await svc.head();
      for (const scope of ['registry:admin', 'platform:admin']) {
        const res = await post('/api/admin/keys', operatorKey, { org_id: orgId, scopes: [scope] });
        expect(res.status, scope).to.equal(403);
      }
      expect(await svc.head()).to.equal(head);
    });

    it('answers an unknown org with 404 and a malformed body with 400', async () => {
      const unknown = await post('/api/admin/keys', operatorKey, {
        org_id: 'org_aaaaaaaaaaaaaaaa',
        scopes: ['credit:read'],
      });
      expect(unknown.status).to.equal(404);
      const extra = await post('/api/admin/orgs', operatorKey, { name: 'X', plan: 'gold' });
      expect(extra.status).to.equal(400);
      const scope = await post('/api/admin/keys', operatorKey, {
        org_id: 'org_aaaaaaaaaaaaaaaa',
        scopes: ['root'],
      });
      expect(scope.status).to.equal(400);
    });

    it('shows a key secret once: an Idempotency-Key retry answers 409 naming the key, without the secret', async () => {
      const orgId = await createOrg('Harbor Credit Union');
      const send = () =>
        post('/api/admin/keys', operatorKey, { org_id: orgId, scopes: ['credit:read'] }).set(
          'Idempotency-Key',
          'issue-harbor-1',
        );
      const first = await send();
      expect(first.status).to.equal(201);
      const head = await svc.head();
      const again = await send();
      expect(again.status).to.equal(409);
      expect(again.body.key_id).to.equal(first.body.key_id);
      expect(JSON.stringify(again.body)).not.to.include(first.body.key as string);
      expect(await svc.head()).to.equal(head);
    });
  });

  describe('who may administer', () => {
    it("needs platform:admin: a tenant's admin key gets 403 from /api/admin/*", async () => {
      const orgId = await createOrg('Harbor Credit Union');
      const tenantAdmin = await issue(orgId, ['admin']);
      for (const res of [
        await get('/api/admin/orgs', tenantAdmin.key),
        await get('/api/admin/keys', tenantAdmin.key),
        await post('/api/admin/orgs', tenantAdmin.key, { name: 'Mine' }),
        await post('/api/admin/keys', tenantAdmin.key, { org_id: orgId, scopes: ['admin'] }),
      ])
        expect(res.status).to.equal(403);
    });

    it('needs the admin scope for /api/keys (403 for a read-only key, 401 with no key)', async () => {
      const orgId = await createOrg('Harbor Credit Union');
      const reader = await issue(orgId, ['credit:read']);
      expect((await get('/api/keys', reader.key)).status).to.equal(403);
      expect((await request(svc.app).get('/api/keys')).status).to.equal(401);
    });
  });

  describe("a tenant admin's own keys", () => {
    let harbor: string;
    let harborAdmin: { key: string; key_id: string };
    let bayKey: { key: string; key_id: string };
    beforeEach(async () => {
      harbor = await createOrg('Harbor Credit Union');
      const bay = await createOrg('Bay Lending');
      harborAdmin = await issue(harbor, ['admin']);
      bayKey = await issue(bay, ['credit:read']);
    });

    it('issues a key to its own org, lists only its own org, and revokes it', async () => {
      const res = await post('/api/keys', harborAdmin.key, {
        scopes: ['credit:read', 'governance:read'],
        label: 'ops',
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ org_id: harbor, label: 'ops' });
      const listed = await get('/api/keys', harborAdmin.key);
      expect(listed.body.data.map((k: { org_id: string }) => k.org_id)).to.deep.equal([harbor, harbor]);
      const revoked = await post(`/api/keys/${res.body.key_id}/revoke`, harborAdmin.key, {});
      expect(revoked.status).to.equal(200);
      const usage = await request(svc.app)
        .post('/api/lender-credit?action=usage')
        .set('x-plumbline-api-key', res.body.key as string);
      expect(usage.status).to.equal(401);
    });

    it('cannot grant a scope it does not hold: no platform scope, alone or beside admin', async () => {
      const head = await svc.head();
      for (const scopes of [['registry:admin'], ['platform:admin'], ['admin', 'registry:admin']]) {
        const res = await post('/api/keys', harborAdmin.key, { scopes });
        expect(res.status, scopes.join()).to.equal(403);
      }
      expect(await svc.head()).to.equal(head);
    });

    it("answers another org's key exactly like an unknown one (404) and leaves it working", async () => {
      const other = await post(`/api/keys/${bayKey.key_id}/revoke`, harborAdmin.key, {});
      const unknown = await post('/api/keys/key_aaaaaaaaaaaaaaaa/revoke', harborAdmin.key, {});
      expect(other.status).to.equal(404);
      expect(unknown.status).to.equal(404);
      expect(other.body.title).to.equal(unknown.body.title);
      const usage = await request(svc.app)
        .post('/api/lender-credit?action=usage')
        .set('x-plumbline-api-key', bayKey.key);
      expect(usage.status).to.equal(200);
    });

    it('cannot name another org, in a body or a query (400, nothing appended)', async () => {
      const head = await svc.head();
      const body = await post('/api/keys', harborAdmin.key, {
        scopes: ['credit:read'],
        org_id: 'org_bbbbbbbbbbbbbbbb',
      });
      expect(body.status).to.equal(400);
      const query = await get('/api/keys?org_id=org_bbbbbbbbbbbbbbbb', harborAdmin.key);
      expect(query.status).to.equal(400);
      expect(await svc.head()).to.equal(head);
    });

    it('refuses control characters in an org name, a key label or a revocation reason (400, nothing appended)', async () => {
      // Each is written into the immutable ledger and shown by listings, the CLI and logs: a NUL, an
      // ESC sequence or a C1 control stays there for good (as every other name the ledger keeps).
      const own = await post('/api/keys', harborAdmin.key, { scopes: ['credit:read'] });
      expect(own.status).to.equal(201);
      const head = await svc.head();
      const answers = [
        await post('/api/admin/orgs', operatorKey, { name: 'Evil\u0007Bank' }),
        await post('/api/admin/orgs', operatorKey, { name: 'Evil Bank\u009b' }),
        await post('/api/keys', harborAdmin.key, { scopes: ['credit:read'], label: 'x\u0000\u001b[31mred' }),
        await post('/api/admin/keys', operatorKey, {
          org_id: harbor,
          scopes: ['credit:read'],
          label: 'a\u0085b',
        }),
        await post(`/api/keys/${own.body.key_id}/revoke`, harborAdmin.key, { reason: 'gone\u0000\u001b[2J' }),
        await post(`/api/admin/keys/${own.body.key_id}/revoke`, operatorKey, { reason: 'gone\u007f' }),
      ];
      for (const res of answers) {
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
        expect(res.body.detail).to.match(/control characters/);
      }
      expect(await svc.head()).to.equal(head);
      // A reason may still span lines, as the signers' reasons do.
      const revoked = await post(`/api/keys/${own.body.key_id}/revoke`, harborAdmin.key, {
        reason: 'left the bank\nticket 42',
      });
      expect(revoked.status, JSON.stringify(revoked.body)).to.equal(200);
    });

    it('refuses a malformed key id with 400 on both revoke routes, recording nothing', async () => {
      const head = await svc.head();
      for (const id of ['zzz', 'key_%00%01', `key_${'a'.repeat(3000)}`, 'key_a-b', '__proto__']) {
        for (const [path, key] of [
          [`/api/keys/${id}/revoke`, harborAdmin.key],
          [`/api/admin/keys/${id}/revoke`, operatorKey],
        ] as const) {
          const res = await post(path, key, {});
          expect(res.status, `${path.slice(0, 60)} → ${JSON.stringify(res.body).slice(0, 200)}`).to.equal(
            400,
          );
          expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
          expect(res.body.detail).to.match(/a key id \(key_…\)/);
          expect(res.body.detail.length, 'the id is not echoed back').to.be.below(200);
        }
      }
      expect(await svc.head()).to.equal(head);
      // A well-formed id nobody holds is still an unknown key.
      expect((await post('/api/keys/key_aaaaaaaaaaaaaaaa/revoke', harborAdmin.key, {})).status).to.equal(404);
    });

    it('answers a second revocation with 409', async () => {
      const own = await post('/api/keys', harborAdmin.key, { scopes: ['credit:read'] });
      expect((await post(`/api/keys/${own.body.key_id}/revoke`, harborAdmin.key, {})).status).to.equal(200);
      expect((await post(`/api/keys/${own.body.key_id}/revoke`, harborAdmin.key, {})).status).to.equal(409);
    });
  });
});

describe('revocation on several nodes (EventStoreDB stand-in)', function () {
  this.timeout(30_000);
  let standin: EsdbStandin;
  let nodes: TestService[];
  before(async () => {
    standin = await startEsdbStandin();
    nodes = [];
    for (let i = 0; i < 2; i += 1)
      nodes.push(await startService({ compose: { eventStoreUrl: standin.url } }));
  });
  after(async () => {
    for (const node of nodes) await node.close();
    await standin.stop();
  });

  it('a key revoked through one node is refused by the other within the freshness bound', async () => {
    const [a, b] = nodes as [TestService, TestService];
    const operator = await a.operator();
    const org = await request(a.app)
      .post('/api/admin/orgs')
      .set(bearer(operator.key))
      .send({ name: 'Harbor' });
    const issued = await request(a.app)
      .post('/api/admin/keys')
      .set(bearer(operator.key))
      .send({ org_id: org.body.org_id, scopes: ['credit:read'] });
    const usage = () =>
      request(b.app)
        .post('/api/lender-credit?action=usage')
        .set('x-plumbline-api-key', issued.body.key as string);
    await eventuallyStatus(usage, 200);
    const revoked = await request(a.app)
      .post(`/api/admin/keys/${issued.body.key_id}/revoke`)
      .set(bearer(operator.key))
      .send({});
    expect(revoked.status).to.equal(200);
    await eventuallyStatus(usage, 401);
  });
});

/** Polls until the answer has `status` (at most 3 s: the 1 s freshness bound with room to spare). */
async function eventuallyStatus(send: () => PromiseLike<{ status: number }>, status: number): Promise<void> {
  const until = Date.now() + 3000;
  for (;;) {
    const res = await send();
    if (res.status === status) return;
    if (Date.now() > until) throw new Error(`still ${res.status}, not ${status}, after 3 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
