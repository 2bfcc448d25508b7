/**
 * @module The Plumbline SDK, served bundled at /sdk/plumbline.js (ESM, browsers and Node 20+):
 * a typed client, typed errors, response-signature and ledger-chain verification.
 */
export { Plumbline, RAIL_PATHS, type AppendOptions } from './client.js';
export { PlumblineError, type FieldIssue, type PlumblineErrorCode, type Problem } from './errors.js';
export type { PlumblineOptions } from './transport.js';
export {
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  verifySignature,
  type SignatureFailure,
  type SignatureVerification,
  type SignedMessage,
  type VerifySignatureOptions,
} from './signature.js';
export {
  GENESIS_HASH,
  verifyChain,
  type ChainIssue,
  type ChainIssueCode,
  type ChainVerification,
  type VerifyChainOptions,
} from './chain.js';
export type * from './types.js';
