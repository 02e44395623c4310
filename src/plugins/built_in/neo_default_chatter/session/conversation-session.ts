import {
  Failure,
  Stop,
  Wait,
  resolveTimeZone,
  type ChatRuntime,
  type ChatterGenerator,
  type ChatterResult,
  type LLMRequest,
  type LLMResponse,
  type Message,
  type ChatStream,
  type ToolCall,
  type UsableSet,
  type WaitResumeEvent,
} from 'moonglass';
import type { ConversationSession } from '../ndfc-api.js';
import { NdfcPublisher } from '../events/ndfc-publisher.js';
import { platformDisplayName } from '../defaults/platform-display-name.js';
import { formatPromptNow } from '../defaults/prompt-time.js';
import { SYSTEM_TEMPLATE_NAME, USER_TEMPLATE_NAME } from './prompt-templates.js';
import { describeArguments } from './describe-arguments.js';
import type { PendingResumes } from './pending-resumes.js';
import { Phase, type SessionPhase } from './session-phase.js';
import type { NeoChatterConfig } from './session-config.js';

const CONTROL_CALLS = new Set(['pass_and_wait', 'stop_conversation']);

/** Payloads kept in a session's conversation besides the system prompt; older turns are dropped whole. */
export const MAX_CONVERSATION_PAYLOADS = 60;

/**
 * Drops the oldest turns (each from a user payload up to the next one) until the
 * conversation fits, so that a session that lives for days neither grows without end nor
 * leaves a tool result without the call it answers.
 */
export function trimConversation(request: LLMRequest, maxPayloads: number): void {
  const payloads = request.payloads;
  // Counted once, then kept up to date: every turn of a long session trims.
  let count = 0;
  for (const payload of payloads) if (payload.role !== 'system') count += 1;
  while (count > maxPayloads) {
    const first = payloads.findIndex((payload) => payload.role !== 'system');
    let end = first + 1;
    while (end < payloads.length && payloads[end]!.role !== 'user') end += 1;
    if (end >= payloads.length) return; // a single turn: keep it
    for (let index = first; index < end; index += 1) if (payloads[index]!.role !== 'system') count -= 1;
    payloads.splice(first, end - first);
  }
}

/** What a session is built with besides its stream, config and runtime. */
export interface SessionOptions {
  /** The host's run signal (`BaseChatter.signal`); once aborted the run acts no more. */
  signal?: AbortSignal | undefined;
  /** The resumes `chat_core.resume` keeps for the stream's conversation (NDFC's plugin state). */
  resumes?: PendingResumes | undefined;
}

/** Adds `text` after the result `call` has in the conversation, or as its result when it has none. */
function appendToToolResult(request: LLMRequest, response: LLMResponse, call: ToolCall, text: string): void {
  const payload = request.payloads.findLast((entry) => entry.role === 'tool' && entry.tool_call_id === call.id);
  if (payload?.role === 'tool') payload.content = payload.content === '' ? text : `${payload.content}\n${text}`;
  else response.addToolResult(call.id, call.name, text);
}

/**
 * One run of NDFC in one stream: the four-phase state machine of the seed,
 * WAIT_USER -> MODEL_TURN -> TOOL_EXEC -> (FOLLOW_UP -> TOOL_EXEC ...), each seam a published
 * event. Holds the state of this run only; never reused for another run or stream. Driven
 * by `execute()` or directly by `for await`.
 */
export class NdfcConversationSession implements ConversationSession {
  readonly streamId: string;
  readonly #runtime: ChatRuntime;
  readonly #config: NeoChatterConfig;
  readonly #signal: AbortSignal | undefined;
  readonly #resumes: PendingResumes | undefined;
  #phase: SessionPhase = Phase.WAIT_USER;
  #started = false;
  /** Resumes given by `resume(event)`, for the next steps that get none from `next()`. */
  readonly #queued: WaitResumeEvent[] = [];
  /** The unread messages the current turn's prompt holds (`[]` in a turn a resume started). */
  #turnUnreads: Message[] = [];
  /** The message being answered: the newest message of the last turn that read unreads. */
  #currentMessage: Message | null = null;
  /** Replies of this stream the host dropped undelivered that the model has been told of. */
  readonly #toldUndelivered = new Set<string>();

