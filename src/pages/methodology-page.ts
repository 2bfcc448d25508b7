/**
 * Renders the compliance-methodology page: the static template (static/compliance-methodology.html)
 * with every section generated from `METHODOLOGY` and the live bias analysis. Pure: the route hands
 * it the template, the analysis and the time.
 */
import type { BiasAnalysis, BiasSubject } from '../credit/index.js';
import { biasSection, type BiasAsOf } from './bias-section.js';
import { fillTemplate, html, type SafeHtml } from './html.js';
import {
  businessTypesSection,
  eligibilitySection,
  remediationSection,
  stateMachineSection,
} from './methodology-rules.js';
import {
  dimensionsSection,
  gradesSection,
  scoringSection,
  thresholdsSection,
  type Methodology,
} from './methodology-scoring.js';

export interface MethodologyPageInput {
  template: string;
  methodology: Methodology;
  bias: BiasAnalysis;
  subjects: readonly BiasSubject[];
  asOf: BiasAsOf;
}

export function renderMethodologyPage(input: MethodologyPageInput): SafeHtml {
  const m = input.methodology;
  return fillTemplate(input.template, {
    generated_at: html`${input.asOf.computed_at}`,
    ledger_seq: html`${input.asOf.ledger_seq}`,
    grades: gradesSection(m),
    dimensions: dimensionsSection(m),
    scoring: scoringSection(m),
    thresholds: thresholdsSection(m),
    state_machine: stateMachineSection(m),
    remediation: remediationSection(m),
    eligibility: eligibilitySection(m),
    business_types: businessTypesSection(m),
    bias: biasSection(input.bias, input.subjects, input.asOf),
  });
}
