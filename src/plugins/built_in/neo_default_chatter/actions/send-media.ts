import {
  action,
  BaseAction,
  inject,
  TOKENS,
  ToolExecutionResult,
  type ActionContext,
  type ChatRuntime,
  type HostInfo,
  type OutboundMedia,
  type OutgoingMessage,
  type SendOutcome,
} from 'moonglass';
import type { NdfcPluginLike } from '../ndfc-plugin-like.js';
import { resolveMediaFile } from './resolve-media-file.js';
import { answeredMessageArrival, typingDelayLeft } from './typing-delay.js';

const NAME = 'send_media';

/**
 * `send_media`: the bot sends a picture, a voice clip or a video, from an `http(s)` URL or a
 * file in the bot's data folder (see `resolve-media-file.ts` for what is accepted and how a
 * local file travels). A caption goes with a picture in one message; with a voice clip or a
 * video it goes first as a message of its own, since QQ shows those alone. Typing delay
 * (for the caption's characters) and outcomes are those of `send_text`.
 */
@action(NAME, {
  description:
    '发送一张图片、一段语音或一个视频到当前聊天。file 是 http(s) 链接，或机器人数据目录里的相对路径（如 media/cat.png）；可以附一句文字 caption。',
  parameters: {
    type: 'object',
    properties: {
      kind: { type: 'string', enum: ['image', 'record', 'video'], description: 'image 图片，record 语音，video 视频' },
      file: { type: 'string', minLength: 1, maxLength: 2000, description: 'http(s) 链接，或机器人数据目录里的相对路径（如 media/cat.png）' },
      caption: { type: 'string', maxLength: 2000, description: '一起发送的文字（可选）；语音和视频的文字会先单独发一条' },
      reply_to: { type: 'string', description: '要引用回复的消息 id，即消息行里「消息」后面的编号（可选）' },
    },
    required: ['kind', 'file'],
    additionalProperties: false,
  },
})
export class SendMediaAction extends BaseAction {
  /** Kept #private: another plugin that gets this component must not reach NDFC's config. */
  readonly #plugin: NdfcPluginLike;

  constructor(
    @inject(TOKENS.Plugin) plugin: NdfcPluginLike,
    @inject(TOKENS.ChatRuntime) private readonly runtime: ChatRuntime,
    @inject(TOKENS.HostInfo) private readonly host: HostInfo,
  ) {
    super();
    this.#plugin = plugin;
  }

  async execute(args: Record<string, unknown>, context: ActionContext): Promise<ToolExecutionResult> {
    const kind = args['kind'];
    if (kind !== 'image' && kind !== 'record' && kind !== 'video') return ToolExecutionResult.fail(NAME, 'kind 只能是 image、record 或 video');
    const resolved = resolveMediaFile(kind, String(args['file'] ?? ''), this.host.dataDir);
    if (!resolved.ok) return ToolExecutionResult.fail(NAME, resolved.reason);
    const media: OutboundMedia = { kind, file: resolved.file };
    const caption = String(args['caption'] ?? '')
      .replace(/^\s*reason[:：].*$/gm, '')
      .trim();
    const replyTo = typeof args['reply_to'] === 'string' && args['reply_to'] !== '' ? args['reply_to'] : null;
    const messages: OutgoingMessage[] =
      kind === 'image' || caption === ''
        ? [{ content: caption, replyTo, media: [media] }]
        : [
            { content: caption, replyTo },
            { content: '', media: [media] },
          ];
    let outcome: SendOutcome | undefined;
    for (const message of messages) {
      outcome = await this.#send(message, context);
      if (outcome.status === 'cancelled' || outcome.status === 'failed') break;
    }
    return resultOf(outcome!);
  }

  /** One send, typed for its text's characters counted from the answered message or the previous send (as `send_text`). */
  async #send(message: OutgoingMessage, context: ActionContext): Promise<SendOutcome> {
    const { clock } = this.runtime;
    const config = this.#plugin.config;
    const typingMs = Math.min(message.content.length * config.typing_delay_per_char, config.typing_delay_max_seconds) * 1000;
    const stream = context.streams.activateStream(context.streamId);
    const since = stream === undefined ? [] : [answeredMessageArrival(stream), this.#plugin.state.lastSendAt.get(stream)];
    const outcome = await context.streams.send(context.streamId, message, {
      delayMs: typingDelayLeft(typingMs, clock.now(), since),
      signal: context.signal,
    });
    if (stream !== undefined) this.#plugin.state.lastSendAt.set(stream, clock.now());
    return outcome;
  }
}

function resultOf(outcome: SendOutcome): ToolExecutionResult {
  switch (outcome.status) {
    case 'sent':
      return ToolExecutionResult.ok(NAME, '已发送');
    case 'queued':
      return ToolExecutionResult.ok(NAME, `暂未送达（${outcome.reason}），已放入待发队列，连接恢复后会自动发送，不要重复发送`);
    case 'cancelled':
      return ToolExecutionResult.fail(NAME, `发送被取消：${outcome.reason}`);
    case 'failed':
      return ToolExecutionResult.fail(NAME, `发送失败：${outcome.reason}`);
  }
}
