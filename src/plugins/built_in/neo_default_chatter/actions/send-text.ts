import { action, BaseAction, inject, TOKENS, ToolExecutionResult, type ActionContext, type ChatRuntime } from 'moonglass';
import type { NdfcPluginLike } from '../ndfc-plugin-like.js';
import { answeredMessageArrival, typingDelayLeft } from './typing-delay.js';

/**
 * `send_text`: the bot speaks. The reply is queued in the host's durable outbox at once and
 * goes out after a typing delay (per character, capped) counted from the arrival of the
 * message being answered, or from the stream's previous send when that is later: the model's
 * own latency is part of the typing, not added to it, and several sends in one turn are
 * spaced by their own typing and stay in order.
 */
@action('send_text', {
  description: '发送一条文字消息到当前聊天。想说话时必须调用它；一次说一两句，可以多次调用。',
  parameters: {
    type: 'object',
    properties: {
      content: { type: 'string', minLength: 1, maxLength: 2000, description: '要发送的文字' },
      reply_to: { type: 'string', description: '要引用回复的消息 id，即消息行里「消息」后面的编号（可选）' },
      at: { type: 'string', description: '群聊中要 @ 的用户 id，即消息行里「用户」后面的编号（可选）' },
    },
    required: ['content'],
    additionalProperties: false,
  },
})
export class SendTextAction extends BaseAction {
  /** Kept #private: another plugin that gets this component must not reach NDFC's config. */
  readonly #plugin: NdfcPluginLike;

  constructor(
    @inject(TOKENS.Plugin) plugin: NdfcPluginLike,
    @inject(TOKENS.ChatRuntime) private readonly runtime: ChatRuntime,
  ) {
    super();
    this.#plugin = plugin;
  }

  async execute(args: Record<string, unknown>, context: ActionContext): Promise<ToolExecutionResult> {
    const content = String(args['content']).replace(/^\s*reason[:：].*$/gm, '').trim();
    if (content === '') return ToolExecutionResult.fail('send_text', '消息内容为空');
    const { clock } = this.runtime;
    const config = this.#plugin.config;
    const typingMs = Math.min(content.length * config.typing_delay_per_char, config.typing_delay_max_seconds) * 1000;
    const stream = context.streams.activateStream(context.streamId);
    const since = stream === undefined ? [] : [answeredMessageArrival(stream), this.#plugin.state.lastSendAt.get(stream)];
    // Queued (durable) first, typed after: a crash during the delay loses no reply.
    const outcome = await context.streams.send(
      context.streamId,
      {
        content,
        replyTo: typeof args['reply_to'] === 'string' ? args['reply_to'] : null,
        at: typeof args['at'] === 'string' ? args['at'] : null,
      },
      { delayMs: typingDelayLeft(typingMs, clock.now(), since), signal: context.signal },
    );
    if (stream !== undefined) this.#plugin.state.lastSendAt.set(stream, clock.now());
    switch (outcome.status) {
      case 'sent':
        return ToolExecutionResult.ok('send_text', '已发送');
      case 'queued':
        return ToolExecutionResult.ok('send_text', `暂未送达（${outcome.reason}），已放入待发队列，连接恢复后会自动发送，不要重复发送`);
      case 'cancelled':
        return ToolExecutionResult.fail('send_text', `发送被取消：${outcome.reason}`);
      case 'failed':
        return ToolExecutionResult.fail('send_text', `发送失败：${outcome.reason}`);
    }
  }
}
