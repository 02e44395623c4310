import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type HandlerResult, type Logger, type ToolCall } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { DedupeToolCallPayload } from '../events/ndfc-payloads.js';
import { passAfterFailure } from './handler-failure.js';

/** JSON with object keys sorted at every level, so key order does not make two calls differ. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A call's identity for dedupe: its name and its arguments without `reason`. */
export function toolCallSignature(call: ToolCall): string {
  const { reason: _reason, ...args } = call.args;
  return `${call.name}:${stableJson(args)}`;
}

/**
 * Default of `:dedupe_tool_call`: a call whose signature (name + arguments without `reason`)
 * is in `seen_signatures` is a duplicate; otherwise its signature is added. The session
 * gives each user turn its own set, shared by the turn's model round and its follow-ups.
 */
@eventHandler({ name: 'dedupe_tool_call_default', subscribe: [NdfcEvent.DEDUPE_TOOL_CALL], weight: 0 })
export class DedupeToolCallDefaultHandler extends BaseEventHandler<typeof NdfcEvent.DEDUPE_TOOL_CALL> {
  constructor(@inject(TOKENS.Logger) private readonly logger: Logger) {
    super();
  }

  execute(_event: typeof NdfcEvent.DEDUPE_TOOL_CALL, params: DedupeToolCallPayload): HandlerResult<DedupeToolCallPayload> {
    try {
      const signature = toolCallSignature(params.call);
      const isDuplicate = params.seen_signatures.has(signature);
      if (!isDuplicate) params.seen_signatures.add(signature);
      return [EventDecision.SUCCESS, { ...params, is_duplicate: isDuplicate }];
    } catch (error) {
      return passAfterFailure(this.logger, 'dedupe_tool_call_default', params, error);
    }
  }
}
