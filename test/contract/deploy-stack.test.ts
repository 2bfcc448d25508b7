/**
 * The deployable stack, checked by structure (no Docker engine here): docker-compose.yml parsed as
 * YAML by an independent parser (python3's PyYAML), the Dockerfile's stages and the .dockerignore.
 * What only a real `docker compose up` proves is listed in docs/production.md.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { REPO_ROOT } from '../support/cli.js';

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  restart?: string;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
}
interface ComposeFile {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}

function composeFile(): ComposeFile {
  const run = spawnSync(
    'python3',
    [
      '-c',
      'import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))',
      join(REPO_ROOT, 'docker-compose.yml'),
    ],
    { encoding: 'utf8' },
  );
  if (run.error || run.status !== 0)
    throw new Error(
      `python3 with PyYAML is needed (apt-get install -y python3-yaml): ${run.stderr || run.error?.message}`,
    );
  return JSON.parse(run.stdout) as ComposeFile;
}

const replicasOf = (file: ComposeFile) =>
  Object.entries(file.services).filter(([, s]) => s.build !== undefined);

describe('the deployable stack', () => {
  const file = composeFile();
  const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');

  it('pins the EventStoreDB image and keeps Redis append-only, each on a named volume', () => {
    const esdb = file.services.eventstore!;
    expect(esdb.image).to.match(
      /^(eventstore\/eventstore|docker\.kurrent\.io\/kurrent-latest\/kurrentdb|kurrentplatform\/kurrentdb):\d+\.\d+\.\d+/,
    );
    const redis = file.services.redis!;
    expect(redis.image).to.match(/^redis:\d+\.\d+\.\d+/);
    expect(redis.command!.join(' ')).to.include('--appendonly yes');
    for (const s of [esdb, redis]) {
      const named = s.volumes!.map((v) => v.split(':')[0]!);
      expect(named.length).to.be.greaterThan(0);
      for (const n of named) expect(file.volumes).to.have.property(n);
    }
  });

  it('runs two service replicas from the Dockerfile, each with its own named data volume and the same settings', () => {
    const replicas = replicasOf(file);
    expect(replicas.length).to.be.at.least(2);
    const dataVolumes = replicas.map(([, s]) => s.volumes!.find((v) => v.endsWith(':/data'))!.split(':')[0]!);
    expect(new Set(dataVolumes).size).to.equal(replicas.length);
    for (const v of dataVolumes) expect(file.volumes).to.have.property(v);
    const [first] = replicas;
    for (const [name, s] of replicas) {
      expect(s.build!.dockerfile, name).to.equal('Dockerfile');
      expect(s.environment!.EVENTSTORE_URL, name).to.match(/^esdb:\/\/eventstore:2113/);
      expect(s.environment!.REDIS_URL, name).to.equal('redis://redis:6379');
      expect(s.environment, name).to.deep.equal(first![1].environment);
      for (const secret of ['KEY_PEPPER', 'LEDGER_SIGNING_KEY', 'TLOG_SIGNING_SEED'])
        expect(s.environment![secret], `${name} ${secret} must be required`).to.match(
          new RegExp(`^\\$\\{${secret}:\\?`),
        );
      expect(s.depends_on, name).to.deep.equal({
        eventstore: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
    }
  });

  it('gives every service a health check and a restart policy', () => {
    for (const [name, s] of Object.entries(file.services)) {
      expect(s.healthcheck?.test, name).to.be.an('array').that.is.not.empty;
      expect(s.restart, name).to.be.oneOf(['always', 'unless-stopped', 'on-failure']);
    }
  });

  it('builds in stages and runs the compiled entry as a non-root user, with production dependencies only', () => {
    const stages = dockerfile.split(/^FROM /m).slice(1);
    expect(stages.length).to.be.at.least(2);
    const runtime = stages[stages.length - 1]!;
    expect(dockerfile).to.include('npm run build');
    expect(dockerfile).to.match(/npm ci --omit=dev/);
    expect(runtime).to.match(/^USER (node|\d+)/m);
    expect(runtime).to.include('CMD ["node", "dist/src/main.js"]');
    expect(runtime).not.to.match(/tsx/);
    expect(runtime).to.match(/^HEALTHCHECK /m);
  });

  it('keeps node_modules, data, build output and secrets out of the build context', () => {
    const ignored = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    for (const entry of ['node_modules', 'data', 'dist', '**/secrets.json', '**/*.key', '**/demo-key.txt'])
      expect(ignored, entry).to.include(entry);
  });
});
