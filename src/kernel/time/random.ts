/** Where randomness comes from (bound as `TOKENS.Random`); probability gates read it. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
}

/** The real source, `Math.random`; the host's default `TOKENS.Random`. */
export const systemRandom: Random = { next: () => Math.random() };

/** A deterministic generator (mulberry32) for tests and reproducible runs. */
export class SeededRandom implements Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** The next float in [0, 1); the same seed gives the same sequence. */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let value = this.#state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  }
}

/** A source that returns the given values in turn (then repeats the last one). */
export class SequenceRandom implements Random {
  readonly #values: readonly number[];
  #index = 0;

  constructor(values: readonly number[]) {
    if (values.length === 0) throw new RangeError('SequenceRandom needs at least one value');
    this.#values = values;
  }

  /** The next given value, in turn; after the last one, the last one again. */
  next(): number {
    const value = this.#values[Math.min(this.#index, this.#values.length - 1)]!;
    this.#index += 1;
    return value;
  }
}
