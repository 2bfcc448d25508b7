import { spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdtempSync,
  writeFileSync,
  existsSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import request from 'supertest';
import { entryArgs, REPO_ROOT, runScript } from '../support/cli.js';
import { ledgerWith, openService, storedRows, type Ledgered } from './support.js';

/**
 * A damaged read-model file (ARCHITECTURE §5: DATA_DIR/read-models.db, nothing in it that the
 * ledger does not give again) never stops a start and is never served: it is set aside as
 * `read-models.db.damaged-<time>` and the read models are rebuilt from the ledger, answering as
 * before. `projections:rebuild`, the operator's tool for it, does the same.
 */
const DAMAGES: { name: string; apply: (file: string) => void }[] = [
  {
    name: 'truncated to half its size',
    apply: (file) => truncateSync(file, Math.floor(statSync(file).size / 2)),
  },
  {
    name: 'its header overwritten (not a database)',
    apply: (file) => {
      const fd = openSync(file, 'r+');
      writeSync(fd, Buffer.alloc(100, 0x5a), 0, 100, 0);
      closeSync(fd);
    },
  },
  { name: 'its records table dropped', apply: (file) => dropTable(file, 'rm_records') },
  { name: 'its digest table dropped', apply: (file) => dropTable(file, 'rm_digests') },
];

function dropTable(file: string, table: string): void {
  const db = new Database(file);
  db.exec(`DROP TABLE ${table}`);
  db.close();
}

describe('a damaged read-model file', function () {
  this.timeout(120_000);
  let ledgered: Ledgered;
  let projects: unknown;
  let eventHash: string;

  before(async () => {
    ledgered = await ledgerWith(400, 'read-model-damage');
    const svc = await openService(ledgered.dataDir);
    try {
      const res = await request(svc.app).get('/api/projects?limit=100').set('Authorization', ledgered.bearer);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.have.length.greaterThan(0);
      projects = res.body.data;
    } finally {
      await svc.close();
    }
    eventHash = (await storedRows(ledgered.dataDir)).at(-10)!.hash;
  });

  after(() => rmSync(ledgered.dataDir, { recursive: true, force: true }));

  const file = () => join(ledgered.dataDir, 'read-models.db');
  const setAside = () =>
    readdirSync(ledgered.dataDir).filter((f) => /^read-models\.db\.damaged-[0-9T-]+Z$/.test(f));

  for (const damage of DAMAGES) {
    it(`${damage.name}: the service starts, sets it aside and answers as before`, async () => {
      const before = setAside().length;
      expect(existsSync(`${file()}-wal`), 'closed: everything in the main file').to.equal(false);
      damage.apply(file());
      const svc = await openService(ledgered.dataDir);
      try {
        const res = await request(svc.app)
          .get('/api/projects?limit=100')
          .set('Authorization', ledgered.bearer);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.data).to.deep.equal(projects);
        const audit = await request(svc.app)
          .post('/api/audit-verify')
          .set('Authorization', ledgered.bearer)
          .send({ hash: eventHash });
        expect(audit.status).to.equal(200);
        expect(audit.body.verdict, JSON.stringify(audit.body)).to.equal('AUTHENTIC');
      } finally {
        await svc.close();
      }
      expect(setAside()).to.have.length(before + 1);
    });
  }

  // It stopped at SQLITE_CORRUPT reading the read models' checkpoint, before a word about the ledger.
  it('ledger:verify still verifies the chain beside a damaged file, and says the file is damaged', () => {
    const header = Buffer.alloc(100, 0x5a);
    const fd = openSync(file(), 'r+');
    writeSync(fd, header, 0, header.length, 0);
    closeSync(fd);
    const run = runScript('ledger-verify.ts', ['--json'], { DATA_DIR: ledgered.dataDir });
    expect(run.status, run.stderr).to.equal(0);
    expect(JSON.parse(run.stdout)).to.include({ ok: true });
    expect(run.stderr).to.include('are damaged');
  });

  it('projections:rebuild sets a damaged file aside and rebuilds (exit 0)', async () => {
    const before = setAside().length;
    truncateSync(file(), Math.floor(statSync(file()).size / 2));
    const run = runScript('projections-rebuild.ts', ['--json'], { DATA_DIR: ledgered.dataDir });
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stderr).to.include('set aside to');
    expect(setAside()).to.have.length(before + 1);
    const svc = await openService(ledgered.dataDir);
    try {
      const res = await request(svc.app).get('/api/projects?limit=100').set('Authorization', ledgered.bearer);
      expect(res.body.data).to.deep.equal(projects);
    } finally {
      await svc.close();
    }
  });
});

describe('a read-model file another live process keeps', function () {
  this.timeout(60_000);

  it('refuses a second start on the same DATA_DIR with a clear message (exit 2), not a stack trace', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'plumbline-busy-'));
    try {
      // This process stands for the node already running there.
      writeFileSync(join(dataDir, 'read-models.db.owner'), String(process.pid));
      const run = spawnSync(process.execPath, entryArgs('src/main.ts'), {
        cwd: REPO_ROOT,
        env: { ...process.env, DATA_DIR: dataDir, PORT: '0', DEMO: '0', LOG_LEVEL: 'warn' },
        encoding: 'utf8',
        timeout: 50_000,
      });
      expect(run.status, run.stderr).to.equal(2);
      expect(run.stderr).to.include('plumbline: refusing to start.');
      expect(run.stderr).to.include(`kept by another live process (pid ${process.pid}); stop it first`);
      expect(run.stderr).not.to.match(/^\s+at /m);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
