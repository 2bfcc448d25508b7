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
import type { Express } from 'express';
import request from 'supertest';
import { projectsProjection } from '../../projections/projects.js';
import { ReadModelsDamaged } from '../../src/platform/projections/read-model-damage.js';
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

/**
 * Overwrites every leaf page of the records, their key index and the digest sets with garbage: the
 * header, the schema and the checkpoints stay readable, so a start's checks see nothing and the
 * damage is met only when a read (or a flush) reaches a page SQLite has not cached yet.
 */
function damageDataPages(file: string): number {
  const db = new Database(file, { readonly: true });
  const size = db.pragma('page_size', { simple: true }) as number;
  const pages = db
    .prepare<[], number>(
      `SELECT pageno FROM dbstat WHERE pagetype = 'leaf'
         AND name IN ('rm_records', 'rm_records_by_key', 'rm_digests') ORDER BY pageno`,
    )
    .pluck()
    .all();
  db.close();
  const fd = openSync(file, 'r+');
  for (const page of pages) writeSync(fd, Buffer.alloc(size, 0xa5), 0, size, (page - 1) * size);
  closeSync(fd);
  return pages.length;
}

/** The damaged files set aside in `dir` so far. */
const setAsideIn = (dir: string) =>
  readdirSync(dir).filter((f) => /^read-models\.db\.damaged-[0-9T-]+Z$/.test(f));

/** `projections:rebuild` after `damage`: exit 0, one more file set aside, the same projects served. */
async function rebuildSetsAside(ledgered: Ledgered, projects: unknown, damage: () => void): Promise<void> {
  const setAside = () => setAsideIn(ledgered.dataDir);
  const before = setAside().length;
  damage();
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
  const setAside = () => setAsideIn(ledgered.dataDir);

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

  it('projections:rebuild sets a damaged file aside and rebuilds (exit 0)', () =>
    rebuildSetsAside(ledgered, projects, () => truncateSync(file(), Math.floor(statSync(file()).size / 2))));
});

