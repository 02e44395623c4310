import { describeError } from '../kernel/errors/describe-error.js';
import { FALLBACK_TASK, type LlmService } from '../llm/llm-service.js';
import type { ModelsConfig } from '../llm/models-config.js';

/**
 * Why `taskName` (`vlm`, `video`) has no model that can see, or `undefined` when it has one.
 * Media needs models of the task's own: the offline demo model cannot see, and the `actor`
 * models a task falls back to may be text-only.
 *
 * With `models` (the validated models.toml) the task's own list is read directly. Without
 * it, LlmService shows only the resolved list, so a list equal to `actor`'s counts as the
 * fallback; a task that deliberately names exactly `actor`'s models is then unavailable.
 * (A `LlmService.hasOwnModels(task)` would remove this guess; see the media report.)
 */
export function mediaTaskProblem(llm: LlmService, taskName: string, models: ModelsConfig | undefined): string | undefined {
  if (llm.offline) return 'no model provider is configured, and the offline demo model cannot see';
  let resolved;
  try {
    resolved = llm.modelsFor(taskName);
  } catch (error) {
    return `task ${taskName} has no usable model (${describeError(error)})`;
  }
  const notListed = `task ${taskName} lists no models in config/models.toml (the ${FALLBACK_TASK} models it would fall back to may not see)`;
  if (models !== undefined) return (models.tasks[taskName]?.models.length ?? 0) > 0 ? undefined : notListed;
  let fallback;
  try {
    fallback = llm.modelsFor(FALLBACK_TASK);
  } catch {
    return undefined;
  }
  const same = resolved.length === fallback.length && resolved.every((model, index) => model.name === fallback[index]?.name);
  return same ? notListed : undefined;
}
