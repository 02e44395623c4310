import { MoonglassError } from '../../kernel/errors/moonglass-error.js';

/** The facts of a failed model request. */
export interface ModelRequestErrorDetails {
  /** The provider's name in `config/models.toml`, when the client knows it. */
  provider: string | undefined;
  /** The endpoint's base URL, e.g. `http://localhost:11434/v1`. */
  baseUrl: string;
  /** The HTTP status of the last attempt; `undefined` for network errors and timeouts. */
  status: number | undefined;
  /** How many attempts were made, the first one included. */
  attempts: number;
  /** True when the last failure was of a kind that is retried (429, 5xx, network, timeout). */
  retryable: boolean;
  /** What went wrong on the last attempt, already stripped of the API key. */
  reason: string;
  /** The underlying error (a network error, say), kept as the standard `cause`. */
  cause?: unknown;
}

/**
 * A call to a model endpoint failed: an HTTP error, a network error, a timeout, or a body
 * that is not a chat completion. The message never contains the API key.
 */
export class ModelRequestError extends MoonglassError {
  /** The provider's name in `config/models.toml`, when the client knows it. */
  readonly provider: string | undefined;
  /** The endpoint's base URL, e.g. `http://localhost:11434/v1`. */
  readonly baseUrl: string;
  /** The HTTP status of the last attempt; `undefined` for network errors and timeouts. */
  readonly status: number | undefined;
  /** How many attempts were made, the first one included. */
  readonly attempts: number;
  /** True when the last failure was of a kind that is retried (429, 5xx, network, timeout). */
  readonly retryable: boolean;
  /** What went wrong on the last attempt, without the API key. */
  readonly reason: string;

  constructor(details: ModelRequestErrorDetails) {
    const where = details.provider === undefined ? details.baseUrl : `provider "${details.provider}" (${details.baseUrl})`;
    const tries = details.attempts === 1 ? '1 attempt' : `${details.attempts} attempts`;
    super('MG_MODEL_REQUEST', `model request to ${where} failed after ${tries}: ${details.reason}`, { cause: details.cause });
    this.provider = details.provider;
    this.baseUrl = details.baseUrl;
    this.status = details.status;
    this.attempts = details.attempts;
    this.retryable = details.retryable;
    this.reason = details.reason;
  }
}
