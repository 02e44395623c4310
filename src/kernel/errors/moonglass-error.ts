const MOONGLASS_ERROR_MARKER = Symbol.for('moonglass.error');

/** What a {@link MoonglassError} may carry besides its code and message. */
export interface MoonglassErrorOptions {
  /** The error that led to this one, kept as the standard `cause`. */
  cause?: unknown;
}

/**
 * Base of every error moonglass throws on purpose. `code` is stable and listed in
 * `ERROR_CODES`; the message says what was wrong, where, and how to fix it.
 *
 * Use `MoonglassError.isInstance(error)` rather than `instanceof`: a plugin can end up
 * with its own copy of the package, and the marker is shared through `Symbol.for`.
 */
export class MoonglassError extends Error {
  /** @internal Brand that `isInstance` checks, shared by every copy of the package through `Symbol.for`. */
  readonly [MOONGLASS_ERROR_MARKER] = true;
  /** The stable `MG_…` code, a key of {@link ERROR_CODES}; match on it rather than on the message. */
  readonly code: string;

  constructor(code: string, message: string, options: MoonglassErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
  }

  /** True for an error thrown by any copy of moonglass (use it rather than `instanceof`). */
  static isInstance(error: unknown): error is MoonglassError {
    return typeof error === 'object' && error !== null && MOONGLASS_ERROR_MARKER in error;
  }

  /** True when `error` is a moonglass error carrying this exact code. */
  static hasCode(error: unknown, code: string): error is MoonglassError {
    return MoonglassError.isInstance(error) && error.code === code;
  }
}
