import type { EventBus } from '../kernel/event-bus/event-bus.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Clock } from '../kernel/time/clock.js';
import type { ResolvedModel } from './resolved-model.js';

/** What an `LLMRequest` needs from its service to be sent. */
export interface LlmRequestContext {
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  /** The task's models, in fallback order (never empty). */
  models: readonly ResolvedModel[];
}
