/** Undoes one registration. Safe to call more than once; later calls do nothing. */
export type Disposer = () => void;

/** Wraps `dispose` so that only its first call runs. */
export function once(dispose: () => void): Disposer {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    dispose();
  };
}
