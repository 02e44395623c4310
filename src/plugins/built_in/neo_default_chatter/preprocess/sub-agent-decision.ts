import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type ChatRuntime, type EventParams } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { NdfcPluginLike } from '../ndfc-plugin-like.js';

type Params = EventParams<typeof NdfcEvent.PREPROCESS>;

const VERDICT = /"?respond"?\s*[:=]\s*(true|false)/i;

/**
 * `:preprocess` at weight 50: decides for messages the probability gate let pass by.
 * With `enable_sub_agent_decision`, a light model call (task `sub_agent_task_name`) answers
 * `{"respond": true|false, "reason": "…"}`; a failing call lets the message through
 * (fail-open). Without it, the message is not answered now (the unreads accumulate). In a
 * chat whose `bot.toml [[rules]]` frequency is 0 it is not asked unless a message @s or
 * replies to the bot.
 * Always returns SUCCESS, having set proceed / reason / mutations.
 */
@eventHandler({ name: 'sub_agent_decision', subscribe: [NdfcEvent.PREPROCESS], weight: 50, timeout: 60 })
export class SubAgentDecisionHandler extends BaseEventHandler<typeof NdfcEvent.PREPROCESS> {
  /** Kept #private: another plugin that gets this component must not reach NDFC's config. */
  readonly #plugin: NdfcPluginLike;

  constructor(
    @inject(TOKENS.Plugin) plugin: NdfcPluginLike,
    @inject(TOKENS.ChatRuntime) private readonly runtime: ChatRuntime,
  ) {
    super();
    this.#plugin = plugin;
  }

  async execute(_event: typeof NdfcEvent.PREPROCESS, params: Params) {
    // The session's config (its plugin's values, NDFC's where that plugin defines none).
    const config = typeof params.config === 'object' && params.config !== null ? params.config : this.#plugin.config;
    if (!config.enable_sub_agent_decision) {
      return [EventDecision.SUCCESS, { ...params, proceed: false, reason: 'the probability gate declined', mutations: '' }] as const;
    }
    const rule = this.runtime.ruleFor(params.stream_id);
    if (rule?.frequency === 0 && !params.unreads.some((message) => message.extra.mentions_bot === true)) {
      return [EventDecision.SUCCESS, { ...params, proceed: false, reason: `the chat rule ${rule.name} sets frequency 0`, mutations: '' }] as const;
    }
    try {
      const request = this.runtime.createRequest(params.stream_id, config.sub_agent_task_name, 'sub_agent_decision');
      const recent = params.unreads.slice(-10).map((message) => `${message.senderName}：${message.processedPlainText}`).join('\n');
      request.addPayload({
        role: 'system',
        content: `你在判断「${this.runtime.personaOf(params.stream_id).nickname}」要不要回应群聊里的新消息。被提到、被 @、话题相关、情绪需要回应时回应；闲聊、@别人、话没说完、纯表情时不回应。只回答 JSON：{"respond": true|false, "reason": "不超过 50 字"}`,
      });
      request.addPayload({ role: 'user', content: `${params.history_text}\n新消息：\n${recent}` });
      const response = await request.send();
      const verdict = VERDICT.exec(response.message)?.[1];
      const proceed = verdict === undefined ? true : verdict.toLowerCase() === 'true';
      const reason = /"?reason"?\s*[:=]\s*"([^"]{0,50})/.exec(response.message)?.[1] ?? 'sub-agent decision';
      return [EventDecision.SUCCESS, { ...params, proceed, reason, mutations: '' }] as const;
    } catch (error) {
      this.runtime.logger.warn({ error: String(error) }, 'sub_agent_decision failed; letting the message through');
      return [EventDecision.SUCCESS, { ...params, proceed: true, reason: 'sub-agent unavailable (fail-open)', mutations: '' }] as const;
    }
  }
}
