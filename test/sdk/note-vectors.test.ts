/**
 * Known-answer tests of the SDK's signed-note code (the shipped bundle) and the witness key against
 * the published examples: the C2SP signed-note example key and note (example.com/foo), the
 * golang.org/x/mod sumdb/note keys and notes the C2SP format comes from (PeterNeumann, EnochRoot),
 * and the type-0x04 cosignature key and cosignature of transparency-dev/formats' tests.
 */
import { expect } from 'chai';
import { parseCosignerKey } from '../../src/witness/key.js';
import { loadBuiltSdk, type Sdk } from './harness.js';

const SPEC_VKEY = 'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k';
const SPEC_NOTE =
  'This is an example message.\n\n— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n';

const PETER_SKEY = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const PETER_VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const ENOCH_VKEY = 'EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop';
const GO_TEXT =
  "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const PETER_SIG =
  '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=';
const ENOCH_SIG =
  '— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=';

/** transparency-dev/formats note_cosigv1_test.go: a native type-0x04 key, and a cosignature. */
const REMORA_VKEY = 'remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2';
const COSIG_B64 =
  'ZGhGuQAAAABm/qTPeyKXD+R2rzyQsxPiP8mXum7qq/iF0u4vanlqJyocWODBt97w9uL+8qT7S5gxEHWWOworDcFiEBYJXORmnFBOBA==';

describe('SDK signed notes: the C2SP and Go reference examples', function () {
  this.timeout(60_000); // the first test to load the SDK bundle builds it
  let sdk: Sdk;
  before(async () => {
    sdk = await loadBuiltSdk();
  });

  it('parses the signed-note example key, deriving its key ID 0x530d903a', () => {
    const key = sdk.parseVerifierKey(SPEC_VKEY);
    expect(key.name).to.equal('example.com/foo');
    expect(key.keyId).to.equal(0x530d903a);
    expect(key.type).to.equal(sdk.NOTE_KEY_ED25519);
    expect(sdk.keyIdHex(sdk.noteKeyId(key.name, key.type, key.publicKey))).to.equal('530d903a');
  });

  it('opens the signed-note example note with its key, and refuses it altered', async () => {
    const opened = await sdk.openNote(SPEC_NOTE, [sdk.parseVerifierKey(SPEC_VKEY)]);
    expect(opened.text).to.equal('This is an example message.\n');
    expect(opened.verified.map((v) => v.key.name)).to.deep.equal(['example.com/foo']);
    let error: unknown;
    await sdk
      .openNote(SPEC_NOTE.replace('example message', 'example massage'), [sdk.parseVerifierKey(SPEC_VKEY)])
      .catch((e: unknown) => {
        error = e;
      });
    expect(error).to.be.instanceOf(sdk.NoteError);
  });

  it('opens the Go note signed by two keys, counting only the trusted ones', async () => {
    const note = `${GO_TEXT}\n${PETER_SIG}\n${ENOCH_SIG}\n`;
    const peter = sdk.parseVerifierKey(PETER_VKEY);
    const enoch = sdk.parseVerifierKey(ENOCH_VKEY);
    expect((await sdk.openNote(note, [peter])).verified.map((v) => v.key.name)).to.deep.equal([
      'PeterNeumann',
    ]);
    expect((await sdk.openNote(note, [peter, enoch])).verified.map((v) => v.key.name)).to.deep.equal([
      'PeterNeumann',
      'EnochRoot',
    ]);
    let error: unknown;
    await sdk.openNote(note, [sdk.parseVerifierKey(SPEC_VKEY)]).catch((e: unknown) => {
      error = e;
    });
    expect((error as Error).message).to.match(/no signature from a trusted key/);
  });

  it('refuses keys whose key ID does not match, and malformed keys', () => {
    for (const bad of [
      PETER_VKEY.replace('c74f20a3', 'c74f20a4'),
      PETER_VKEY.replace('c74f20a3', 'C74F20A3'),
      'PeterNeumann+c74f20a3',
      'Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
      `${PETER_VKEY}!`,
    ])
      expect(() => sdk.parseVerifierKey(bad), bad).to.throw(sdk.NoteError);
  });

  it('the witness key reads the Go signer key and signs exactly the Go example signature', () => {
    const key = parseCosignerKey(PETER_SKEY);
    expect(key.skey).to.equal(PETER_SKEY);
    expect(key.noteVkey).to.equal(PETER_VKEY);
    expect(key.signNote(GO_TEXT)).to.equal(PETER_SIG);
  });

  it('derives the type-0x04 key ID of a cosignature key and reads a cosignature timestamp', () => {
    const key = sdk.parseVerifierKey(REMORA_VKEY);
    expect(key.type).to.equal(sdk.NOTE_KEY_COSIGNATURE_V1);
    expect(key.keyId).to.equal(0xda77ade7);
    const note = sdk.parseNote(`x\n\n— w ${COSIG_B64}\n`);
    const sig = note.signatures[0]!;
    expect(sig.keyId).to.equal(0x646846b9);
    expect(sig.signature.length).to.equal(8 + 64);
    const timestamp = new DataView(sig.signature.buffer, sig.signature.byteOffset).getBigUint64(0);
    expect(timestamp).to.equal(1727964367n);
  });

  it('cosigns as cosignature/v1 over "cosignature/v1\\ntime <t>\\n<checkpoint>", verified by the SDK', async () => {
    const witness = parseCosignerKey(PETER_SKEY);
    const checkpoint =
      'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';
    const line = witness.cosign(checkpoint, 1679315147);
    const vkey = sdk.parseVerifierKey(witness.vkey);
    expect(vkey.type).to.equal(sdk.NOTE_KEY_COSIGNATURE_V1);
    expect(vkey.keyId).to.not.equal(sdk.parseVerifierKey(PETER_VKEY).keyId);
    const parsed = sdk.parseNote(`${checkpoint}\n${line}\n`);
    const verified = await sdk.verifyNoteSignature(parsed.text, parsed.signatures[0]!, vkey);
    expect(verified?.timestamp).to.equal(1679315147);
    // The same bytes under the plain Ed25519 key are not a note signature (domain separation).
    expect(
      await sdk.verifyNoteSignature(parsed.text, parsed.signatures[0]!, sdk.parseVerifierKey(PETER_VKEY)),
    ).to.equal(null);
    // And the cosignature covers the time line: another timestamp does not verify.
    const bytes = parsed.signatures[0]!.signature.slice();
    bytes[7] = (bytes[7] ?? 0) ^ 1;
    expect(
      await sdk.verifyNoteSignature(parsed.text, { ...parsed.signatures[0]!, signature: bytes }, vkey),
    ).to.equal(null);
  });
});
