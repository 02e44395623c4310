import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type HandlerResult, type Logger } from 'moonglass';
import { NdfcEvent } from '../events/ndfc-event.js';
import type { FormatToolResultPayload, ToolResultKind } from '../events/ndfc-payloads.js';
import { passAfterFailure } from './handler-failure.js';

/** `stop_conversation`'s minutes when the model gives none. */
const DEFAULT_STOP_MINUTES = 5;

function numberArgument(value: unknown, fallback: number): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : fallback;
}

/**
 * The seed's texts: `pass` → 已登记等待 {seconds} 秒 (`args.seconds`, 0 when absent);
 * `stop` → 对话已结束，将在 {minutes} 分钟后允许新对话 (`args.minutes`, 5 when absent);
 * `duplicate` → 检测到重复工具调用，已自动跳过; `normal` (and any other kind) → `''`.
 */
export function toolResultText(kind: ToolResultKind, args: Record<string, unknown>): string {
  switch (kind) {
    case 'pass':
      return `已登记等待 ${numberArgument(args['seconds'], 0)} 秒`;
    case 'stop':
      return `对话已结束，将在 ${numberArgument(args['minutes'], DEFAULT_STOP_MINUTES)} 分钟后允许新对话`;
    case 'duplicate':
      return '检测到重复工具调用，已自动跳过';
    case 'normal':
      return '';
    default: {
      const other: never = kind;
      void other;
      return '';
    }
  }
}

/** Default of `:format_tool_result`: the seed's text for `kind` into `result_text` (see `toolResultText`). */
@eventHandler({ name: 'format_tool_result_default', subscribe: [NdfcEvent.FORMAT_TOOL_RESULT], weight: 0 })
export class FormatToolResultDefaultHandler extends BaseEventHandler<typeof NdfcEvent.FORMAT_TOOL_RESULT> {
  constructor(@inject(TOKENS.Logger) private readonly logger: Logger) {
    super();
  }

  execute(_event: typeof NdfcEvent.FORMAT_TOOL_RESULT, params: FormatToolResultPayload): HandlerResult<FormatToolResultPayload> {
    try {
      return [EventDecision.SUCCESS, { ...params, result_text: toolResultText(params.kind, params.args) }];
    } catch (error) {
      return passAfterFailure(this.logger, 'format_tool_result_default', params, error);
    }
  }
}
