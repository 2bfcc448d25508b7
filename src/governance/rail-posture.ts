/** The project's rails as governance reads them: the composite (§4 risk) and the CRITICAL rails (§12 gate). */
export interface RailPosture {
  composite: number;
  critical: string[];
  /** Rails with none of their facts that the project's profile does not make optional (not clear). */
  no_evidence: string[];
}
