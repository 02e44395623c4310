import type { PublishTrace, PublishTracer } from '../kernel/event-bus/publish-tracer.js';
import { duplicateCallOf, modelCallOf, toolCallOf, toolCallsInAskedOrder, type TracedModelCall, type TracedToolCall } from './trace-details.js';
import { isConsoleObserver } from './trace-observers.js';

/** One publish of a conversation turn, for the traces page. */
export interface TracedPublish extends PublishTrace {
  /** A line about what happened, for model calls and tool calls (model, latency, tool name …). */
  summary: string | null;
  /**
   * Something that happened without a trace of its own: `duplicate: send_text` on the
   * `:dedupe_tool_call` publish of a call that was skipped as a repeat within its turn.
   */
  note: string | null;
}

/**
 * One turn of a conversation: one step of its chatter, from what woke it (a message, a timer,
 * a resume) to the wait, stop or end it reached. A session that lives across many messages
 * has one turn per message it answered.
 */
export interface TracedTurn {
  id: number;
  startedAt: number;
  /** What woke the chatter (`new`, `message`, `timer`, `sub_agent` …); null when no step was seen. */
  source: string | null;
  /** Unread messages when the step began. */
  unreadCount: number | null;
  /** How the step ended (`wait`, `stop`, `success`, `failure` …), with the failure's reason; null while it runs. */
  outcome: string | null;
  modelCalls: TracedModelCall[];
  /** In call order; a call skipped as a repeat is one too (`outcome: "duplicate"`). */
  toolCalls: TracedToolCall[];
  publishes: TracedPublish[];
}

const TURNS_PER_STREAM = 20;
const PUBLISHES_PER_TURN = 400;
const STREAMS = 200;
/** Prompts are the heavy part: the newest ones are kept up to this many characters in all. */
const PROMPT_CHARS_KEPT = 2_000_000;
const DEDUPE_TOOL_CALL = 'neo_default_chatter:dedupe_tool_call';
const FORMAT_TOOL_RESULT = 'neo_default_chatter:format_tool_result';

function summarise(event: string, params: Readonly<Record<string, unknown>>): string | null {
  if (event === 'after_llm_request') return `model ${String(params['model'])} answered ${String(params['task_name'])} in ${String(params['duration_ms'])} ms`;
  if (event === 'on_llm_request_failed') return `every model of ${String(params['task_name'])} failed: ${(params['error'] as Error | undefined)?.message ?? ''}`;
  if (event === 'before_llm_request') return `request ${String(params['request_name'])} (task ${String(params['task_name'])})`;
  if (event === 'before_tool_call' || event === 'after_tool_call') {
    const name = (params['tool_call'] as { name?: unknown } | undefined)?.name ?? params['tool_name'] ?? params['signature'];
    return name === undefined ? null : `tool ${String(name)}`;
  }
  if (event === DEDUPE_TOOL_CALL) return `tool ${String(callNameOf(params))}`;
  return null;
}

function callNameOf(params: Readonly<Record<string, unknown>>): unknown {
  return (params['call'] as { name?: unknown } | undefined)?.name;
}

function outcomeOf(params: Readonly<Record<string, unknown>>): string {
  const kind = String(params['result_type'] ?? '?');
  const message = (params['result'] as { message?: unknown } | undefined)?.message;
  return kind === 'failure' && typeof message === 'string' && message !== '' ? `failure: ${message}` : kind;
}

/**
 * The tracer sees the params a publish started with, so the verdict of `:dedupe_tool_call`
 * (`is_duplicate`, set by a handler) is not among them. The session says it in the next
 * publish: a skipped call's result is formatted with `kind: "duplicate"`. That marks the
 * call's dedupe publish, or this one when the dedupe publish is no longer in the turn.
 */
function markDuplicate(turn: TracedTurn, params: Readonly<Record<string, unknown>>, dedupeCalls: WeakMap<TracedPublish, unknown>): TracedPublish | undefined {
  const name = params['call_name'];
  const dedupe = turn.publishes.findLast((publish) => publish.event === DEDUPE_TOOL_CALL && publish.note === null && dedupeCalls.get(publish) === name);
  if (dedupe !== undefined) dedupe.note = `duplicate: ${String(name)}`;
  return dedupe;
}

function newTurn(id: number, startedAt: number): TracedTurn {
  return { id, startedAt, source: null, unreadCount: null, outcome: null, modelCalls: [], toolCalls: [], publishes: [] };
}

/**
 * Keeps the recent publishes of each conversation (those whose params carry a `stream_id`),
 * grouped into turns that start at each `on_chatter_step`, with each turn's model calls
 * (prompt included) and tool calls read from them. Bounded: the newest turns of the newest
 * streams, and the newest prompts up to a total size.
 */
export class TraceRecorder implements PublishTracer {
  readonly #now: () => number;
  readonly #streams = new Map<string, TracedTurn[]>();
  /** The tool name of each recorded `:dedupe_tool_call` publish. */
  readonly #dedupeCalls = new WeakMap<TracedPublish, unknown>();
  /** Model calls still holding their prompt, oldest first. */
  readonly #prompts: TracedModelCall[] = [];
  #promptChars = 0;
  #nextTurn = 1;

