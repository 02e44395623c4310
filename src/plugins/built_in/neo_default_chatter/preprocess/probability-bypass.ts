import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type ChatRuntime, type EventParams } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { NdfcPluginLike } from '../ndfc-plugin-like.js';

type Params = EventParams<typeof NdfcEvent.PREPROCESS>;

/**
 * `:preprocess` at weight 100: lets a message straight through (STOP) when it is a private
 * chat, or when a chance draw wins: base + mention (@ or reply) or name/alias + per unread.
 * The chat's `bot.toml [[rules]]` frequency multiplies the chance unless a message @s or
 * replies to the bot. On a miss it passes the decision on (to the sub-agent at weight 50).
 */
@eventHandler({ name: 'probability_bypass', subscribe: [NdfcEvent.PREPROCESS], weight: 100 })
export class ProbabilityBypassHandler extends BaseEventHandler<typeof NdfcEvent.PREPROCESS> {
  /** Kept #private: another plugin that gets this component must not reach NDFC's config. */
  readonly #plugin: NdfcPluginLike;

  constructor(
    @inject(TOKENS.Plugin) plugin: NdfcPluginLike,
    @inject(TOKENS.ChatRuntime) private readonly runtime: ChatRuntime,
  ) {
    super();
    this.#plugin = plugin;
  }

  execute(_event: typeof NdfcEvent.PREPROCESS, params: Params) {
    try {
      if (params.chat_type === 'private') return [EventDecision.STOP, { ...params, proceed: true, reason: 'private chat' }] as const;
      const probability = this.#probability(params);
      if (this.runtime.random.next() < probability) {
        return [EventDecision.STOP, { ...params, proceed: true, reason: `probability gate passed (${probability.toFixed(2)})` }] as const;
      }
      return [EventDecision.PASS, params] as const;
    } catch (error) {
      this.runtime.logger.warn({ error: String(error) }, 'probability_bypass failed; passing the decision on');
      return [EventDecision.PASS, params] as const;
    }
  }

  #probability(params: Params): number {
    // The session's config (its plugin's values, NDFC's where that plugin defines none).
    const config = typeof params.config === 'object' && params.config !== null ? params.config : this.#plugin.config;
    // The names of the stream's own account (its persona).
    const persona = this.runtime.personaOf(params.stream_id);
    const names = [persona.nickname, ...persona.aliases].filter((name) => name !== '');
    const unreads = params.unreads;
    const mentioned = unreads.some((message) => message.extra.mentions_bot === true);
    const named = unreads.some((message) => names.some((name) => message.processedPlainText.includes(name)));
    let probability = config.probability_base + unreads.length * config.probability_per_unread;
    if (mentioned) probability += config.probability_mention;
    else if (named) probability += config.probability_name;
    const clamped = Math.min(1, Math.max(0, probability));
    return mentioned ? clamped : clamped * (this.runtime.ruleFor(params.stream_id)?.frequency ?? 1);
  }
}
