/**
 * Known-answer tests of the SDK's RFC 9162 verifiers (the shipped bundle) against the RFC 6962
 * reference vectors: the 8-leaf set of the Certificate Transparency test suite, its root for every
 * size, and the inclusion and consistency proofs published with it (transparency-dev/merkle
 * proof/verify_test.go, from google/certificate-transparency). Each good proof must verify, and
 * each corruption of it that the reference suite tries must be refused.
 */
import { expect } from 'chai';
import { consistencyProof, inclusionProof, leafHash, memorySource } from '../../src/platform/tlog/merkle.js';
import { loadBuiltSdk, type Sdk } from './harness.js';

const hex = (h: string): Uint8Array => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));
const toHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

export const LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
].map(hex);

/** ROOTS[n] is the root of the first n leaves. */
export const ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
].map(hex);

/** Leaf numbers are 1-based, as in the reference suite. */
const INCLUSION: { leaf: number; size: number; proof: string[] }[] = [
  { leaf: 1, size: 1, proof: [] },
  {
    leaf: 1,
    size: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    leaf: 6,
    size: 8,
    proof: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  { leaf: 3, size: 3, proof: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    leaf: 2,
    size: 5,
    proof: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
];

const CONSISTENCY: { size1: number; size2: number; proof: string[] }[] = [
  { size1: 1, size2: 1, proof: [] },
  {
    size1: 1,
    size2: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    size1: 6,
    size2: 8,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  {
    size1: 2,
    size2: 5,
    proof: [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
  {
    size1: 6,
    size2: 7,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
];

const SOME_HASH = hex('abacaba000000000000000000000000000000000000000000060061e00123456');

function flipped(proof: Uint8Array[], i: number, mask: number): Uint8Array[] {
  return proof.map((p, j) => (j === i ? Uint8Array.from(p, (b, k) => (k === 0 ? b ^ mask : b)) : p));
}

describe('SDK Merkle verifiers: RFC 6962 reference vectors', function () {
  this.timeout(60_000); // the first test to load the SDK bundle builds it
  let sdk: Sdk;
  before(async () => {
    sdk = await loadBuiltSdk();
  });

  it('hashes the empty tree, a leaf and a node as RFC 6962 does', () => {
    expect(toHex(sdk.EMPTY_ROOT)).to.equal(toHex(ROOTS[0]!));
    expect(toHex(sdk.hashLeaf(LEAVES[0]!))).to.equal(toHex(ROOTS[1]!));
    expect(toHex(sdk.hashChildren(sdk.hashLeaf(LEAVES[0]!), sdk.hashLeaf(LEAVES[1]!)))).to.equal(
      toHex(ROOTS[2]!),
    );
  });

  for (const v of INCLUSION) {
    it(`verifies the inclusion of leaf ${v.leaf} in the tree of ${v.size}, and refuses each corruption`, () => {
      const index = v.leaf - 1;
      const leaf = sdk.hashLeaf(LEAVES[index]!);
      const root = ROOTS[v.size]!;
      const proof = v.proof.map(hex);
      expect(toHex(sdk.rootFromInclusionProof(index, v.size, leaf, proof)!)).to.equal(toHex(root));
      expect(sdk.verifyInclusion(index, v.size, leaf, proof, root)).to.equal(true);
      const probes: [string, number, number, Uint8Array, Uint8Array[], Uint8Array][] = [
        ['index − 1', index - 1, v.size, leaf, proof, root],
        ['index + 1', index + 1, v.size, leaf, proof, root],
        ['index ^ 2', index ^ 2, v.size, leaf, proof, root],
        ['size × 2', index, v.size * 2, leaf, proof, root],
        ['size / 2', index, Math.floor(v.size / 2), leaf, proof, root],
        ['wrong leaf', index, v.size, sdk.hashLeaf(new TextEncoder().encode('WrongLeaf')), proof, root],
        ['empty root', index, v.size, leaf, proof, ROOTS[0]!],
        ['random root', index, v.size, leaf, proof, SOME_HASH],
        ['trailing root', index, v.size, leaf, [...proof, root], root],
        ['preceding root', index, v.size, leaf, [root, ...proof], root],
        ...proof.map((_, i): [string, number, number, Uint8Array, Uint8Array[], Uint8Array] => [
          `proof[${i}] bit 3`,
          index,
          v.size,
          leaf,
          flipped(proof, i, 8),
          root,
        ]),
      ];
      if (proof.length > 0) probes.push(['removed component', index, v.size, leaf, proof.slice(0, -1), root]);
      if (proof.length > 1)
        probes.push([
          'inserted component',
          index,
          v.size,
          leaf,
          [proof[0]!, SOME_HASH, ...proof.slice(1)],
          root,
        ]);
      for (const [what, i, n, l, p, r] of probes)
        expect(sdk.verifyInclusion(i, n, l, p, r), what).to.equal(false);
    });
  }

  for (const v of CONSISTENCY) {
    it(`verifies the consistency of the trees of ${v.size1} and ${v.size2}, and refuses each corruption`, () => {
      const [r1, r2] = [ROOTS[v.size1]!, ROOTS[v.size2]!];
      const proof = v.proof.map(hex);
      expect(sdk.verifyConsistencyProof(v.size1, v.size2, r1, r2, proof)).to.equal(true);
      if (proof.length === 0) return;
      const probes: [string, number, number, Uint8Array, Uint8Array, Uint8Array[]][] = [
        ['size1 − 1', v.size1 - 1, v.size2, r1, r2, proof],
        ['size1 + 1', v.size1 + 1, v.size2, r1, r2, proof],
        ['size1 ^ 2', v.size1 ^ 2, v.size2, r1, r2, proof],
        ['size2 × 2', v.size1, v.size2 * 2, r1, r2, proof],
        ['size2 / 2', v.size1, Math.floor(v.size2 / 2), r1, r2, proof],
        ['wrong root1', v.size1, v.size2, SOME_HASH, r2, proof],
        ['wrong root2', v.size1, v.size2, r1, SOME_HASH, proof],
        ['swapped roots', v.size1, v.size2, r2, r1, proof],
        ['empty proof', v.size1, v.size2, r1, r2, []],
        ['trailing root1', v.size1, v.size2, r1, r2, [...proof, r1]],
        ['trailing root2', v.size1, v.size2, r1, r2, [...proof, r2]],
        ['preceding root1', v.size1, v.size2, r1, r2, [r1, ...proof]],
        ['preceding root2', v.size1, v.size2, r1, r2, [r2, ...proof]],
        ['preceding proof[0]', v.size1, v.size2, r1, r2, [proof[0]!, ...proof]],
        ['truncated proof', v.size1, v.size2, r1, r2, proof.slice(0, -1)],
        ...proof.map((_, i): [string, number, number, Uint8Array, Uint8Array, Uint8Array[]] => [
          `proof[${i}] bit 4`,
          v.size1,
          v.size2,
          r1,
          r2,
          flipped(proof, i, 16),
        ]),
      ];
      for (const [what, s1, s2, a, b, p] of probes)
        expect(sdk.verifyConsistencyProof(s1, s2, a, b, p), what).to.equal(false);
    });
  }

  it("verifies the server's proofs for every leaf, every size and every pair of sizes, up to the published roots", () => {
    const leaves = LEAVES.map((l) => leafHash(l));
    const src = memorySource(leaves);
    for (let n = 1; n <= 8; n += 1) {
      for (let m = 0; m < n; m += 1) {
        const path = inclusionProof(src, m, n);
        expect(toHex(sdk.rootFromInclusionProof(m, n, leaves[m]!, path)!), `leaf ${m} of ${n}`).to.equal(
          toHex(ROOTS[n]!),
        );
      }
      for (let m = 0; m <= n; m += 1)
        expect(
          sdk.verifyConsistencyProof(m, n, ROOTS[m]!, ROOTS[n]!, consistencyProof(src, m, n)),
          `${m}→${n}`,
        ).to.equal(true);
    }
  });

  it('decides the trivial cases as the reference suite does', () => {
    const [a, b] = [SOME_HASH, ROOTS[3]!];
    expect(sdk.verifyConsistencyProof(0, 0, a, a, []), '0→0 same root').to.equal(true);
    expect(sdk.verifyConsistencyProof(0, 1, a, b, []), '0→1').to.equal(true);
    expect(sdk.verifyConsistencyProof(1, 1, b, b, []), '1→1 same root').to.equal(true);
    expect(sdk.verifyConsistencyProof(1, 1, a, b, []), '1→1 other root').to.equal(false);
    expect(sdk.verifyConsistencyProof(1, 0, a, b, []), 'shrinks').to.equal(false);
    expect(sdk.verifyConsistencyProof(2, 1, a, b, []), 'shrinks').to.equal(false);
    expect(sdk.verifyConsistencyProof(1, 2, a, b, []), 'empty proof').to.equal(false);
    expect(
      sdk.verifyConsistencyProof(1, 1, ROOTS[0]!, ROOTS[0]!, [ROOTS[0]!]),
      'proof where none is due',
    ).to.equal(false);
    expect(
      sdk.verifyConsistencyProof(0, 1, ROOTS[0]!, ROOTS[0]!, [ROOTS[0]!]),
      'proof where none is due',
    ).to.equal(false);
    for (const [i, n] of [
      [0, 0],
      [1, 0],
      [2, 1],
    ] as const)
      expect(sdk.verifyInclusion(i, n, SOME_HASH, [], ROOTS[0]!), `index ${i} size ${n}`).to.equal(false);
  });
});
