/**
 * The draw compiler wired to the governance kernel: its per-code scan rules for layers 2–3 and
 * its adequacy for layer 5. The adequacy inputs that come from other capabilities (the GC's
 * credit score, the project's rail composite) travel with the scan input.
 */
import type { Draw } from '../../projects/facts.js';
import { assessAdequacy } from '../adequacy.js';
import { CONTRADICTION_ENGINES, TEMPORAL_ENGINES, type ScanInput } from '../scan.js';
import type { ContractorStanding, DrawCompileInput } from './evidence.js';
import { createDrawCompiler, type DrawCompiler } from './draw-compiler.js';

export interface KernelCompileScan extends ScanInput {
  /** The GC's composite credit score (DOMAIN §5); null → adequacy's neutral prior. */
  contractor_score: number | null;
  /** The project's rail composite (DOMAIN §8); null → adequacy's neutral prior. */
  rail_composite: number | null;
}

export function createKernelDrawCompiler(): DrawCompiler<KernelCompileScan, Date> {
  return createDrawCompiler<KernelCompileScan, Date>({
    rules: { ...CONTRADICTION_ENGINES, ...TEMPORAL_ENGINES },
    assessAdequacy(open, pral, input) {
      const scan = input.scan_input;
      const assessed = assessAdequacy(
        {
          project: scan.project,
          draws: scan.draws,
          change_orders: scan.change_orders,
          findings: [...open],
          contractor_score: scan.contractor_score,
          gc_excluded: pral.excluded,
          rail_composite: scan.rail_composite,
        },
        input.now,
      );
      return {
        adequacy: { overall: assessed.overall, vector: assessed.vector },
        in_balance: assessed.in_balance,
      };
    },
  });
}

/** The compile input for one draw of a scanned project; explicit resolutions come from the scan input. */
export function kernelCompileInput(
  scan: KernelCompileScan,
  draw: Draw,
  contractor: ContractorStanding,
  now: Date,
): DrawCompileInput<KernelCompileScan, Date> {
  return {
    project: scan.project,
    draw,
    documents: scan.documents,
    contractor,
    resolutions: scan.resolutions,
    scan_input: scan,
    now,
  };
}
