import type { Message } from '../chat/message.js';
import type { LLMRequest } from '../llm/llm-request.js';
import type { ToolCall } from '../llm/tool-call.js';
import type { ChatRuntime } from './chat-runtime.js';
import type { ChatterGenerator } from './chatter-run.js';
import type { ToolCallOutcome } from './run-tool-calls.js';
import type { UsableSet } from './usables.js';

interface ChatterBinding {
  streamId: string;
  runtime: ChatRuntime;
  /** Aborted when the host abandons or ends the run. */
  signal?: AbortSignal;
}

const NEVER_ABORTED = new AbortController().signal;

const bindings = new WeakMap<object, ChatterBinding>();

/**
 * Base of chatter components: the logic that runs a conversation in one stream. Decorate
 * the subclass with `@chatter(name)` and implement `execute()` as an async generator that
 * yields `Wait` / `Success` / `Failure` / `Stop` and is resumed with a `WaitResumeEvent`.
 * The host binds the chatter to its stream before calling `execute()`.
 */
export abstract class BaseChatter {
  /**
   * The run: an async generator yielding {@link ChatterResult}s; each `next(event)` resumes
   * it after a Wait with the {@link WaitResumeEvent} that woke it (undefined for other steps).
   */
  abstract execute(): ChatterGenerator;

  /** The stream this chatter runs in. */
  get streamId(): string {
    return this.#binding().streamId;
  }

  /**
   * Aborted when the host abandons this run (a step took longer than
   * `chat.step_timeout_seconds`, the stream loop closed) or the run has ended. Pass it to
   * `request.send({ signal })` and tool calls, and check it after slow work: a run the host
   * gave up on must not reply late.
   */
  get signal(): AbortSignal {
    return this.#binding().signal ?? NEVER_ABORTED;
  }

  /** The host's chat services. */
  get runtime(): ChatRuntime {
    return this.#binding().runtime;
  }

  /** The stream's unread messages, oldest first (reading does not flush them). */
  fetchUnreads(): Message[] {
    return this.runtime.streams.fetchUnreads(this.streamId);
  }

  /** Moves exactly these messages to history. */
  flushUnreads(messages: readonly Message[]): number {
    return this.runtime.streams.flushUnreads(this.streamId, messages);
  }

  /** A model request for `taskName` (models chosen in models.toml), tagged with this stream. */
  createRequest(taskName = 'actor', requestName = taskName): LLMRequest {
    return this.runtime.createRequest(this.streamId, taskName, requestName);
  }

  /** Declares every action and every tool offered in this stream on the request; returns them. */
  async injectUsables(request: LLMRequest): Promise<UsableSet> {
    const usables = await this.runtime.usablesFor(this.streamId);
    request.tools = usables.declarations();
    return usables;
  }

  /** Runs the model's calls in order (before/after_tool_call around each); results in call order. */
  runToolCall(calls: readonly ToolCall[], usables: UsableSet, signal: AbortSignal = this.signal): Promise<ToolCallOutcome[]> {
    return this.runtime.runToolCalls(this.streamId, calls, usables, signal);
  }

  #binding(): ChatterBinding {
    const binding = bindings.get(this);
    if (binding === undefined) throw new Error(`${this.constructor.name} is not bound to a stream yet: the host binds a chatter before execute()`);
    return binding;
  }
}

/** Host only: binds a chatter instance to its stream and the chat services. */
export function bindChatter(chatter: BaseChatter, binding: ChatterBinding): void {
  bindings.set(chatter, binding);
}
