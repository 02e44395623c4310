import { describeError } from '../kernel/errors/describe-error.js';
import { FALLBACK_TASK, type LlmService } from '../llm/llm-service.js';

/**
 * Why `taskName` (`vlm`, `video`) has no model that can see, or `undefined` when it has one.
 * Media needs models of the task's own: the offline demo model cannot see, and the `actor`
 * models a task falls back to may be text-only.
 */
export function mediaTaskProblem(llm: LlmService, taskName: string): string | undefined {
  if (llm.offline) return 'no model provider is configured, and the offline demo model cannot see';
  try {
    llm.modelsFor(taskName);
  } catch (error) {
    return `task ${taskName} has no usable model (${describeError(error)})`;
  }
  if (!llm.hasOwnModels(taskName)) return `task ${taskName} lists no models in config/models.toml (the ${FALLBACK_TASK} models it would fall back to may not see)`;
  return undefined;
}
