/**
 * Known answers for the transparency log's formats: the RFC 6962 reference vectors every CT
 * implementation shares (the 8-leaf set), the C2SP signed-note example key and note (the Go
 * reference implementation's PeterNeumann vector), and the tlog-tiles path encoding examples.
 */
import { expect } from 'chai';
import {
  checkpointText,
  openCheckpoint,
  parseCheckpointText,
  signCheckpoint,
} from '../../../../src/platform/tlog/checkpoint.js';
import {
  consistencyProof,
  EMPTY_ROOT,
  inclusionProof,
  leafHash,
  memorySource,
  rootOfLeafHashes,
  verifyConsistency,
  verifyInclusion,
} from '../../../../src/platform/tlog/merkle.js';
import {
  cosignatureLine,
  cosignatureTime,
  ed25519Signer,
  parseNote,
  parseSignerKey,
  parseVerifierKey,
  SIG_COSIGNATURE_V1,
  signNote,
  verifyNote,
} from '../../../../src/platform/tlog/note.js';
import {
  decodeEntryBundle,
  encodeEntryBundle,
  encodeTileIndex,
  parseTilePath,
  tilePath,
  tileWidth,
} from '../../../../src/platform/tlog/tiles.js';

const LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
].map((h) => Buffer.from(h, 'hex'));

/** MTH of the first n leaves, n = 1…8 (RFC 6962 reference vectors). */
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

