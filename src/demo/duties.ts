/**
 * Signed duties in the demo (issue 15, docs/duties.md): every signer of every project — the
 * chain's three roles, each subcontractor that claims a waiver, a notary commissioned in the
 * project's state — is invited and enrolls a key derived from the seed, and every draw signature,
 * waiver execution and notarial act is a real Ed25519 signature the runner computes over the
 * resource as the service serves it. Ed25519 is deterministic and the keys come from the seed, so
 * the same seed still gives a byte-identical ledger. The lender and payee accounts are registered
 * the day the entities are, long before any payment (outside the payee-account window).
 */
import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { canonicalJson } from '../platform/ledger/canonical.js';
import { PROFILES } from '../projects/profiles.js';
import { signingDigestHex } from '../platform/crypto/ed25519.js';
import {
  drawSigningDocument,
  notarialActDocument,
  waiverSigningDocument,
  type NotarialActTerms,
  type SignableDraw,
  type SignableWaiver,
} from '../sdk/duties.js';
import type { ProjectModel } from './model.js';
import type { Json, StepDraft, Timeline } from './steps.js';
import { ref } from './steps.js';

/** What the runner signs before it sends a step: the resource (GET path, with references) and how. */
export type SignSpec =
  | { kind: 'draw'; resource: string; key: string }
  | { kind: 'waiver'; resource: string; key: string }
  | {
      kind: 'act';
      /** The notarized document. */
      resource: string;
      key: string;
      terms: Omit<NotarialActTerms, 'document_sha256'>;
    };

/** PKCS#8 DER prefix of an Ed25519 private key (RFC 8410); the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

type DemoSignerKey = { privateKey: KeyObject; publicKey: string };

/** Keys already derived, by seed and label: a signer signs every application of its project. */
const derived = new Map<string, DemoSignerKey>();

/** A signer's Ed25519 key, derived from the plan's seed and the signer's label (once per run). */
export function demoSignerKey(seed: string, label: string): DemoSignerKey {
  const name = `${seed}|${label}`;
  const known = derived.get(name);
  if (known !== undefined) return known;
  const key = deriveSignerKey(seed, label);
  // Bounded by the signers of the plans seeded in this process (one plan at first start).
  derived.set(name, key);
  return key;
}

function deriveSignerKey(seed: string, label: string): DemoSignerKey {
  const secret = createHash('sha256').update(`plumbline-demo|${seed}|signer|${label}`).digest();
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, secret]),
    format: 'der',
    type: 'pkcs8',
  });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return { privateKey, publicKey: Buffer.from(jwk.x!, 'base64url').toString('base64') };
}

/** The base64 signature the step's body needs, over the resource the service answered. */
export function signResource(seed: string, spec: SignSpec, resource: unknown): string {
  const { privateKey } = demoSignerKey(seed, spec.key);
  const document =
    spec.kind === 'draw'
      ? drawSigningDocument(resource as SignableDraw)
      : spec.kind === 'waiver'
        ? waiverSigningDocument(resource as SignableWaiver)
        : notarialActDocument({ ...spec.terms, document_sha256: sha256Json(resource) });
  return sign(null, Buffer.from(signingDigestHex(document), 'hex'), privateKey).toString('base64');
}

const sha256Json = (value: unknown): string =>
  createHash('sha256').update(canonicalJson(value)).digest('hex');

/** The reference a project's signer is saved under (its token under `<ref>.token`). */
export const signerRef = (m: ProjectModel, who: string): string => `${m.ref}.sg.${who}`;
/** The signer that executes a claimant's waivers: the GC's chain signer, else the sub's own. */
export const claimantSigner = (m: ProjectModel, claimant: string): string =>
  claimant === m.scenario.gc ? chainRoles(m)[0]! : `claimant.${claimant}`;

const chainRoles = (m: ProjectModel): readonly string[] => PROFILES[m.scenario.profile].certification_chain;

/** Notaries are commissioned for four years from the project's registration. */
const commissionOf = (m: ProjectModel) => ({
  number: `${m.scenario.jurisdiction}-${m.ref}-0001`,
  state: m.scenario.jurisdiction,
  expires_on: `${Number(m.registered_on.slice(0, 4)) + 4}${m.registered_on.slice(4)}`,
});

/** Invites and enrollments of the project's signers, on the day it is registered. */
export function emitSigners(m: ProjectModel, t: Timeline, seed: string): void {
  const L = m.scenario.lender;
  const [first, second, third] = chainRoles(m);
  const subs = [...new Set(m.sov.flatMap((l) => (l.sub === null ? [] : [l.sub])))];
  const invites: { who: string; body: Json }[] = [
    {
      who: first!,
      body: { name: `${m.signers[first!] ?? first}`, capacity: first!, entity_id: ref(m.scenario.gc) },
    },
    {
      who: second!,
      body: {
        name: `${m.signers[second!] ?? second}`,
        capacity: second!,
        entity_id: ref(m.scenario.architect),
      },
    },
    { who: third!, body: { name: `${m.signers[third!] ?? third}`, capacity: third! } },
    ...subs.map((sub) => ({
      who: `claimant.${sub}`,
      body: { name: `Authorized signer of ${sub}`, capacity: 'Claimant', entity_id: ref(sub) },
    })),
    {
      who: 'notary',
      body: {
        name: `Notary public (${m.scenario.jurisdiction})`,
        capacity: 'Notary',
        commission: commissionOf(m),
      },
    },
  ];
  for (const { who, body } of invites) {
    const save = signerRef(m, who);
    t.ingest(m.registered_on, L, '/api/signers', body, `${m.ref}: invite the ${who} signer`, save);
    t.ingest(
      m.registered_on,
      L,
      '/api/signers/enroll',
      { token: ref(`${save}.token`), public_key: demoSignerKey(seed, save).publicKey },
      `${m.ref}: the ${who} signer enrolls its key`,
    );
  }
}

