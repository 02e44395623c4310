/** Why one HTTP attempt failed, and whether another attempt may help. */
export interface AttemptFailure {
  /** One line, without the API key. */
  reason: string;
  /** The HTTP status; `undefined` for network errors and timeouts. */
  status: number | undefined;
  /** 429, 5xx, network errors and timeouts are retried; everything else is not. */
  retryable: boolean;
  /** What the server asked for with `Retry-After`, in milliseconds. */
  retryAfterMs?: number;
  cause?: unknown;
}
