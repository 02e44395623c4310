import { inject, InvalidArgumentError, service, TOKENS, WaitResumeEvent, type ChatRuntime, type Logger } from 'moonglass';
import type { CreateSessionOptions, NdfcPluginHandle, NeoChatterService } from './ndfc-api.js';
import type { NdfcPluginLike } from './ndfc-plugin-like.js';
import { NdfcConversationSession } from './session/conversation-session.js';
import { resolveSessionConfig } from './session/session-config.js';

/** `service.plugin`: NDFC, as a handle that carries no config. */
const NDFC_PLUGIN_HANDLE: NdfcPluginHandle = Object.freeze({ id: 'neo_default_chatter' });

/** Resume sources the host makes itself; a plugin delivering one would be read as a message or an ended wait. */
const HOST_SOURCES: ReadonlySet<string> = new Set(['message', 'timer']);

/**
 * `neo_default_chatter:service:chat_core`: a factory of conversation sessions. It keeps no
 * session state: every `getService` gives a new one, and every session serves one run of one
 * stream.
 */
@service('chat_core', { description: 'Creates NDFC conversation sessions and delivers resumes to the host’s conversations.' })
export class ChatCoreService implements NeoChatterService {
  /** NDFC itself; #private, so a plugin that gets this service cannot reach NDFC's config. */
  readonly #plugin: NdfcPluginLike;
  readonly #logger: Logger;

  constructor(
    @inject(TOKENS.Plugin) plugin: NdfcPluginLike,
    @inject(TOKENS.ChatRuntime) private readonly runtime: ChatRuntime,
    @inject(TOKENS.Logger) logger: Logger,
  ) {
    this.#plugin = plugin;
    this.#logger = logger;
  }

  get plugin(): NdfcPluginHandle {
    return NDFC_PLUGIN_HANDLE;
  }

  createSession(options: CreateSessionOptions): NdfcConversationSession {
    const owner = options.plugin;
    const source = owner !== undefined && owner !== NDFC_PLUGIN_HANDLE && 'config' in owner ? owner : undefined;
    const config = resolveSessionConfig(this.#plugin.config, source);
    return new NdfcConversationSession(options.streamId, config, this.runtime, { signal: options.signal, resumes: this.#plugin.state.resumes });
  }

  resume(streamId: string, event: WaitResumeEvent): void {
    const source: unknown = (event as { source?: unknown } | null | undefined)?.source;
    if (typeof source !== 'string' || source === '') {
      throw new InvalidArgumentError('chat_core.resume', 'event.source', source, 'a non-empty string (new WaitResumeEvent("sub_agent", { extra }))');
    }
    if (HOST_SOURCES.has(source)) {
      throw new InvalidArgumentError('chat_core.resume', 'event.source', source, 'sub_agent, internal_context or a source of your own: the host makes message and timer resumes itself');
    }
    if (typeof streamId !== 'string' || this.runtime.streams.activateStream(streamId) === undefined) {
      throw new InvalidArgumentError('chat_core.resume', 'streamId', streamId, 'the id of a stream the host knows');
    }
    // A look-alike from another copy of the package becomes a real event, with `extra` and `waitTime` set.
    const resume = event instanceof WaitResumeEvent ? event : lookAlike(source, event);
    const dropped = this.#plugin.state.resumes.add(streamId, resume);
    if (dropped !== undefined) {
      this.#logger.warn({ stream_id: streamId, source: dropped.source }, `a resume from ${dropped.source} was dropped: the stream holds too many resumes no session has taken`);
    }
    this.runtime.resume(streamId, resume);
  }
}

function lookAlike(source: string, event: Partial<WaitResumeEvent>): WaitResumeEvent {
  const extra = typeof event.extra === 'object' && event.extra !== null ? event.extra : {};
  const waitTime = typeof event.waitTime === 'number' ? event.waitTime : 0;
  const unreadCount = typeof event.unreadCount === 'number' ? event.unreadCount : 0;
  return new WaitResumeEvent(source, { extra, waitTime, unreadCount });
}