  constructor(streamId: string, config: NeoChatterConfig, runtime: ChatRuntime, options: SessionOptions = {}) {
    this.streamId = streamId;
    this.#config = config;
    this.#runtime = runtime;
    this.#signal = options.signal;
    this.#resumes = options.resumes;
  }

  get phase(): SessionPhase {
    return this.#phase;
  }

  /** The run: yields Wait / Success / Failure / Stop, resumed by `next(event)`. Once per session. */
  execute(): ChatterGenerator {
    if (this.#started) {
      throw new Error(`the NDFC session of stream ${this.streamId} has run already: create a new session for each run (chat_core.createSession)`);
    }
    this.#started = true;
    return this.#run();
  }

  [Symbol.asyncIterator](): ChatterGenerator {
    return this.execute();
  }

  resume(event: WaitResumeEvent): void {
    this.#queued.push(event);
  }

  /**
   * The resume this step goes on with: `given` (from `next()`), else one queued by
   * `resume()`, else one `chat_core.resume` kept for the stream; an event taken once already
   * (the loop may deliver one a session took from the store) is not taken again.
   */
  #takeResume(given: WaitResumeEvent | undefined): WaitResumeEvent | undefined {
    if (given === undefined && this.#queued.length > 0) return this.#queued.shift();
    if (this.#resumes === undefined) return given;
    return this.#resumes.take(this.streamId, given);
  }

  #hasQueuedResume(): boolean {
    return this.#queued.length > 0 || (this.#resumes?.has(this.streamId) ?? false);
  }

  async *#run(): ChatterGenerator {
    const { streamId } = this;
    const runtime = this.#runtime;
    const config = this.#config;
    const chatStream = runtime.streams.activateStream(streamId);
    if (chatStream === undefined) {
      yield new Failure(`cannot activate stream ${streamId}`);
      return;
    }
    // 默认: defaults/create_request.ts
    const request = await NdfcPublisher.createRequest(streamId, config.actor_task_name, '', 'actor');
    if (request === null || request === undefined) {
      yield new Failure('no model request could be created');
      return;
    }
    /**
     * The signatures of this user turn's calls (`:dedupe_tool_call`'s shared set): the rule
     * "no repeated call" holds within a model round and its follow-ups, so each new turn (new
     * unreads, or a resume prompt) starts with an empty set and a later "好的" is sent again.
     */
    let seenSignatures = new Set<string>();
    let resume: WaitResumeEvent | undefined;
    let historyIncluded = false;
    let usables: UsableSet | undefined;
    let response: LLMResponse | undefined;
    /** The unreads this turn's prompt holds, marked read when the model has answered. */
    let toFlush: Message[] | undefined;
    /** Follow-up requests since the turn began: a model that calls tools forever is stopped. */
    let followUps = 0;

