/**
 * The DOMAIN §9 draw compiler: the registered engine set, validated at construction, and the
 * SPEC §6 `compilation` it answers.
 */
import { CONTRADICTION_CODES, TEMPORAL_CODES, type Finding, type FindingCode } from '../findings.js';
import { adequacyEngine, type AdequacyAssessment, type AdequacyAssessor } from './adequacy.js';
import { createCompiler } from './compiler.js';
import type { Engine, TraceEntry } from './engine.js';
import type { DrawCompileInput, DrawEvidence, DrawVerdict, DrawVerdictEvidence } from './evidence.js';
import { contradictionEngines, temporalEngines, type FindingRules } from './finding-engines.js';
import { documentInventoryEngine, identityRegistryEngine, sovIntegrityEngine } from './intake.js';
import { openFindingsForDraw, openProjectFindings } from './open-findings.js';
import { pralEngine } from './pral.js';
import { drawVerdictEngine } from './verdict.js';

/** What the draw engines need from the kernel: its per-code rules and its adequacy. */
export interface DrawCompileDeps<S, N> {
  rules: FindingRules<S, N>;
  assessAdequacy: AdequacyAssessor<S, N>;
}

/** SPEC §6 `compilation`. */
export interface Compilation {
  draw_id: string;
  verdict_status: 'READY' | 'BLOCKED';
  draw_verdict: DrawVerdict;
  layers_executed: number;
  trace: TraceEntry[];
  evidence_available: string[];
}

export interface DrawCompileResult {
  compilation: Compilation;
  /** null when the verdict engine did not fire (see `INCOMPLETE_COMPILE_VERDICT`). */
  verdict: DrawVerdictEvidence | null;
  adequacy: AdequacyAssessment | null;
  /** Findings open for the draw, as far as layers 2–3 produced them. */
  findings: Finding[];
  /** The project's open findings, every draw's: what layer 5's adequacy counted. */
  project_findings: Finding[];
  evidence: Partial<DrawEvidence>;
}

export interface DrawCompiler<S, N> {
  readonly engineCount: number;
  readonly layers: readonly (readonly string[])[];
  compile(input: DrawCompileInput<S, N>): DrawCompileResult;
}

/**
 * The verdict of a compile whose `draw_verdict` engine could not fire (an engine upstream was
 * BLOCKED or FAILED). An incomplete review must never read as fundable; HOLD says "not yet" —
 * fix the facts the trace names and compile again.
 */
export const INCOMPLETE_COMPILE_VERDICT: DrawVerdict = 'HOLD';

/** Verdicts that make a compilation READY (DOMAIN §9). */
export const READY_VERDICTS: readonly DrawVerdict[] = ['FUNDABLE', 'FUNDABLE_WITH_CONDITIONS'];

/** The DOMAIN §9 engine set, in registration order (which orders engines within a layer). */
export function drawEngines<S, N>(
  deps: DrawCompileDeps<S, N>,
): Engine<DrawCompileInput<S, N>, DrawEvidence>[] {
  return [
    sovIntegrityEngine,
    documentInventoryEngine,
    identityRegistryEngine,
    ...contradictionEngines(deps.rules),
    ...temporalEngines(deps.rules),
    pralEngine,
    adequacyEngine(deps.assessAdequacy),
    drawVerdictEngine,
  ];
}

/** Builds and validates the DAG now: a cycle or dangling input throws an `EngineGraphError`. */
export function createDrawCompiler<S, N>(deps: DrawCompileDeps<S, N>): DrawCompiler<S, N> {
  const compiler = createCompiler(drawEngines(deps));
  return {
    engineCount: compiler.engineCount,
    layers: compiler.layers,
    compile(input) {
      const run = compiler.run(input);
      const verdict = run.evidence.draw_verdict ?? null;
      const draw_verdict = verdict?.draw_verdict ?? INCOMPLETE_COMPILE_VERDICT;
      const adequacy =
        run.evidence.adequacy_vector !== undefined && run.evidence.in_balance !== undefined
          ? { adequacy: run.evidence.adequacy_vector, in_balance: run.evidence.in_balance }
          : null;
      return {
        compilation: {
          draw_id: input.draw.id,
          verdict_status: verdict !== null && READY_VERDICTS.includes(draw_verdict) ? 'READY' : 'BLOCKED',
          draw_verdict,
          layers_executed: run.layers_executed,
          trace: run.trace,
          evidence_available: run.evidence_available,
        },
        verdict,
        adequacy,
        findings: openFindingsForDraw(input, run.evidence),
        project_findings: openProjectFindings(input, run.evidence),
        evidence: run.evidence,
      };
    },
  };
}

/**
 * How many engines the draw compile registers (SPEC §7 `/api/profiles`, DOMAIN §9 "the number of
 * engines registered, not a published figure"). Counted by building the real registry with inert
 * dependencies — the set of engines does not depend on them — and validating its graph.
 */
export function registeredEngineCount(): number {
  const inert = (): never => {
    throw new Error('inert dependency: counting engines only');
  };
  const rules = Object.fromEntries(
    [...CONTRADICTION_CODES, ...TEMPORAL_CODES].map((code) => [code, inert]),
  ) as Record<FindingCode, typeof inert>;
  return createDrawCompiler<unknown, unknown>({ rules, assessAdequacy: inert }).engineCount;
}
