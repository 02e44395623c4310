import { MoonglassError } from '../../kernel/errors/moonglass-error.js';

/**
 * A request names a task that has no usable models: the task is unknown or empty and the
 * `actor` task, its fallback, has none either, or the task lists a model that is not defined.
 */
export class LlmTaskError extends MoonglassError {
  /** The task the request named. */
  readonly taskName: string;
  /** Why the task cannot be used. */
  readonly reason: string;

  constructor(taskName: string, reason: string) {
    super('MG_LLM_TASK', `LLM task "${taskName}" cannot be used: ${reason}. Check [tasks] and [models] in config/models.toml.`);
    this.taskName = taskName;
    this.reason = reason;
  }
}
