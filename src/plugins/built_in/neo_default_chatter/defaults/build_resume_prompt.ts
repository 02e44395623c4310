import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type HandlerResult, type Logger, type WaitResumeEvent } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { BuildResumePromptPayload } from '../events/ndfc-payloads.js';
import { passAfterFailure } from './handler-failure.js';

/** The `timer` branch: the wait the model asked for (pass_and_wait) is over. */
export function timerResumePrompt(event: WaitResumeEvent): string {
  return `等待 ${event.waitTime} 秒已经结束。请结合上下文决定接下来怎么做：继续说话、继续等待，或者结束对话。`;
}

/** The generic branch: any other source, with what it passed along. */
export function genericResumePrompt(source: string, event: WaitResumeEvent): string {
  const extra = Object.keys(event.extra).length > 0 ? `，附带信息：${JSON.stringify(event.extra)}` : '';
  return `收到来自「${source}」的恢复事件${extra}。请结合上下文决定接下来怎么做。`;
}

/**
 * The `proactive` branch (the built-in proactive_speech plugin): a quiet group, with the
 * reason as the plugin wrote it in `extra.prompt`; the model may speak or stay silent.
 */
export function proactiveResumePrompt(event: WaitResumeEvent): string {
  const reason = typeof event.extra['prompt'] === 'string' && event.extra['prompt'] !== '' ? event.extra['prompt'] : '群里已经安静了一段时间，你可以主动说点什么，也可以不说。';
  return `${reason}\n如果决定说话，就自然地开启一个话题；如果觉得没必要，就结束对话，不要发消息。`;
}

/**
 * Default of `:build_resume_prompt`, by `source`: `timer` → the timer prompt; `message` → `''`
 * (new messages arrive through the unread path, not twice); `proactive` → its reason; anything else → the generic prompt.
 */
@eventHandler({ name: 'build_resume_prompt_default', subscribe: [NdfcEvent.BUILD_RESUME_PROMPT], weight: 0 })
export class BuildResumePromptDefaultHandler extends BaseEventHandler<typeof NdfcEvent.BUILD_RESUME_PROMPT> {
  constructor(@inject(TOKENS.Logger) private readonly logger: Logger) {
    super();
  }

  execute(_event: typeof NdfcEvent.BUILD_RESUME_PROMPT, params: BuildResumePromptPayload): HandlerResult<BuildResumePromptPayload> {
    try {
      const { source, resume_event: event } = params;
      const prompt =
        source === 'message' ? '' : source === 'timer' ? timerResumePrompt(event) : source === 'proactive' ? proactiveResumePrompt(event) : genericResumePrompt(source, event);
      return [EventDecision.SUCCESS, { ...params, prompt }];
    } catch (error) {
      return passAfterFailure(this.logger, 'build_resume_prompt_default', params, error);
    }
  }
}
