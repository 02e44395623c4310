import type { PublishTrace, PublishTracer } from '../kernel/event-bus/publish-tracer.js';

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

/** One turn of a conversation: from a chatter step to the next. */
export interface TracedTurn {
  id: number;
  startedAt: number;
  publishes: TracedPublish[];
}

const TURNS_PER_STREAM = 20;
const PUBLISHES_PER_TURN = 400;
const STREAMS = 200;
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

/**
 * Keeps the recent publishes of each conversation (those whose params carry a `stream_id`),
 * grouped into turns that start at each `on_chatter_step`. Bounded: the newest turns of the
 * newest streams.
 */
export class TraceRecorder implements PublishTracer {
  readonly #now: () => number;
  readonly #streams = new Map<string, TracedTurn[]>();
  /** The tool name of each recorded `:dedupe_tool_call` publish. */
  readonly #dedupeCalls = new WeakMap<TracedPublish, unknown>();
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
    let turns = this.#streams.get(streamId);
    if (turns === undefined) {
      turns = [];
      this.#streams.set(streamId, turns);
      if (this.#streams.size > STREAMS) this.#streams.delete(this.#streams.keys().next().value!);
    }
    if (trace.event === 'on_chatter_step' || turns.length === 0) {
      turns.push({ id: this.#nextTurn++, startedAt: trace.startedAt, publishes: [] });
      if (turns.length > TURNS_PER_STREAM) turns.shift();
      // A publish recorded before (it finished first) but started within this turn belongs here.
      if (trace.event === 'on_chatter_step' && turns.length > 1) {
        const previous = turns[turns.length - 2]!;
        const moved = previous.publishes.filter((publish) => publish.startedAt >= trace.startedAt);
        previous.publishes = previous.publishes.filter((publish) => publish.startedAt < trace.startedAt);
        turns[turns.length - 1]!.publishes.push(...moved);
      }
    }
    const turn = [...turns].reverse().find((candidate) => candidate.startedAt <= trace.startedAt) ?? turns[0]!;
    const publish: TracedPublish = { ...trace, summary: summarise(trace.event, params), note: null };
    if (trace.event === DEDUPE_TOOL_CALL) this.#dedupeCalls.set(publish, callNameOf(params));
    if (trace.event === FORMAT_TOOL_RESULT && params['kind'] === 'duplicate' && markDuplicate(turn, params, this.#dedupeCalls) === undefined) {
      publish.note = `duplicate: ${String(params['call_name'])}`;
    }
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

  /** A conversation's recent turns, newest first. */
  turnsOf(streamId: string): TracedTurn[] {
    return [...(this.#streams.get(streamId) ?? [])].reverse();
  }
}
