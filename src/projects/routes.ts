/**
 * Thin HTTP routes over the projects deciders (SPEC §5): parse with the strict contract, decide
 * against projected state, append, answer `201 {id, ledger}`; every GET twin is org-scoped, so
 * another org's id answers exactly like an unknown one.
 */
import type { Request, Response } from 'express';
import { z } from 'zod';
import { governance as governanceProjection } from '../../projections/governance.js';
import { scanInputFor, scanProject } from '../governance/scan.js';
import { observationsProjection } from '../../projections/observations.js';
import { projectsProjection } from '../../projections/projects.js';
import { registryProjection } from '../../projections/registry.js';
import { authOf } from '../platform/http/context.js';
import { runCommand } from '../platform/http/command.js';
import { ProblemError } from '../platform/http/problem.js';
import { projectGuard, type Service } from '../platform/http/service.js';
import { parseWith } from '../platform/http/validate.js';
import { decodeCursor, FindingIdParam } from './contract-primitives.js';
import {
  RecordChangeOrderBody,
  RecordDocumentBody,
  RecordObservationBody,
  RegisterProjectBody,
  ResolveFindingBody,
  SignDocumentBody,
  SignDrawBody,
  SubmitDrawBody,
} from './contract.js';
import { getSigner, signersProjection } from '../signers/index.js';
import { decide, type Decided, type ProjectsCommand, type ProjectsLookups } from './decide.js';
import {
  getDocument,
  getDraw,
  getObservation,
  getProject,
  listChangeOrders,
  listDocuments,
  listDraws,
  listObservations,
  listProjects,
} from './queries.js';

const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  // A cursor not issued here is refused, like every other list's: read as page one, a client
  // holding a damaged cursor would loop over the first page forever.
  cursor: z
    .string()
    .max(200)
    .refine((c) => decodeCursor(c) !== null, 'a cursor this API issued')
    .optional(),
});
const IdParams = z.strictObject({ id: z.string().min(1).max(80) });
const FindingParams = z.strictObject({ id: FindingIdParam });

function page(req: Request): { limit: number; cursor?: string } {
  const q = parseWith(PageQuery, req.query, 'query');
  return q.cursor === undefined ? { limit: q.limit } : { limit: q.limit, cursor: q.cursor };
}

function unwrap(decided: Decided): Extract<Decided, { ok: true }> {
  if (decided.ok) return decided;
  const errors = decided.error.errors?.map((i) => ({
    path: i.path.join('.'),
    code: i.code,
    message: i.message,
  }));
  throw new ProblemError(decided.error.code, decided.error.detail, errors ? { errors } : {});
}

function found<T>(value: T | undefined, what: string, id: string): T {
  if (value === undefined) throw new ProblemError('NOT_FOUND', `no ${what} ${id}`);
  return value;
}

