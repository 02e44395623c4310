import { MoonglassError } from '../../kernel/errors/moonglass-error.js';

/** Why one model of a task failed. */
export interface ModelFailure {
  /** The model's name in `config/models.toml`. */
  model: string;
  /** The model's provider name in `config/models.toml`. */
  provider: string;
  /** The failure's message (never containing an API key). */
  reason: string;
}

/** Every model of a task failed for one LLM request; `failures` holds each one, in the order tried. */
export class LlmRequestFailedError extends MoonglassError {
  /** The task whose models were tried. */
  readonly taskName: string;
  /** The request's name (NDFC's is `actor`). */
  readonly requestName: string;
  /** Each model's failure, in the order the models were tried. */
  readonly failures: readonly ModelFailure[];

  constructor(taskName: string, requestName: string, failures: readonly ModelFailure[], options: { cause?: unknown } = {}) {
    const lines = failures.map((failure) => `  - ${failure.model} (provider ${failure.provider}): ${failure.reason}`);
    super(
      'MG_LLM_REQUEST_FAILED',
      `LLM request "${requestName}" (task ${taskName}) failed on every model:\n${lines.join('\n')}`,
      options,
    );
    this.taskName = taskName;
    this.requestName = requestName;
    this.failures = failures;
  }
}