/** Inclusion proofs: [leaf index, tree size, path]. */
const INCLUSION: [number, number, string[]][] = [
  [0, 1, []],
  [
    0,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    5,
    8,
    [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [2, 3, ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125']],
  [
    1,
    5,
    [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
];

/** Consistency proofs: [old size, new size, proof]. */
const CONSISTENCY: [number, number, string[]][] = [
  [1, 1, []],
  [
    1,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    6,
    8,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [
    2,
    5,
    [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
];

const hex = (bs: Buffer[]) => bs.map((b) => b.toString('hex'));
const unhex = (hs: string[]) => hs.map((h) => Buffer.from(h, 'hex'));
const leafHashes = LEAVES.map((l) => leafHash(l));
const src = memorySource(leafHashes);

describe('tlog Merkle tree (RFC 9162 §2.1) against the RFC 6962 reference vectors', () => {
  it('the empty tree hashes to SHA-256 of the empty string', () => {
    expect(EMPTY_ROOT.toString('hex')).to.equal(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('has the reference root for every size 1…8', () => {
    for (let n = 1; n <= 8; n += 1) {
      expect(rootOfLeafHashes(leafHashes.slice(0, n)).toString('hex'), `size ${n}`).to.equal(ROOTS[n - 1]);
    }
  });

  it('builds the reference inclusion proofs, and they verify while altered ones do not', () => {
    for (const [index, size, path] of INCLUSION) {
      expect(hex(inclusionProof(src, index, size)), `leaf ${index} of ${size}`).to.deep.equal(path);
      const root = Buffer.from(ROOTS[size - 1]!, 'hex');
      expect(verifyInclusion(index, size, leafHashes[index]!, unhex(path), root)).to.equal(true);
      expect(verifyInclusion(index, size, leafHashes[(index + 1) % 8]!, unhex(path), root)).to.equal(false);
      if (path.length > 0) {
        expect(verifyInclusion(index, size, leafHashes[index]!, unhex(path.slice(1)), root)).to.equal(false);
        expect(verifyInclusion(index, size, leafHashes[index]!, unhex([...path, path[0]!]), root)).to.equal(
          false,
        );
      }
      if (size < 8) {
        const grown = Buffer.from(ROOTS[size]!, 'hex');
        expect(verifyInclusion(index, size + 1, leafHashes[index]!, unhex(path), grown)).to.equal(false);
      }
    }
  });

  it('builds the reference consistency proofs, and they verify while altered ones do not', () => {
    for (const [m, n, path] of CONSISTENCY) {
      expect(hex(consistencyProof(src, m, n)), `${m} → ${n}`).to.deep.equal(path);
      const oldRoot = Buffer.from(ROOTS[m - 1]!, 'hex');
      const newRoot = Buffer.from(ROOTS[n - 1]!, 'hex');
      expect(verifyConsistency(m, n, oldRoot, newRoot, unhex(path))).to.equal(true);
      if (m !== n) {
        expect(
          verifyConsistency(m, n, Buffer.from(ROOTS[(m + 2) % 8]!, 'hex'), newRoot, unhex(path)),
        ).to.equal(false);
        expect(verifyConsistency(m, n, oldRoot, newRoot, unhex(path.slice(0, -1)))).to.equal(false);
      }
    }
  });

  it('every inclusion and consistency proof of every size up to 8 verifies against the reference roots', () => {
    for (let n = 1; n <= 8; n += 1) {
      const root = Buffer.from(ROOTS[n - 1]!, 'hex');
      for (let i = 0; i < n; i += 1) {
        expect(verifyInclusion(i, n, leafHashes[i]!, inclusionProof(src, i, n), root), `${i}/${n}`).to.equal(
          true,
        );
      }
      for (let m = 1; m <= n; m += 1) {
        const proof = consistencyProof(src, m, n);
        const oldRoot = Buffer.from(ROOTS[m - 1]!, 'hex');
        expect(verifyConsistency(m, n, oldRoot, root, proof), `${m} → ${n}`).to.equal(true);
      }
    }
  });

  it('proofs in a larger tree verify at every size, across tile boundaries', () => {
    const leaves = Array.from({ length: 600 }, (_, i) => leafHash(`leaf ${i}`));
    const big = memorySource(leaves);
    for (const n of [1, 255, 256, 257, 511, 512, 513, 600]) {
      const root = rootOfLeafHashes(leaves.slice(0, n));
      for (const i of [0, Math.floor(n / 2), n - 1]) {
        expect(verifyInclusion(i, n, leaves[i]!, inclusionProof(big, i, n), root)).to.equal(true);
      }
      for (const m of [1, 3, 255, 256, 300]) {
        if (m > n) continue;
        const oldRoot = rootOfLeafHashes(leaves.slice(0, m));
        expect(verifyConsistency(m, n, oldRoot, root, consistencyProof(big, m, n)), `${m} → ${n}`).to.equal(
          true,
        );
      }
    }
  });
});

describe('tlog signed notes (C2SP signed-note) against the reference example', () => {
  const VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
  const SKEY = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
  const TEXT =
    "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
  const NOTE = `${TEXT}\n— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

  it('derives the key id and the verifier key string from the signer key', () => {
    const signer = parseSignerKey(SKEY);
    expect(signer.keyId.toString('hex')).to.equal('c74f20a3');
    expect(signer.verifierKey).to.equal(VKEY);
  });

  it('signs the example text to exactly the example note (Ed25519 is deterministic)', () => {
    expect(signNote(TEXT, parseSignerKey(SKEY))).to.equal(NOTE);
  });

  it('verifies the example note and refuses it altered, or under another name or key', () => {
    const v = parseVerifierKey(VKEY);
    expect(verifyNote(NOTE, v)).to.equal(true);
    expect(verifyNote(NOTE.replace('cryptography', 'cryptographY'), v)).to.equal(false);
    expect(verifyNote(NOTE.replace('— PeterNeumann', '— PeterNeuman'), v)).to.equal(false);
    const other = ed25519Signer('PeterNeumann', Buffer.alloc(32, 7));
    expect(verifyNote(NOTE, parseVerifierKey(other.verifierKey))).to.equal(false);
    expect(parseNote(NOTE)?.text).to.equal(TEXT);
  });

  it('refuses malformed verifier keys', () => {
    for (const bad of [
      'PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
      'PeterNeumann+c74f20a3+AhpcXQcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
      'PeterNeumann+c74f20a3',
      'Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
    ]) {
      expect(() => parseVerifierKey(bad), bad).to.throw();
    }
  });
});

describe('tlog checkpoints and cosignatures (C2SP tlog-checkpoint, tlog-cosignature)', () => {
  const signer = ed25519Signer('plumbline.test/log', Buffer.alloc(32, 1));
  const root = Buffer.from(ROOTS[7]!, 'hex');

  it('formats origin, decimal size and base64 root on three lines and round-trips', () => {
    const text = checkpointText({ origin: 'plumbline.test/log', size: 8, root });
    expect(text).to.equal('plumbline.test/log\n8\nXcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=\n');
    expect(parseCheckpointText(text)).to.deep.equal({ origin: 'plumbline.test/log', size: 8, root });
    expect(parseCheckpointText('o\n08\nXcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=\n')).to.equal(null);
  });

  it('opens a signed checkpoint only with the right key and origin', () => {
    const note = signCheckpoint({ origin: 'plumbline.test/log', size: 8, root }, signer);
    const v = parseVerifierKey(signer.verifierKey);
    expect(openCheckpoint(note, v, 'plumbline.test/log')?.size).to.equal(8);
    expect(openCheckpoint(note, v, 'other')).to.equal(null);
    expect(openCheckpoint(note.replace('\n8\n', '\n9\n'), v)).to.equal(null);
  });

  it('a cosignature/v1 uses key type 0x04, a big-endian timestamp, and signs header, time line and note text', () => {
    const witness = ed25519Signer('witness.test/w1', Buffer.alloc(32, 2), SIG_COSIGNATURE_V1);
    const note = signCheckpoint({ origin: 'plumbline.test/log', size: 8, root }, signer);
    const text = parseNote(note)!.text;
    const line = cosignatureLine(text, witness, 1679315147);
    const blob = Buffer.from(line.trim().split(' ')[2]!, 'base64');
    expect(blob.length).to.equal(4 + 8 + 64);
    expect(blob.readBigUInt64BE(4)).to.equal(1679315147n);
    const wv = parseVerifierKey(witness.verifierKey);
    expect(witness.verifierKey.split('+')[2]!.startsWith('B')).to.equal(true); // base64 of 0x04…
    expect(cosignatureTime(note + line, wv)).to.equal(1679315147);
    expect(verifyNote(note + line, wv)).to.equal(true);
    expect(cosignatureTime(note.replace('\n8\n', '\n9\n') + line, wv)).to.equal(null);
  });
});

describe('tlog tiles (C2SP tlog-tiles)', () => {
  it('encodes tile indexes in three-digit groups, x-prefixed but the last', () => {
    expect(encodeTileIndex(0)).to.equal('000');
    expect(encodeTileIndex(5)).to.equal('005');
    expect(encodeTileIndex(1000)).to.equal('x001/000');
    expect(encodeTileIndex(1234067)).to.equal('x001/x234/067');
    expect(tilePath({ level: 1, index: 1234067, width: 256 })).to.equal('tile/1/x001/x234/067');
    expect(tilePath({ level: 'entries', index: 7, width: 12 })).to.equal('tile/entries/007.p/12');
  });

  it('parses canonical paths and refuses the rest', () => {
    expect(parseTilePath('0/x001/x234/067')).to.deep.equal({ level: 0, index: 1234067, width: 256 });
    expect(parseTilePath('entries/005.p/12')).to.deep.equal({ level: 'entries', index: 5, width: 12 });
    for (const bad of [
      '0/5',
      '0/x000/005',
      '0/005.p/0',
      '0/005.p/256',
      '00/005',
      '0/005.p/012',
      'x/005',
      '0/x001',
    ]) {
      expect(parseTilePath(bad), bad).to.equal(null);
    }
  });

  it('knows each tile width at a tree size', () => {
    expect(tileWidth(1000, 0, 3)).to.equal(232);
    expect(tileWidth(1000, 0, 4)).to.equal(0);
    expect(tileWidth(70000, 1, 1)).to.equal(17);
    expect(tileWidth(70000, 2, 0)).to.equal(1);
    expect(tileWidth(1000, 'entries', 0)).to.equal(256);
  });

  it('bundles entries with big-endian uint16 lengths', () => {
    const bundle = encodeEntryBundle([Buffer.from('a'), Buffer.alloc(0), Buffer.alloc(300, 1)]);
    expect(bundle.subarray(0, 5).toString('hex')).to.equal('0001610000');
    expect(decodeEntryBundle(bundle).map((b) => b.length)).to.deep.equal([1, 0, 300]);
  });
});