describe('read-model damage met while serving (data pages no start-time check reads)', function () {
  this.timeout(120_000);
  let ledgered: Ledgered;
  let projects: { id: string }[];

  before(async () => {
    ledgered = await ledgerWith(400, 'read-model-damage-serving');
    const svc = await openService(ledgered.dataDir);
    try {
      const res = await request(svc.app).get('/api/projects?limit=100').set('Authorization', ledgered.bearer);
      expect(res.status).to.equal(200);
      projects = res.body.data as { id: string }[];
      expect(projects).to.have.length.greaterThan(0);
    } finally {
      await svc.close();
    }
  });

  after(() => rmSync(ledgered.dataDir, { recursive: true, force: true }));

  const file = () => join(ledgered.dataDir, 'read-models.db');
  const setAside = () => setAsideIn(ledgered.dataDir);
  const observe = (app: Express) =>
    request(app)
      .post('/api/observations')
      .set('Authorization', ledgered.bearer)
      .send({ kind: 'hours_worked', project_id: projects[0]!.id, observed_on: '2026-06-01', hours: 8 });

  it('answers 503 READ_MODELS_DAMAGED, records nothing, and /readyz says so; a restart rebuilds the file', async () => {
    const asideBefore = setAside().length;
    const svc = await openService(ledgered.dataDir);
    let head: number;
    try {
      // The key is read (and cached) before the damage: what follows is not refused at the door.
      const warm = await request(svc.app).get('/api/ledger?limit=1').set('Authorization', ledgered.bearer);
      expect(warm.status).to.equal(200);
      head = (await svc.composed.store.head()).seq;
      expect(damageDataPages(file())).to.be.greaterThan(3);

      const list = await request(svc.app)
        .get('/api/projects?limit=100')
        .set('Authorization', ledgered.bearer);
      expect(list.status, JSON.stringify(list.body)).to.equal(503);
      expect(list.type).to.equal('application/problem+json');
      expect(list.body).to.include({ code: 'READ_MODELS_DAMAGED' });
      expect(list.body.reason).to.match(/^SQLITE_CORRUPT/);

      // Every command is refused and nothing is recorded on the damaged state.
      const posted = await observe(svc.app);
      expect(posted.status, JSON.stringify(posted.body)).to.equal(503);
      expect(posted.body).to.include({ code: 'READ_MODELS_DAMAGED' });
      expect((await svc.composed.store.head()).seq).to.equal(head);

      const ready = await request(svc.app).get('/readyz');
      expect(ready.status).to.equal(503);
      expect(ready.body.checks.read_models.ok).to.equal(false);
      expect(ready.body.checks.read_models.detail)
        .to.include('appends suspended')
        .and.include('restart the node');
      const metrics = await request(svc.app).get('/metrics');
      expect(metrics.text).to.match(/^plumbline_read_models_damaged 1$/m);
      expect(existsSync(`${file()}.damage`), 'the marker a plain restart acts on').to.equal(true);

      // Reads the damage does not reach go on (the ledger is untouched).
      const ledger = await request(svc.app).get('/api/ledger?limit=5').set('Authorization', ledgered.bearer);
      expect(ledger.status).to.equal(200);
    } finally {
      await svc.close();
    }

    const again = await openService(ledgered.dataDir);
    try {
      expect(setAside()).to.have.length(asideBefore + 1);
      expect(existsSync(`${file()}.damage`)).to.equal(false);
      const list = await request(again.app)
        .get('/api/projects?limit=100')
        .set('Authorization', ledgered.bearer);
      expect(list.status).to.equal(200);
      expect(list.body.data).to.deep.equal(projects);
      expect((await request(again.app).get('/readyz')).status).to.equal(200);
      const posted = await observe(again.app);
      expect(posted.status, JSON.stringify(posted.body)).to.equal(201);
      expect((await again.composed.store.head()).seq).to.equal(head + 1);
      // What the later specs compare with: the project now holds that observation.
      projects = (
        await request(again.app).get('/api/projects?limit=100').set('Authorization', ledgered.bearer)
      ).body.data as { id: string }[];
    } finally {
      await again.close();
    }
  });

  it('never records a decision taken while the damage was met, even one that went on past it', async () => {
    const svc = await openService(ledgered.dataDir);
    try {
      const { ledger, runtime } = svc.composed.deps;
      const head = ledger.head.seq;
      damageDataPages(file());
      const committed = ledger.commit(
        () => {
          try {
            // A decider (or an engine) that takes a failed read as "nothing there" and decides on.
            Object.keys(runtime.state(projectsProjection).projects);
          } catch {
            /* swallowed */
          }
          return {
            events: [{ stream: 'test-damage', type: 'DecidedOnDamage', data: {} }],
            result: null,
          };
        },
        { actor: 'test', org_id: null, request_id: 'read-model-damage' },
      );
      const refused = await committed.then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).to.be.instanceOf(ReadModelsDamaged);
      expect((await svc.composed.store.head()).seq).to.equal(head);
    } finally {
      await svc.close();
    }
    // The next start sets the file aside; the ledger holds no event decided on the damage.
    const again = await openService(ledgered.dataDir);
    try {
      const rows = await storedRows(ledgered.dataDir);
      expect(rows.some((r) => r.content.includes('DecidedOnDamage'))).to.equal(false);
      const list = await request(again.app)
        .get('/api/projects?limit=100')
        .set('Authorization', ledgered.bearer);
      expect(list.body.data).to.deep.equal(projects);
    } finally {
      await again.close();
    }
  });

  it('projections:rebuild sets aside a file damaged in its data pages and rebuilds (exit 0)', () =>
    rebuildSetsAside(ledgered, projects, () => damageDataPages(file())));
  it('a folding CLI (keys) leaves a file marked damaged as it is and folds in memory', () => {
    const marker = `${file()}.damage`;
    writeFileSync(marker, '{"code":"SQLITE_CORRUPT","reason":"test"}\n');
    try {
      const mtime = statSync(file()).mtimeMs;
      const run = runScript('keys.ts', ['list', '--json'], { DATA_DIR: ledgered.dataDir });
      expect(run.status, run.stderr).to.equal(0);
      expect(run.stderr).to.include('are damaged').and.include('folding the ledger in memory instead');
      expect(statSync(file()).mtimeMs, 'not written').to.equal(mtime);
      expect(existsSync(marker), 'the service sets it aside at its next start').to.equal(true);
    } finally {
      rmSync(marker, { force: true });
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
