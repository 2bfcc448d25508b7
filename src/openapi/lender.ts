/**
 * The lender credit API in OpenAPI (SPEC §4). OpenAPI allows one operation per path and method,
 * and `?action=` is a query parameter, so `POST /api/lender-credit` is ONE operation: an `action`
 * enum parameter, a body that is a `oneOf` of the actions' own zod schemas, a result that is a
 * `oneOf` of their results, and `x-plumbline-actions` pairing each action with its body and result
 * (rendered as a table in the description). The variants come from the live action table, the
 * same one discovery is generated from, so a new action cannot go undocumented.
 */
import type { LenderAction } from '../lender-api/actions.js';
import { LENDER_PATH } from '../lender-api/routes.js';
import type { Named, OperationSpec } from './operations.js';
import * as R from './responses.js';

/** Each action's result schema; an action missing here fails the document build. */
export const LENDER_RESULTS: Readonly<Record<string, Named>> = {
  score: { name: 'CreditReport', schema: R.CreditReportSchema },
  portfolio: { name: 'Portfolio', schema: R.PortfolioSchema },
  verify: { name: 'RegistryVerification', schema: R.RegistryVerificationSchema },
  history: { name: 'History', schema: R.HistorySchema },
  eligibility: { name: 'Eligibility', schema: R.EligibilitySchema },
  usage: { name: 'Usage', schema: R.UsageSchema },
  pdf_link: { name: 'PdfLink', schema: R.PdfLinkSchema },
};

const bodyName = (action: string): string => `Lender${action[0]!.toUpperCase()}${action.slice(1)}Body`;

function resultOf(action: LenderAction): Named {
  const result = LENDER_RESULTS[action.name];
  if (!result) throw new Error(`lender action "${action.name}" has no documented result schema`);
  return result;
}

function actionTable(actions: readonly LenderAction[]): string {
  const rows = actions.map(
    (a) =>
      `| \`${a.name}\` | ${a.body_doc ? `\`${bodyName(a.name)}\`` : 'none'} | \`${resultOf(a).name}\` | ${a.counted ? 'yes' : 'no'} | ${a.description} |`,
  );
  return ['| action | body | result | counts | what |', '|---|---|---|---|---|', ...rows].join('\n');
}

export function lenderOperations(actions: readonly LenderAction[]): OperationSpec[] {
  const names = actions.map((a) => a.name);
  const bodies: Named[] = actions
    .filter((a) => a.body_doc !== null)
    .map((a) => ({ name: bodyName(a.name), schema: a.schema }));
  const discovery: Named = { name: 'Discovery', schema: R.DiscoverySchema };
  const action = (required: boolean, description: string) => ({
    name: 'action',
    description,
    required,
    schema: { type: 'string', enum: names },
  });
  return [
    {
      method: 'GET',
      path: LENDER_PATH,
      operationId: 'lenderDiscovery',
      tag: 'Lender credit',
      summary: 'Discovery document (public, free)',
      access: 'public',
      queryExtra: [action(false, 'Actions are POST requests: a GET with an action answers 405.')],
      response: { status: 200, description: 'The discovery document.', json: discovery },
      errors: ['METHOD_NOT_ALLOWED', 'INVALID_REQUEST'],
    },
    {
      method: 'POST',
      path: LENDER_PATH,
      operationId: 'lenderCredit',
      tag: 'Lender credit',
      summary:
        'Lender credit actions (?action=score | portfolio | verify | history | eligibility | usage | pdf_link)',
      description: [
        'One operation for every action: pick it with the `action` query parameter and send that',
        "action's body. Without `action` the answer is the discovery document (no key needed).",
        'Every action except `usage` and `pdf_link` counts against the 100 requests/day quota; an',
        '`Idempotency-Key` replay is the first answer again and does not count twice.',
        `Actions that record an event (${actions
          .filter((a) => a.appends === true)
          .map((a) => `\`${a.name}\``)
          .join(', ')}) honour \`Idempotency-Key\`: a retry within 24 h replays the first answer.`,
        '',
        actionTable(actions),
      ].join('\n'),
      access: 'lender',
      scope: 'credit:read',
      optionalAuth: true,
      // The actions that record an event (score, verify) honour Idempotency-Key, so this operation
      // answers what an append can: 409, 422 IDEMPOTENCY_KEY_REUSED, 503 LEDGER_INTEGRITY.
      appends: actions.some((a) => a.appends === true),
      queryExtra: [action(false, 'The action; absent → discovery.')],
      body: { oneOf: bodies, required: false },
      response: {
        status: 200,
        description: "The action's result (`ok: true` plus its members), or discovery without an action.",
        json: { oneOf: [...actions.map(resultOf), discovery] },
      },
      errors: ['NOT_FOUND', 'CONFLICT'],
      extensions: {
        'x-plumbline-actions': actions.map((a) => ({
          action: a.name,
          description: a.description,
          counts_against_quota: a.counted,
          body: a.body_doc === null ? null : { $ref: `#/components/schemas/${bodyName(a.name)}` },
          result: { $ref: `#/components/schemas/${resultOf(a).name}` },
        })),
      },
    },
  ];
}
