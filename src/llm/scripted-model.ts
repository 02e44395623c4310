import { InvalidArgumentError } from '../kernel/errors/invalid-argument-error.js';
import { type Clock, systemClock } from '../kernel/time/clock.js';
import type { ModelCall, ModelClient, ModelReply } from './model-client.js';
import { demoReply } from './scripted/demo-reply.js';

/** A scripted reply: any field left out takes its empty value (`finishReason` follows the tool calls). */
export type ScriptedReply = Partial<ModelReply>;

/** What a `ScriptedModel` answers: one reply, a list consumed in order (then the last repeats), or a function of the call. */
export type ModelScript = ScriptedReply | readonly ScriptedReply[] | ((call: ModelCall) => ScriptedReply | Promise<ScriptedReply>);

export interface ScriptedModelOptions {
  /** Milliseconds to wait before each reply (default 0), on `clock`. */
  delayMs?: number;
  /** The clock the delay runs on (default the system clock; tests pass a `ManualClock`). */
  clock?: Clock;
  /**
   * How many of the newest calls `calls` keeps (default `MAX_RECORDED_CALLS`). The host's
   * own offline demo model keeps none: a copy of every prompt is work nobody reads.
   */
  recordCalls?: number;
}

function complete(reply: ScriptedReply): ModelReply {
  const toolCalls = reply.toolCalls ?? [];
  return {
    message: reply.message ?? '',
    reasoning: reply.reasoning ?? '',
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    usage: reply.usage,
  };
}

/**
 * A model that needs no network: the offline demo model of `npm start` and the test double.
 *
 * Without a script it follows this rule. Let T be the newest message in the last payload
 * that is not a system payload, when that payload is a user payload (text parts of a
 * multimodal message joined by newlines, trimmed). A chatter's prompt carries history too:
 * T is the last message of its `<new_messages>` block with the `【time】name：` prefix
 * dropped, or, without such a block, the text without its `<history>` blocks; so a `!tool`
 * command in the history (after a restart, say) is never run again.
 *
 * - (b) checked first: when that payload is a tool result or an assistant payload, or T is
 *   empty, it answers with no message and no tool calls, except that it calls
 *   `pass_and_wait` with `{}` when that tool is declared. (Checked before (a) so that a
 *   `!tool` command is not repeated after its result comes back.)
 * - (a) when T contains `!<tool> <json object>` for a declared tool, e.g.
 *   `!roll_dice {"sides": 6}`, it calls that tool with those arguments (the first such
 *   command wins; commands for undeclared tools or with bad JSON are skipped).
 * - (c) otherwise, when `send_text` is declared, it calls `send_text` with
 *   `{ content: '（演示模型）收到：' + L }`, L the last line of T cut to 200 characters; without `send_text`
 *   it answers with that text as the message.
 *
 * Tool call ids are `scripted_<n>_<tool>`, n counting the calls this model received.
 *
 * With a script (`new ScriptedModel(replies)`) it answers from the script instead: one
 * reply, a list consumed in order whose last reply then repeats, or a function of the call.
 * In both modes calls are recorded in `calls`, copied as they were received: the newest
 * `recordCalls` (default `MAX_RECORDED_CALLS`), so that a long-running bot does not grow
 * without end.
 */
export class ScriptedModel implements ModelClient {
  /** How many calls `calls` keeps (the newest). */
  static readonly MAX_RECORDED_CALLS = 1_000;
  /** The calls received, oldest first (deep copies, so later edits to the request do not show). */
  readonly calls: ModelCall[] = [];
  #callCount = 0;
  readonly #script: ModelScript | undefined;
  readonly #delayMs: number;
  readonly #clock: Clock;
  readonly #recordCalls: number;
  #next = 0;

  constructor(script?: ModelScript, options: ScriptedModelOptions = {}) {
    if (Array.isArray(script) && script.length === 0) {
      throw new InvalidArgumentError('ScriptedModel', 'script', '[]', 'a reply, a non-empty list of replies or a function');
    }
    this.#script = script;
    this.#delayMs = options.delayMs ?? 0;
    this.#clock = options.clock ?? systemClock;
    this.#recordCalls = options.recordCalls ?? ScriptedModel.MAX_RECORDED_CALLS;
  }

  /**
   * Answers one call: with the script's next reply (or the script function's answer), or by
   * the demo rules when there is no script; the call is recorded in `calls` first.
   */
  async complete(call: ModelCall, signal: AbortSignal): Promise<ModelReply> {
    if (signal.aborted) throw signal.reason;
    if (this.#recordCalls > 0) {
      this.calls.push(structuredClone(call));
      if (this.calls.length > this.#recordCalls) this.calls.shift();
    }
    const callNumber = ++this.#callCount;
    if (this.#delayMs > 0) await this.#clock.sleep(this.#delayMs, signal);
    const script = this.#script;
    if (script === undefined) return demoReply(call, callNumber);
    if (typeof script === 'function') return complete(await script(call));
    if (!Array.isArray(script)) return complete(script as ScriptedReply);
    const replies = script as readonly ScriptedReply[];
    const reply = replies[Math.min(this.#next, replies.length - 1)]!;
    this.#next++;
    return complete(structuredClone(reply));
  }
}
