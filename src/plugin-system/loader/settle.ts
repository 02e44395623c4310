/** The outcome of a promise as a value, so that work started early can be awaited later without an unhandled rejection. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export function settle<T>(work: Promise<T>): Promise<Settled<T>> {
  return work.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}
