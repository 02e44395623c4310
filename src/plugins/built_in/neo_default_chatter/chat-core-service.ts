import { inject, service, TOKENS, type ChatRuntime } from 'moonglass';
import type { NdfcPluginLike } from './ndfc-plugin-like.js';
import { ConversationSession } from './session/conversation-session.js';

export interface CreateSessionOptions {
  streamId: string;
  /** The caller's plugin; the session reads NeoChatterConfig from it. Default: NDFC itself. */
  plugin?: NdfcPluginLike | undefined;
  /** The run's signal (`BaseChatter.signal`): once the host aborts it the session stops acting. */
  signal?: AbortSignal | undefined;
}

/**
 * `neo_default_chatter:service:chat_core`: a factory of conversation sessions. It keeps no
 * session state: every `getService` gives a new one, and every session serves one run of one
 * stream.
 */
@service('chat_core', { description: 'Creates NDFC conversation sessions.' })
export class NeoChatterService {
  /** NDFC itself; #private, so a plugin that gets this service cannot reach NDFC's config. */
  readonly #plugin: NdfcPluginLike;

  constructor(
    @inject(TOKENS.Plugin) plugin: NdfcPluginLike,
    @inject(TOKENS.ChatRuntime) private readonly runtime: ChatRuntime,
  ) {
    this.#plugin = plugin;
  }

  createSession(options: CreateSessionOptions): ConversationSession {
    const owner = options.plugin ?? this.#plugin;
    return new ConversationSession(options.streamId, owner.config, this.runtime, options.signal);
  }
}
