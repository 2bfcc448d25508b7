/**
 * Time as a dependency. Engines and deciders never read the wall clock: they are handed `now`.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; tests and the deterministic demo seed use it. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | string) {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  set(at: Date | string): void {
    this.#ms = new Date(at).getTime();
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
}

/** ISO date (YYYY-MM-DD) of an instant, in UTC. */
export function isoDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}
