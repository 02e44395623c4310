import { MoonglassError } from '../../kernel/errors/moonglass-error.js';

/** An adapter cannot be found, its manifest or config is unusable, or its process could not start. */
export class AdapterError extends MoonglassError {
  /** The adapter's name or signature, as the failing call named it. */
  readonly adapter: string;

  constructor(adapter: string, reason: string, options?: { cause?: unknown }) {
    super('MG_ADAPTER', `adapter "${adapter}": ${reason}`, options);
    this.adapter = adapter;
  }
}
