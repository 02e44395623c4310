import { action, BaseAction, ToolExecutionResult } from 'moonglass';

/** `stop_conversation`: end the conversation; the session turns it into Stop(cooldown). */
@action('stop_conversation', {
  description: '结束本次对话（对方告别、话题结束、不想继续时）。可以给出多少分钟内不再主动接话。',
  parameters: {
    type: 'object',
    properties: { minutes: { type: 'number', minimum: 0, maximum: 1440, description: '冷却分钟数（可选）' } },
    additionalProperties: false,
  },
})
export class StopConversationAction extends BaseAction {
  async execute(): Promise<ToolExecutionResult> {
    return ToolExecutionResult.ok('stop_conversation', '');
  }
}