  constructor(now: () => number) {
    this.#now = now;
  }

  now(): number {
    return this.#now();
  }

  record(trace: PublishTrace, params: Readonly<Record<string, unknown>>): void {
    const streamId = params['stream_id'];
    if (typeof streamId !== 'string' || streamId === '') return;
    const turns = this.#turnsFor(streamId);
    const isStep = trace.event === 'on_chatter_step';
    if (isStep || turns.length === 0) this.#startTurn(turns, trace.startedAt, isStep);
    const turn = [...turns].reverse().find((candidate) => candidate.startedAt <= trace.startedAt) ?? turns[0]!;
    const handlers = trace.handlers.filter((handler) => !isConsoleObserver(handler.label));
    const publish: TracedPublish = { ...trace, handlers, summary: summarise(trace.event, params), note: null };
    this.#readDetails(turn, publish, params);
    turn.publishes.push(publish);
    turn.publishes.sort((a, b) => a.startedAt - b.startedAt);
    if (turn.publishes.length > PUBLISHES_PER_TURN) turn.publishes.splice(0, turn.publishes.length - PUBLISHES_PER_TURN);
  }

  /** The traced conversations, newest activity first. */
  streams(): { streamId: string; turns: number; lastAt: number }[] {
    return [...this.#streams.entries()]
      .map(([streamId, turns]) => ({ streamId, turns: turns.length, lastAt: turns.at(-1)?.startedAt ?? 0 }))
      .sort((a, b) => b.lastAt - a.lastAt);
  }

  /** A conversation's recent turns, newest first; each turn's tool calls in the order the model asked for them. */
  turnsOf(streamId: string): TracedTurn[] {
    return [...(this.#streams.get(streamId) ?? [])].reverse().map((turn) => ({ ...turn, toolCalls: toolCallsInAskedOrder(turn.modelCalls, turn.toolCalls) }));
  }

  #turnsFor(streamId: string): TracedTurn[] {
    let turns = this.#streams.get(streamId);
    if (turns === undefined) {
      turns = [];
      this.#streams.set(streamId, turns);
      if (this.#streams.size > STREAMS) this.#streams.delete(this.#streams.keys().next().value!);
    }
    return turns;
  }

  #startTurn(turns: TracedTurn[], startedAt: number, isStep: boolean): void {
    // A step skipped by its gate (`continue = false`) left a turn with nothing else in it.
    const last = turns.at(-1);
    if (isStep && last !== undefined && last.publishes.length === 1 && last.publishes[0]!.event === 'on_chatter_step') turns.pop();
    turns.push(newTurn(this.#nextTurn++, startedAt));
    if (turns.length > TURNS_PER_STREAM) turns.shift();
    // A publish recorded before (it finished first) but started within this turn belongs here.
    if (isStep && turns.length > 1) {
      const previous = turns[turns.length - 2]!;
      const moved = previous.publishes.filter((publish) => publish.startedAt >= startedAt);
      previous.publishes = previous.publishes.filter((publish) => publish.startedAt < startedAt);
      turns[turns.length - 1]!.publishes.push(...moved);
    }
  }

  /** What a publish says about its turn: the step, a model call, a tool call, a skipped repeat. */
  #readDetails(turn: TracedTurn, publish: TracedPublish, params: Readonly<Record<string, unknown>>): void {
    switch (publish.event) {
      case 'on_chatter_step':
        turn.source = String(params['source'] ?? '');
        turn.unreadCount = typeof params['unread_count'] === 'number' ? params['unread_count'] : null;
        return;
      case 'after_chatter_step':
        turn.outcome = outcomeOf(params);
        return;
      case 'after_llm_request':
      case 'on_llm_request_failed':
        this.#keepPrompt(turn, modelCallOf(publish.event, params));
        return;
      case 'after_tool_call':
        turn.toolCalls.push(toolCallOf(params));
        return;
      case DEDUPE_TOOL_CALL:
        this.#dedupeCalls.set(publish, callNameOf(params));
        return;
      case FORMAT_TOOL_RESULT:
        if (params['kind'] !== 'duplicate') return;
        turn.toolCalls.push(duplicateCallOf(params));
        if (markDuplicate(turn, params, this.#dedupeCalls) === undefined) publish.note = `duplicate: ${String(params['call_name'])}`;
        return;
      default:
    }
  }

  #keepPrompt(turn: TracedTurn, call: TracedModelCall): void {
    turn.modelCalls.push(call);
    this.#prompts.push(call);
    this.#promptChars += call.promptChars;
    while (this.#promptChars > PROMPT_CHARS_KEPT && this.#prompts.length > 1) {
      const oldest = this.#prompts.shift()!;
      this.#promptChars -= oldest.promptChars;
      oldest.prompt = null;
    }
  }
}
