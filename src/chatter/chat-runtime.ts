import type { BotPersona } from '../chat/bot-accounts.js';
import type { BotConfig } from '../chat/bot-config.js';
import type { ActiveChatRule } from '../chat/rules/active-chat-rule.js';
import type { ChatSilence } from '../chat/silence/chat-silence.js';
import type { StreamApi } from '../chat/stream-api.js';
import type { EventBus } from '../kernel/event-bus/event-bus.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { ComponentRegistry } from '../kernel/registry/component-registry.js';
import type { Clock } from '../kernel/time/clock.js';
import type { Random } from '../kernel/time/random.js';
import type { LlmService } from '../llm/llm-service.js';
import type { PromptManager } from '../llm/prompt-manager.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { LLMRequest } from '../llm/llm-request.js';
import type { ToolCall } from '../llm/tool-call.js';
import type { ToolCallOutcome } from './run-tool-calls.js';
import type { UsableSet } from './usables.js';
import type { WaitResumeEvent } from './wait-resume-event.js';

/** What chatters work with: the host's chat-facing services in one place. */
export interface ChatRuntime {
  /** Reading and sending in streams: unread messages, history, replies ({@link StreamApi}). */
  readonly streams: StreamApi;
  /** Builds model requests for the tasks of `config/models.toml` ({@link LlmService}). */
  readonly llm: LlmService;
  /** Named prompt templates, rendered through `on_prompt_build` ({@link PromptManager}). */
  readonly prompts: PromptManager;
  /** The plugins' tools ({@link ToolRegistry}); `usablesFor` already offers them per stream. */
  readonly tools: ToolRegistry;
  /** Every registered component, by signature ({@link ComponentRegistry}). */
  readonly registry: ComponentRegistry;
  /** The host's event bus; publish here to reach this host's handlers. */
  readonly bus: EventBus;
  /** The host's clock; read it (not `Date.now`) so tests can drive time. */
  readonly clock: Clock;
  /** The host's random source; read it for probability gates so tests can fix the outcome. */
  readonly random: Random;
  /** The host's logger. */
  readonly logger: Logger;
  /** `bot.toml` as written; a conversation's persona is `personaOf(streamId)`. */
  readonly bot: BotConfig;
  /**
   * The persona of a stream's conversation: `bot.toml [bot]` with the settings of its
   * account's `[accounts."<self id>"]` table over it (nickname, aliases, personality, identity,
   * speaking_style). A stream with no account, an unknown stream, or an account without a
   * table: `[bot]` as it is.
   */
  personaOf(streamId: string): BotPersona;
  /** The persona of a bot account (see `personaOf`); null: `[bot]` as it is. */
  personaOfAccount(account: string | null): BotPersona;
  /**
   * The `bot.toml [[rules]]` entry that applies to the stream at `atMs` (epoch ms, default
   * now; local times in `[bot] timezone`): the first whose account, chat and hours match.
   * Undefined: none does (or the stream is unknown).
   */
  ruleFor(streamId: string, atMs?: number): ActiveChatRule | undefined;
  /** Why the stream is not answered at `atMs` (default now): muted, or a rule's quiet hours. Undefined: it is answered. */
  silenceOf(streamId: string, atMs?: number): ChatSilence | undefined;
  /** Tokens left today under the `models.toml` daily budget of `taskName` (0 when spent); undefined: the task has no budget. */
  budgetLeft(taskName: string): number | undefined;
  /** The capabilities plugins contribute to a stream (tools needing others are not offered). */
  capabilitiesFor(streamId: string): Promise<ReadonlySet<string>>;
  /** A model request for `taskName`, tagged with the stream (what `BaseChatter.createRequest` does). */
  createRequest(streamId: string, taskName: string, requestName?: string): LLMRequest;
  /** Every action and every tool offered in the stream now (capabilities applied). */
  usablesFor(streamId: string): Promise<UsableSet>;
  /** Runs calls in order with before/after_tool_call around each, logs them; results in call order. */
  runToolCalls(streamId: string, calls: readonly ToolCall[], usables: UsableSet, signal?: AbortSignal): Promise<ToolCallOutcome[]>;
  /** Keeps a finished tool or action call in the tool-call log. Never throws. */
  recordToolCall(streamId: string, outcome: ToolCallOutcome, startedAt: number, durationMs: number): void;
  /**
   * Calls a platform action through the connected adapter (OneBot: `get_msg`,
   * `get_forward_msg` …) and resolves to its data; rejects with the reason when no adapter is
   * connected, the adapter has no such actions, or the platform refused. With `account`, only
   * that account's connection (the `self_id` of the event being answered).
   */
  callPlatform(action: string, params?: Readonly<Record<string, unknown>>, account?: string | null): Promise<unknown>;
  /**
   * Hands an external resume (`sub_agent`, `internal_context`, a plugin's own source) to the
   * host's conversation of the stream: a run that waits is stepped with it at once (it wins
   * over the wait's own rules); a stream with no run starts one, which the event does not
   * reach (a chatter that wants it then keeps it itself, as NDFC's `chat_core.resume` does).
   */
  resume(streamId: string, event: WaitResumeEvent): void;
}
