/**
 * @module The Plumbline SDK, served bundled at /sdk/plumbline.js (ESM, browsers and Node 20+):
 * a typed client, typed errors, response-signature and ledger-chain verification.
 */
export { Plumbline, RAIL_PATHS, type AppendOptions, type CertificationOptions } from './client.js';
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
export {
  EMPTY_ROOT,
  hashChildren,
  hashLeaf,
  rootFromInclusionProof,
  verifyConsistencyProof,
  verifyInclusion,
} from './merkle.js';
export {
  cosignatureMessage,
  isKeyName,
  keyIdHex,
  NOTE_KEY_COSIGNATURE_V1,
  NOTE_KEY_ED25519,
  NoteError,
  noteKeyId,
  openNote,
  parseNote,
  parseVerifierKey,
  verifyNoteSignature,
  type NoteKeyType,
  type NoteSignature,
  type NoteVerifierKey,
  type ParsedNote,
  type VerifiedSignature,
} from './note.js';
export {
  parseCheckpointText,
  verifyCheckpoint,
  type Checkpoint,
  type VerifiedCheckpoint,
  type VerifyCheckpointOptions,
} from './checkpoint.js';
export {
  proofBytes,
  verifyConsistency,
  verifyReceipt,
  type ReceiptFailure,
  type ReceiptVerification,
  type ConsistencyFailure,
  type ConsistencyVerification,
  type ProofHashes,
} from './transparency.js';
export type * from './types.js';
export {
  DRAW_SIGNING_FORMAT,
  NOTARIAL_ACT_FORMAT,
  WAIVER_SIGNING_FORMAT,
  drawSigningDocument,
  generateSignerKey,
  notarialActDocument,
  signDocument,
  signDraw,
  signNotarialAct,
  signWaiver,
  signingDigest,
  signingDigestHex,
  signingText,
  verifyDocumentSignature,
  waiverSigningDocument,
  type NotarialActTerms,
  type SignableDraw,
  type SignableWaiver,
} from './duties.js';