    for (;;) {
      switch (this.#phase) {
        case Phase.WAIT_USER: {
          const taken = this.#takeResume(resume);
          resume = undefined;
          /** A `message` resume's prompt (the default's is empty) goes with the messages it is about. */
          let messageResumeText = '';
          if (taken !== undefined) {
            // 默认: defaults/build_resume_prompt.ts
            const prompt = await NdfcPublisher.buildResumePrompt(streamId, taken);
            if (taken.source === 'message') {
              messageResumeText = prompt;
            } else if (prompt !== '') {
              request.addPayload({ role: 'user', content: prompt });
              seenSignatures = new Set<string>();
              this.#turnUnreads = [];
              await this.#transition(Phase.MODEL_TURN, undefined);
              break;
            }
          }
          // 默认: defaults/fetch_unreads.ts
          const unreads = await NdfcPublisher.fetchUnreads(streamId);
          if (unreads.length === 0) {
            if (this.#hasQueuedResume()) break; // go on with the next resume instead of waiting
            resume = yield* this.#yield(new Wait());
            break;
          }
          // 默认: defaults/build_history_text.ts
          const historyLines = historyIncluded ? [] : await NdfcPublisher.buildHistoryText(streamId, chatStream);
          const decision = await NdfcPublisher.preprocess({
            stream_id: streamId,
            chat_type: chatStream.chatType,
            chat_stream: chatStream,
            unreads: [...unreads],
            history_text: historyLines.join('\n'),
            config,
          });
          if (!decision.proceed) {
            if (decision.force_stop_minutes !== null && decision.force_stop_minutes !== undefined) {
              // 默认: defaults/flush_unreads.ts
              await NdfcPublisher.flushUnreads(streamId, unreads);
              yield* this.#stop(decision.force_stop_minutes, chatStream.chatType);
              return;
            }
            if (this.#hasQueuedResume()) break; // a resume waits to be answered; the unreads accumulate
            resume = yield* this.#yield(new Wait()); // not flushed: the unreads accumulate
            break;
          }
          trimConversation(request, MAX_CONVERSATION_PAYLOADS);
          const extra = [decision.extra, messageResumeText].filter((part) => part !== '').join('\n');
          await this.#addUserPrompt(request, unreads, historyIncluded ? [] : historyLines, extra);
          historyIncluded = true;
          seenSignatures = new Set<string>();
          this.#turnUnreads = unreads;
          this.#currentMessage = unreads.at(-1) ?? this.#currentMessage;
          // Read only once the model has answered: a failed request leaves them unread,
          // so the next run (the driver retries a failed one) answers them.
          toFlush = unreads;
          await this.#transition(Phase.MODEL_TURN, undefined);
          break;
        }
        case Phase.MODEL_TURN:
        case Phase.FOLLOW_UP: {
          // 默认: defaults/inject_usables.ts
          usables = (await NdfcPublisher.injectUsables(streamId, request)) ?? (await this.#runtime.usablesFor(streamId));
          const signal = this.#signal;
          const sendOptions = signal === undefined ? {} : { signal };
          try {
            response = this.#phase === Phase.FOLLOW_UP && response !== undefined ? await response.send(sendOptions) : await request.send(sendOptions);
          } catch (error) {
            if (signal?.aborted === true) return; // the host gave up on this run; nobody reads a result
            yield new Failure(`the model request failed: ${error instanceof Error ? error.message : String(error)}`, error);
            return;
          }
          // An answer that came after the host gave up on the run: its unreads stay unread
          // for the run that replaced it, and nothing is sent twice.
          if (signal?.aborted === true) return;
          if (toFlush !== undefined) {
            // 默认: defaults/flush_unreads.ts
            await NdfcPublisher.flushUnreads(streamId, toFlush);
            toFlush = undefined;
          }
          await this.#transition(Phase.TOOL_EXEC, undefined);
          break;
        }
        case Phase.TOOL_EXEC: {
          const outcome = yield* this.#toolExec(request, response!, usables!, seenSignatures, chatStream);
          if (outcome === 'ended') return;
          if (outcome === 'follow_up') {
            followUps += 1;
            if (followUps > this.#config.max_follow_up_rounds) {
              this.#runtime.logger.warn(
                { stream_id: streamId, follow_ups: followUps - 1, limit: this.#config.max_follow_up_rounds },
                `the model kept calling tools after ${followUps - 1} follow-up round(s); the turn ends here and waits for a new message (NDFC config max_follow_up_rounds)`,
              );
              followUps = 0;
              resume = yield* this.#waitUnlessResumeQueued(new Wait(undefined, { step_scope: 'actor_round', used_tools: [] }));
              break;
            }
            await this.#transition(Phase.FOLLOW_UP, undefined);
            break;
          }
          followUps = 0;
          resume = outcome;
          break;
        }
        default: {
          const unknown: never = this.#phase;
          throw new Error(`unknown phase ${String(unknown)}`);
        }
      }
    }
  }

  /** Runs the model's calls; yields Wait or Stop when they say so. */
  async *#toolExec(
    request: LLMRequest,
    response: LLMResponse,
    usables: UsableSet,
    seenSignatures: Set<string>,
    chatStream: ChatStream,
  ): AsyncGenerator<ChatterResult, WaitResumeEvent | undefined | 'follow_up' | 'ended', WaitResumeEvent | undefined> {
    const { streamId } = this;
    const chatType = chatStream.chatType;
    const calls = response.toolCalls;
    const usedTools = [...new Set(calls.map((call) => call.name))].sort();
    if (calls.length === 0) {
      // Plain text: the model's monologue. NDFC waits for the next message.
      if (response.message !== '') request.addPayload({ role: 'assistant', content: response.message });
      return yield* this.#waitUnlessResumeQueued(new Wait(undefined, { step_scope: 'actor_round', used_tools: usedTools }));
    }
    const fresh: ToolCall[] = [];
    let pass: ToolCall | undefined;
    let stop: ToolCall | undefined;
    for (const call of calls) {
      // 默认: defaults/dedupe_tool_call.ts
      if (await NdfcPublisher.dedupeToolCall(streamId, call, seenSignatures)) {
        this.#runtime.logger.debug(
          { stream_id: streamId, tool: call.name, args: describeArguments(call.args) },
          `skipped a duplicate call of ${call.name} in this turn: ${describeArguments(call.args)}`,
        );
        // 默认: defaults/format_tool_result.ts
        response.addToolResult(call.id, call.name, await NdfcPublisher.formatToolResult(streamId, call.name, 'duplicate', call.args));
        continue;
      }
      if (call.name === 'pass_and_wait') pass ??= call;
      else if (call.name === 'stop_conversation') stop ??= call;
      if (!CONTROL_CALLS.has(call.name)) fresh.push(call);
    }
    let needsFollowUp = false;
    if (fresh.length > 0) {
      // The turn's unreads, not the stream's: they were marked read once the model answered.
      // 默认: defaults/pick_trigger_message.ts
      const trigger = await NdfcPublisher.pickTriggerMessage(streamId, chatStream, this.#turnUnreads, this.#currentMessage, chatStream.history);
      // 默认: defaults/run_tool_call.ts
      const results = await NdfcPublisher.runToolCall(streamId, fresh, response, usables, trigger);
      needsFollowUp = results.some(([, followUp]) => followUp);
      for (const call of fresh) {
        // run_tool_call wrote the real result; a handler's text for a `normal` call is added after it.
        // 默认: defaults/format_tool_result.ts
        const text = await NdfcPublisher.formatToolResult(streamId, call.name, 'normal', call.args);
        if (text !== '') appendToToolResult(request, response, call, text);
      }
    }
    for (const control of [pass, stop]) {
      if (control === undefined) continue;
      const kind = control === pass ? 'pass' : 'stop';
      // 默认: defaults/format_tool_result.ts
      response.addToolResult(control.id, control.name, await NdfcPublisher.formatToolResult(streamId, control.name, kind, control.args));
    }
    const stepData = { step_scope: 'actor_round', used_tools: usedTools };
    if (stop !== undefined) {
      const minutes = typeof stop.args['minutes'] === 'number' ? stop.args['minutes'] : this.#config.default_stop_minutes;
      yield* this.#stop(minutes, chatType, stepData);
      return 'ended';
    }
    if (pass !== undefined) {
      // New messages arrived meanwhile: skip the wait and read them now.
      if (this.#runtime.streams.fetchUnreads(streamId).length > 0) {
        await this.#transition(Phase.WAIT_USER, undefined);
        return undefined;
      }
      const seconds = typeof pass.args['seconds'] === 'number' ? pass.args['seconds'] : undefined;
      return yield* this.#waitUnlessResumeQueued(new Wait(seconds, stepData));
    }
    if (needsFollowUp) return 'follow_up';
    if (this.#config.enable_action_suspend) return yield* this.#waitUnlessResumeQueued(new Wait(undefined, stepData));
    return 'follow_up';
  }

  /**
   * Yields `wait` and returns its resume, unless a resume is queued already (two resumes
   * reached the loop as one, or one came while this turn ran): then back to WAIT_USER at once.
   */
  async *#waitUnlessResumeQueued(wait: ChatterResult): AsyncGenerator<ChatterResult, WaitResumeEvent | undefined, WaitResumeEvent | undefined> {
    if (!this.#hasQueuedResume()) return yield* this.#yield(wait, Phase.WAIT_USER);
    await this.#transition(Phase.WAIT_USER, undefined);
    return undefined;
  }

  async *#stop(minutes: number, chatType: 'private' | 'group', stepData: Record<string, unknown> = {}): AsyncGenerator<ChatterResult, void, WaitResumeEvent | undefined> {
    // 默认: defaults/compute_cooldown.ts
    const cooldownSeconds = await NdfcPublisher.computeCooldown(this.streamId, minutes, this.#config);
    // 默认: defaults/compute_stop_wake.ts
    const probability = await NdfcPublisher.computeStopWake(this.streamId, this.#config, chatType);
    const result = new Stop(cooldownSeconds, { directMessageWakeEnabled: probability > 0, directMessageWakeProbability: probability, stepData });
    await this.#transition(Phase.WAIT_USER, result);
    yield result;
  }

  /** Yields a result (after publishing the transition) and returns the resume event. */
  async *#yield(result: ChatterResult, to: SessionPhase = Phase.WAIT_USER): AsyncGenerator<ChatterResult, WaitResumeEvent | undefined, WaitResumeEvent | undefined> {
    await this.#transition(to, result);
    return yield result;
  }

  async #addUserPrompt(request: LLMRequest, unreads: readonly Message[], historyLines: readonly string[], extra: string): Promise<void> {
    const { streamId } = this;
    const runtime = this.#runtime;
    if (!request.payloads.some((payload) => payload.role === 'system')) {
      // The persona of the stream's own account (bot.toml [accounts."<id>"] over [bot]).
      const bot = runtime.personaOf(streamId);
      const stream = runtime.streams.getStream(streamId);
      // 默认: defaults/build_negative_extra.ts
      const fragments = await NdfcPublisher.buildNegativeExtra(streamId, this.#config);
      const system = await runtime.prompts.build(SYSTEM_TEMPLATE_NAME, {
        nickname: bot.nickname,
        aliases: bot.aliases.length > 0 ? `（也叫${bot.aliases.join('、')}）` : '',
        identity: bot.identity,
        personality: bot.personality,
        speaking_style: bot.speaking_style,
        platform: platformDisplayName(stream?.platform ?? ''),
        chat_kind: stream?.chatType === 'group' ? '群聊' : '私聊',
        negative_behaviors: fragments.join('\n'),
        extra_constraints: '',
      });
      request.payloads.unshift({ role: 'system', content: system });
    }
    const lines: string[] = [];
    // 默认: defaults/format_unread_line.ts
    for (const message of unreads) lines.push(await NdfcPublisher.formatUnreadLine(streamId, message));
    const undelivered = this.#undeliveredNotice(historyLines.length > 0);
    const user = await runtime.prompts.build(USER_TEMPLATE_NAME, {
      history: historyLines.length > 0 ? `<history>\n${historyLines.join('\n')}\n</history>\n` : '',
      unreads: lines.join('\n'),
      now: formatPromptNow(runtime.clock.now(), resolveTimeZone(runtime.bot.bot.timezone)),
      extra: [extra, undelivered].filter((part) => part !== '').join('\n'),
    });
    // 默认: defaults/inject_unread_payload.ts
    await NdfcPublisher.injectUnreadPayload(streamId, request, user, [...unreads], this.#config.native_multimodal);
  }

  /**
   * One line per reply the host dropped undelivered (past its send deadline, or refused by
   * the platform) since the model last heard of it, so it knows the other side never saw
   * it. A turn that carries the history (where such replies read `（未送达）…`) only notes them.
   */
  #undeliveredNotice(historyShown: boolean): string {
    const history = this.#runtime.streams.getStream(this.streamId)?.history ?? [];
    const lines: string[] = [];
    for (const message of history) {
      if (message.direction !== 'outbound' || message.extra['undelivered'] !== true || this.#toldUndelivered.has(message.messageId)) continue;
      this.#toldUndelivered.add(message.messageId);
      const text = message.content.length > 40 ? `${message.content.slice(0, 40)}…` : message.content;
      if (!historyShown) lines.push(`你之前发的「${text}」没有送达（连接中断），对方没有看到。`);
    }
    return lines.join('\n');
  }

  async #transition(to: SessionPhase, turnResult: ChatterResult | undefined): Promise<void> {
    const from = this.#phase;
    this.#phase = to;
    // 默认: defaults/session_transition.ts
    await NdfcPublisher.sessionTransition(this.streamId, from, to, turnResult ?? null);
  }
}
