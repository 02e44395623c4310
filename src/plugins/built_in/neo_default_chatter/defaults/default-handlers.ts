import type { ComponentClass } from 'moonglass';
import { BuildHistoryTextDefaultHandler } from './build_history_text.js';
import { BuildNegativeExtraDefaultHandler } from './build_negative_extra.js';
import { BuildResumePromptDefaultHandler } from './build_resume_prompt.js';
import { ComputeCooldownDefaultHandler } from './compute_cooldown.js';
import { ComputeStopWakeDefaultHandler } from './compute_stop_wake.js';
import { CreateRequestDefaultHandler } from './create_request.js';
import { DedupeToolCallDefaultHandler } from './dedupe_tool_call.js';
import { FetchUnreadsDefaultHandler } from './fetch_unreads.js';
import { FlushUnreadsDefaultHandler } from './flush_unreads.js';
import { FormatToolResultDefaultHandler } from './format_tool_result.js';
import { FormatUnreadLineDefaultHandler } from './format_unread_line.js';
import { InjectUnreadPayloadDefaultHandler } from './inject_unread_payload.js';
import { InjectUsablesDefaultHandler } from './inject_usables.js';
import { PickTriggerMessageDefaultHandler } from './pick_trigger_message.js';
import { RunToolCallDefaultHandler } from './run_tool_call.js';
import { SessionTransitionDefaultHandler } from './session_transition.js';

/**
 * NDFC's default handlers, `neo_default_chatter:event_handler:<seam>_default`, all at weight 0
 * so that every third-party handler runs first. One per NDFC event except `:preprocess`
 * (whose handlers are strategies, in `preprocess/`): the seed's "× 15" Tier II defaults plus
 * `session_transition_default`, which the seed describes ("仅日志记录") but leaves out of the
 * count; 16 in all. In the seed's pipeline order.
 */
export const DEFAULT_HANDLERS: readonly ComponentClass[] = [
  CreateRequestDefaultHandler,
  InjectUsablesDefaultHandler,
  FetchUnreadsDefaultHandler,
  FormatUnreadLineDefaultHandler,
  FlushUnreadsDefaultHandler,
  InjectUnreadPayloadDefaultHandler,
  BuildHistoryTextDefaultHandler,
  BuildNegativeExtraDefaultHandler,
  PickTriggerMessageDefaultHandler,
  BuildResumePromptDefaultHandler,
  RunToolCallDefaultHandler,
  DedupeToolCallDefaultHandler,
  FormatToolResultDefaultHandler,
  ComputeStopWakeDefaultHandler,
  ComputeCooldownDefaultHandler,
  SessionTransitionDefaultHandler,
];
