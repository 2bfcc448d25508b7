/**
 * The demo dataset's only source of chance: sfc32 (Chris Doty-Humphrey's Small Fast Counting
 * generator, as in PractRand), seeded from SHA-256 of the seed and a purpose label. Every purpose
 * (`fork('P03')`, `fork('keys')`) gets its own stream, so adding a project or an observation to
 * one part of the plan never shifts the numbers drawn anywhere else. Only integer and basic
 * floating-point arithmetic is used, so the same seed draws the same numbers on every host.
 */
import { createHash } from 'node:crypto';

export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  private constructor(
    readonly seed: string,
    readonly label: string,
  ) {
    const digest = createHash('sha256').update(`plumbline-demo|${seed}|${label}`).digest();
    this.#a = digest.readUInt32LE(0);
    this.#b = digest.readUInt32LE(4);
    this.#c = digest.readUInt32LE(8);
    this.#d = digest.readUInt32LE(12);
    // sfc32's recommended warm-up: the first outputs of a fresh state are poorly mixed.
    for (let i = 0; i < 15; i += 1) this.uint32();
  }

  static of(seed: string): Rng {
    return new Rng(seed, 'root');
  }

  /** An independent stream for one purpose (same seed + label → same stream). */
  fork(label: string): Rng {
    return new Rng(this.seed, `${this.label}/${label}`);
  }

  uint32(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4_294_967_296;
  }

  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform real in [min, max). */
  real(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i -= 1) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** `size` bytes: the shape `generateApiKey` takes, so demo keys can be reproduced from the seed. */
  bytes(size: number): Uint8Array {
    const out = new Uint8Array(size);
    for (let i = 0; i < size; i += 1) out[i] = this.uint32() & 0xff;
    return out;
  }

  /** `length` characters drawn from `alphabet`. */
  chars(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i += 1) out += alphabet[this.int(0, alphabet.length - 1)]!;
    return out;
  }
}
