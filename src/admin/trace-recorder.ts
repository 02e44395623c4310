import type { PublishTrace, PublishTracer } from '../kernel/event-bus/publish-tracer.js';

/** One publish of a conversation turn, for the traces page. */
export interface TracedPublish extends PublishTrace {
  /** A line about what happened, for model calls and tool calls (model, latency, tool name …). */
  summary: string | null;
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

function summarise(event: string, params: Readonly<Record<string, unknown>>): string | null {
  if (event === 'after_llm_request') return `model ${String(params['model'])} answered ${String(params['task_name'])} in ${String(params['duration_ms'])} ms`;
  if (event === 'on_llm_request_failed') return `every model of ${String(params['task_name'])} failed: ${(params['error'] as Error | undefined)?.message ?? ''}`;
  if (event === 'before_llm_request') return `request ${String(params['request_name'])} (task ${String(params['task_name'])})`;
  if (event === 'before_tool_call' || event === 'after_tool_call') {
    const name = (params['tool_call'] as { name?: unknown } | undefined)?.name ?? params['tool_name'] ?? params['signature'];
    return name === undefined ? null : `tool ${String(name)}`;
  }
  return null;
}

/**
 * Keeps the recent publishes of each conversation (those whose params carry a `stream_id`),
 * grouped into turns that start at each `on_chatter_step`. Bounded: the newest turns of the
 * newest streams.
 */
export class TraceRecorder implements PublishTracer {
  readonly #now: () => number;
  readonly #streams = new Map<string, TracedTurn[]>();
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
    turn.publishes.push({ ...trace, summary: summarise(trace.event, params) });
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