export function mountProjects(s: Service): void {
  const lookups: ProjectsLookups = {
    signer: (org_id, signer_id) => getSigner(s.runtime.state(signersProjection), org_id, signer_id),
    entityExists: (id) => Object.hasOwn(s.runtime.state(registryProjection).entities, id),
    // Read inside the commit (the decider runs there): a finding on one of the org's projects — one
    // a scan recorded, or one the project's facts raise at the head though nobody scanned yet
    // (findings are always current). Another org's finding answers exactly like an unknown one.
    // A resolution records the finding as the facts raise it now (severity, evidence); a recorded
    // finding they no longer raise, as last recorded.
    findingAt: (org_id, finding_id) => {
      const projects = s.runtime.state(projectsProjection);
      const now = s.clock.now();
      const raisedOn = (project_id: string) => {
        const input = scanInputFor(projects, project_id);
        if (input === null || input.project.org_id !== org_id) return undefined;
        const found = scanProject({ ...input, resolutions: {} }, now);
        return [...found.contradictions, ...found.temporal].find((f) => f.id === finding_id);
      };
      const finding = s.runtime.state(governanceProjection).findings[finding_id];
      if (finding !== undefined) {
        if (finding.org_id !== org_id || getProject(projects, org_id, finding.project_id) === undefined)
          return undefined;
        const { severity, evidence } = raisedOn(finding.project_id) ?? finding;
        return { opened_on: finding.opened_on, severity, evidence };
      }
      for (const project_id of projects.project_ids_by_org[org_id] ?? []) {
        const raised = raisedOn(project_id);
        if (raised)
          return { opened_on: raised.arose_on, severity: raised.severity, evidence: raised.evidence };
      }
      return undefined;
    },
  };
  const command = async (req: Request, res: Response, build: () => ProjectsCommand): Promise<void> => {
    const cmd = build();
    const auth = authOf(req);
    const committed = await runCommand(s.ledger, req, (_head, eventId) => {
      const decided = unwrap(
        decide(s.runtime.state(projectsProjection), cmd, {
          org_id: auth.org_id,
          now: s.clock.now(),
          eventId,
          lookups,
          platform_operator: auth.scopes.includes('registry:admin'),
        }),
      );
      return { events: decided.events, result: decided.result };
    });
    const last = committed.events[committed.events.length - 1]!;
    res.status(201).json({ id: committed.result.id, ledger: { seq: last.seq, hash: last.hash } });
  };
  const write = projectGuard(s, 'governance:write', { appends: true });
  const read = projectGuard(s, 'governance:read');
  const projects = () => s.runtime.state(projectsProjection);

  s.routes.add('POST', '/api/projects', ...write, (req, res) =>
    command(req, res, () => ({ type: 'RegisterProject', body: parseWith(RegisterProjectBody, req.body) })),
  );
  s.routes.add('GET', '/api/projects', ...read, (req, res) => {
    res.json(listProjects(projects(), authOf(req).org_id, page(req)));
  });
  s.routes.add('GET', '/api/projects/:id', ...read, (req, res) => {
    const { id } = parseWith(IdParams, req.params, 'params');
    res.json(found(getProject(projects(), authOf(req).org_id, id), 'project', id));
  });

  s.routes.add('POST', '/api/projects/:id/change-orders', ...write, (req, res) =>
    command(req, res, () => ({
      type: 'RecordChangeOrder',
      project_id: parseWith(IdParams, req.params, 'params').id,
      body: parseWith(RecordChangeOrderBody, req.body),
    })),
  );
  s.routes.add('GET', '/api/projects/:id/change-orders', ...read, (req, res) => {
    const { id } = parseWith(IdParams, req.params, 'params');
    found(getProject(projects(), authOf(req).org_id, id), 'project', id);
    res.json(listChangeOrders(projects(), authOf(req).org_id, id, page(req)));
  });

  s.routes.add('POST', '/api/projects/:id/documents', ...write, (req, res) =>
    command(req, res, () => ({
      type: 'RecordDocument',
      project_id: parseWith(IdParams, req.params, 'params').id,
      body: parseWith(RecordDocumentBody, req.body),
    })),
  );
  s.routes.add('GET', '/api/projects/:id/documents', ...read, (req, res) => {
    const { id } = parseWith(IdParams, req.params, 'params');
    found(getProject(projects(), authOf(req).org_id, id), 'project', id);
    res.json(listDocuments(projects(), authOf(req).org_id, id, page(req)));
  });
  s.routes.add('POST', '/api/documents/:id/signatures', ...write, (req, res) =>
    command(req, res, () => ({
      type: 'SignDocument',
      document_id: parseWith(IdParams, req.params, 'params').id,
      body: parseWith(SignDocumentBody, req.body),
    })),
  );
  s.routes.add('GET', '/api/documents/:id/signatures', ...read, (req, res) => {
    const { id } = parseWith(IdParams, req.params, 'params');
    found(getDocument(projects(), authOf(req).org_id, id), 'document', id);
    res.json({ items: projects().document_signatures?.[id] ?? [] });
  });
  s.routes.add('GET', '/api/documents/:id', ...read, (req, res) => {
    const { id } = parseWith(IdParams, req.params, 'params');
    res.json(found(getDocument(projects(), authOf(req).org_id, id), 'document', id));
  });

  s.routes.add('POST', '/api/projects/:id/draws', ...write, (req, res) =>
    command(req, res, () => ({
      type: 'SubmitDraw',
      project_id: parseWith(IdParams, req.params, 'params').id,
      body: parseWith(SubmitDrawBody, req.body),
    })),
  );
  s.routes.add('GET', '/api/projects/:id/draws', ...read, (req, res) => {
    const { id } = parseWith(IdParams, req.params, 'params');
    found(getProject(projects(), authOf(req).org_id, id), 'project', id);
    res.json(listDraws(projects(), authOf(req).org_id, id, page(req)));
  });
  s.routes.add('GET', '/api/draws/:id', ...read, (req, res) => {
    const { id } = parseWith(IdParams, req.params, 'params');
    res.json(found(getDraw(projects(), authOf(req).org_id, id), 'draw', id));
  });
  s.routes.add('POST', '/api/draws/:id/signatures', ...write, (req, res) =>
    command(req, res, () => ({
      type: 'SignDraw',
      draw_id: parseWith(IdParams, req.params, 'params').id,
      body: parseWith(SignDrawBody, req.body),
    })),
  );

  s.routes.add('POST', '/api/observations', ...write, (req, res) =>
    command(req, res, () => ({
      type: 'RecordObservation',
      body: parseWith(RecordObservationBody, req.body),
    })),
  );
  s.routes.add('GET', '/api/observations', ...read, (req, res) => {
    res.json(listObservations(s.runtime.state(observationsProjection), authOf(req).org_id, {}, page(req)));
  });
  s.routes.add('GET', '/api/observations/:id', ...read, (req, res) => {
    const { id } = parseWith(IdParams, req.params, 'params');
    res.json(
      found(
        getObservation(s.runtime.state(observationsProjection), authOf(req).org_id, id),
        'observation',
        id,
      ),
    );
  });

  s.routes.add('POST', '/api/findings/:id/resolve', ...write, (req, res) =>
    command(req, res, () => ({
      type: 'ResolveFinding',
      finding_id: parseWith(FindingParams, req.params, 'params').id,
      body: parseWith(ResolveFindingBody, req.body),
    })),
  );
}
