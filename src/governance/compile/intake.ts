/**
 * Layer 1 intake engines (DOMAIN §9): they read the projected facts and publish the views every
 * later engine relies on. They read no evidence, so the compiler always places them first.
 */
import type { Document, Draw, Project } from '../../projects/facts.js';
import { blocked, fired, type Engine } from './engine.js';
import type { DocumentInventory, DrawCompileInput, DrawEvidence } from './evidence.js';

type DrawEngine = Engine<DrawCompileInput<unknown, unknown>, DrawEvidence>;

/** BLOCKED when the G703 does not carry every SOV line exactly once: no line check is meaningful. */
export const sovIntegrityEngine: DrawEngine = {
  name: 'sov_integrity',
  inputs: [],
  outputs: ['sov_integrity'],
  run({ input: { project, draw } }) {
    const problem = sovMismatch(project, draw);
    if (problem !== null) return blocked(problem);
    return fired({
      sov_integrity: {
        lines: draw.lines.length,
        contract_sum_to_date: draw.summary.contract_sum_to_date,
        total_completed_and_stored: draw.summary.total_completed_and_stored,
      },
    });
  },
};

function sovMismatch(project: Project, draw: Draw): string | null {
  const sovLines = project.sov.map((l) => l.line);
  const drawLines = draw.lines.map((l) => l.line);
  const missing = sovLines.filter((line) => !drawLines.includes(line));
  const extra = drawLines.filter((line) => !sovLines.includes(line));
  const duplicated = drawLines.filter((line, i) => drawLines.indexOf(line) !== i);
  const parts = [
    missing.length > 0 ? `SOV lines missing from the draw: ${missing.join(', ')}` : '',
    extra.length > 0 ? `draw lines not in the SOV: ${extra.join(', ')}` : '',
    duplicated.length > 0 ? `draw lines repeated: ${duplicated.join(', ')}` : '',
  ].filter((p) => p !== '');
  return parts.length > 0 ? parts.join('; ') : null;
}

export const documentInventoryEngine: DrawEngine = {
  name: 'document_inventory',
  inputs: [],
  outputs: ['document_inventory'],
  run({ input: { draw, documents } }) {
    const inventory = inventoryOf(draw, documents);
    const count = Object.values<string[]>({ ...inventory }).reduce((n, ids) => n + ids.length, 0);
    return fired({ document_inventory: inventory }, `${count} document reference(s)`);
  },
};

function inventoryOf(draw: Draw, documents: readonly Document[]): DocumentInventory {
  const inventory: DocumentInventory = {
    waivers_for_draw: [],
    inspections_for_draw: [],
    title_date_downs: [],
    certificates: [],
    invoices_listed: [...draw.invoices],
    bills_of_sale: [],
  };
  for (const doc of documents) {
    switch (doc.type) {
      case 'LIEN_WAIVER':
        if (doc.draw_id === draw.id) inventory.waivers_for_draw.push(doc.id);
        break;
      case 'INSPECTION_REPORT':
        if (doc.draw_id === draw.id) inventory.inspections_for_draw.push(doc.id);
        break;
      case 'TITLE_DATE_DOWN':
        inventory.title_date_downs.push(doc.id);
        break;
      case 'INSURANCE_CERTIFICATE':
        inventory.certificates.push(doc.id);
        break;
      case 'BILL_OF_SALE':
        if (doc.draw_id === null || doc.draw_id === draw.id) inventory.bills_of_sale.push(doc.id);
        break;
      case 'INVOICE':
        break; // the draw lists its invoices itself
      default: {
        const unhandled: never = doc;
        throw new Error(`unhandled document ${JSON.stringify(unhandled)}`);
      }
    }
  }
  return inventory;
}

/** BLOCKED when the standing handed in is not the project's GC: every attribution would be wrong. */
export const identityRegistryEngine: DrawEngine = {
  name: 'identity_registry',
  inputs: [],
  outputs: ['identity_registry'],
  run({ input: { project, contractor } }) {
    if (contractor.entity_id !== project.general_contractor) {
      return blocked(
        `registry standing is for ${contractor.entity_id}, the GC is ${project.general_contractor}`,
      );
    }
    const { registration, excluded } = contractor;
    return fired(
      { identity_registry: { general_contractor: project.general_contractor, registration, excluded } },
      `registration ${registration}, ${excluded ? 'excluded' : 'no exclusion'}`,
    );
  },
};
