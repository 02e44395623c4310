/** One message of the prompt sent to a model, as text. */
export interface PromptLine {
  role: string;
  /** The text; an image or a video shows as `[image]` / `[video]`, never its data. */
  text: string;
}

/** One model call of a turn: which model, the prompt it was sent and what it answered. */
export interface TracedModelCall {
  task: string;
  request: string;
  /** The model's name in `models.toml`; null when every model failed. */
  model: string | null;
  durationMs: number | null;
  /** The payloads as sent (after every `before_llm_request` handler); null once dropped to bound memory. */
  prompt: PromptLine[] | null;
  promptChars: number;
  response: string;
  /** The tool calls the model asked for. */
  toolCalls: { id: string | null; name: string; args: unknown }[];
  /** Why the call failed (every model of the task), else null. */
  error: string | null;
}

/** One tool or action call of a turn, or one skipped as a repeat of an earlier call in the turn. */
export interface TracedToolCall {
  name: string;
  args: unknown;
  /**
   * `ok`, `failed`, `duplicate` (skipped: the same call already ran in this turn), or
   * `not run` (the model asked for it and nothing ran it: an unknown tool, a step cut short).
   */
  outcome: 'ok' | 'failed' | 'duplicate' | 'not run';
  /** What the model reads back (the observation, or the error). */
  result: string;
  durationMs: number | null;
  /** The model's call id, when the call ran. */
  callId: string | null;
}

/** A prompt message longer than this is cut, with a mark: the page stays light. */
export const PROMPT_LINE_MAX_CHARS = 20_000;
const RESULT_MAX_CHARS = 4_000;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  return content
    .map((part: { type?: unknown; text?: unknown }) => (part.type === 'text' ? String(part.text ?? '') : part.type === 'image_url' ? '[image]' : part.type === 'video_url' ? '[video]' : '[?]'))
    .join('');
}

/** The payloads of a model call as lines of text; a tool call the assistant asked for reads `→ name {args}`. */
export function promptLines(payloads: unknown): PromptLine[] {
  if (!Array.isArray(payloads)) return [];
  return payloads.map((payload: { role?: unknown; content?: unknown; tool_calls?: unknown; name?: unknown }) => {
    const role = payload.role === 'tool' ? `tool ${String(payload.name ?? '')}`.trim() : String(payload.role ?? '?');
    const calls = Array.isArray(payload.tool_calls)
      ? payload.tool_calls.map((call: { name?: unknown; args?: unknown }) => `\n→ ${String(call.name)} ${JSON.stringify(call.args ?? {})}`).join('')
      : '';
    return { role, text: cut(contentText(payload.content) + calls, PROMPT_LINE_MAX_CHARS) };
  });
}

/** A model call from the params of `after_llm_request` or `on_llm_request_failed`. */
export function modelCallOf(event: string, params: Readonly<Record<string, unknown>>): TracedModelCall {
  const prompt = promptLines(params['payloads']);
  const toolCalls = Array.isArray(params['tool_calls'])
    ? params['tool_calls'].map((call: { id?: unknown; name?: unknown; args?: unknown }) => ({ id: typeof call.id === 'string' ? call.id : null, name: String(call.name), args: call.args ?? {} }))
    : [];
  const failed = event === 'on_llm_request_failed';
  return {
    task: String(params['task_name'] ?? ''),
    request: String(params['request_name'] ?? ''),
    model: failed ? null : String(params['model'] ?? ''),
    durationMs: typeof params['duration_ms'] === 'number' ? params['duration_ms'] : null,
    prompt,
    promptChars: prompt.reduce((total, line) => total + line.text.length, 0),
    response: typeof params['response_message'] === 'string' ? params['response_message'] : '',
    toolCalls,
    error: failed ? String((params['error'] as Error | undefined)?.message ?? 'every model failed') : null,
  };
}

/** A call that ran, from the params of `after_tool_call`. */
export function toolCallOf(params: Readonly<Record<string, unknown>>): TracedToolCall {
  const success = params['success'] === true;
  const result = success ? String(params['observation'] ?? '') : String(params['error_message'] || params['observation'] || '');
  return {
    name: String(params['tool_name'] ?? params['signature'] ?? ''),
    args: params['args'] ?? {},
    outcome: success ? 'ok' : 'failed',
    result: cut(result, RESULT_MAX_CHARS),
    durationMs: typeof params['duration_ms'] === 'number' ? params['duration_ms'] : null,
    callId: typeof params['call_id'] === 'string' ? params['call_id'] : null,
  };
}

/** A call skipped as a repeat, from the params of NDFC's `:format_tool_result` with `kind: "duplicate"`. */
export function duplicateCallOf(params: Readonly<Record<string, unknown>>): TracedToolCall {
  return { name: String(params['call_name'] ?? ''), args: params['args'] ?? {}, outcome: 'duplicate', result: 'skipped: the same call already ran in this turn', durationMs: null, callId: null };
}

/**
 * A turn's tool calls in the order the model asked for them: each asked call is the one that
 * ran (same call id), else a skipped repeat (same name and arguments), else `not run`. Calls
 * that ran without being asked in this turn follow.
 */
export function toolCallsInAskedOrder(modelCalls: readonly TracedModelCall[], seen: readonly TracedToolCall[]): TracedToolCall[] {
  const left = [...seen];
  const take = (match: (call: TracedToolCall) => boolean): TracedToolCall | undefined => {
    const index = left.findIndex(match);
    return index === -1 ? undefined : left.splice(index, 1)[0];
  };
  const ordered: TracedToolCall[] = [];
  for (const asked of modelCalls.flatMap((call) => call.toolCalls)) {
    const args = JSON.stringify(asked.args);
    const found =
      take((call) => asked.id !== null && call.callId === asked.id) ??
      take((call) => call.outcome === 'duplicate' && call.name === asked.name && JSON.stringify(call.args) === args);
    ordered.push(found ?? { name: asked.name, args: asked.args, outcome: 'not run', result: 'nothing ran it (an unknown tool, or the step ended first); the model read the reason in its next prompt', durationMs: null, callId: asked.id });
  }
  return [...ordered, ...left];
}