/** A draw signature by the role's signer, signed by the runner over the draw as served. */
export function drawSignatureStep(m: ProjectModel, drawRef: string, role: string): StepDraft {
  const signer = signerRef(m, role);
  return {
    phase: 'ingest',
    sender: m.scenario.lender,
    path: `/api/draws/${ref(drawRef)}/signatures`,
    body: { role, signer_id: ref(signer), signature: '' },
    label: `${drawRef}: signed by the ${role}`,
    sign: { kind: 'draw', resource: `/api/draws/${ref(drawRef)}`, key: signer },
  };
}

/** The claimant's signer executes a recorded waiver. */
export function waiverSignatureStep(
  m: ProjectModel,
  waiverRef: string,
  claimant: string,
  phase: StepDraft['phase'],
): StepDraft {
  const signer = signerRef(m, claimantSigner(m, claimant));
  return {
    phase,
    sender: m.scenario.lender,
    path: `/api/documents/${ref(waiverRef)}/signatures`,
    body: { signer_id: ref(signer), signature: '' },
    label: `${waiverRef}: executed by its claimant's signer`,
    sign: { kind: 'waiver', resource: `/api/documents/${ref(waiverRef)}`, key: signer },
  };
}

/** The notarial act (acknowledgment of the claimant's signer) a notarize step carries. */
export function notarialAct(
  m: ProjectModel,
  waiverRef: string,
  claimant: string,
  date: string,
): { act: Json; sign: SignSpec } {
  const notary = signerRef(m, 'notary');
  const appeared = signerRef(m, claimantSigner(m, claimant));
  const c = commissionOf(m);
  return {
    act: {
      notary_signer_id: ref(notary),
      act_type: 'acknowledgment',
      act_date: date,
      appeared_signer_id: ref(appeared),
      signature: '',
    },
    sign: {
      kind: 'act',
      resource: `/api/documents/${ref(waiverRef)}`,
      key: notary,
      terms: {
        notary_signer_id: ref(notary),
        notary_name: `Notary public (${m.scenario.jurisdiction})`,
        commission_number: c.number,
        commission_state: c.state,
        commission_expires_on: c.expires_on,
        act_type: 'acknowledgment',
        act_date: date,
        appeared_signer_id: ref(appeared),
        document_id: ref(waiverRef),
      },
    },
  };
}

/** A checksum-valid 9-digit ABA routing number derived from a label (first 8 digits, then the check digit). */
export function demoRouting(label: string): string {
  const digest = createHash('sha256').update(`routing|${label}`).digest();
  const d = [...digest.subarray(0, 8)].map((b) => b % 10);
  d[0] = [0, 1, 2, 3][d[0]! % 4]!;
  const partial = 3 * (d[0] + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]!);
  return [...d, (10 - (partial % 10)) % 10].join('');
}

/** A 10-digit account number derived from a label. */
export const demoAccountNumber = (label: string): string =>
  String(
    BigInt(`0x${createHash('sha256').update(`account|${label}`).digest('hex').slice(0, 12)}`) %
      10_000_000_000n,
  ).padStart(10, '0');

const verified = (on: string): Json => ({
  method: 'callback',
  reference: 'call-back to the number on file',
  verified_on: on,
});

/** Each lender's disbursement and escrow accounts and each of its GCs' accounts, on `on`. */
export function emitAccounts(
  t: Timeline,
  on: string,
  lenders: readonly { name: string; index: number }[],
  gcs: readonly { gc: string; lender: number }[],
): void {
  for (const { name, index } of lenders) {
    for (const purpose of ['DISBURSEMENT', 'ESCROW']) {
      const label = `lender${index}.${purpose}`;
      t.ingest(
        on,
        index,
        '/api/accounts',
        {
          purpose,
          holder_name: name,
          aba_routing: demoRouting(`lender${index}`),
          account_number: demoAccountNumber(label),
          verification: verified(on),
        },
        `${name}: ${purpose.toLowerCase()} account`,
      );
    }
  }
  for (const { gc, lender } of gcs) {
    t.ingest(
      on,
      lender,
      '/api/accounts',
      {
        purpose: 'PAYEE',
        entity_id: ref(gc),
        holder_name: gc,
        aba_routing: demoRouting(gc),
        account_number: demoAccountNumber(`${lender}.${gc}`),
        verification: verified(on),
      },
      `${gc}: payee account with lender ${lender}`,
    );
  }
}
