import { action, BaseAction, ToolExecutionResult } from 'moonglass';

/** `pass_and_wait`: end this round and wait; the session turns it into Wait(seconds). */
@action('pass_and_wait', {
  description: '本轮不再说话，等待对方。可以给出等待的秒数，到时会再想一想要不要继续说；有新消息会立刻回来。',
  parameters: {
    type: 'object',
    properties: { seconds: { type: 'number', exclusiveMinimum: 0, maximum: 86400, description: '最多等待多少秒（可选）' } },
    additionalProperties: false,
  },
})
export class PassAndWaitAction extends BaseAction {
  async execute(): Promise<ToolExecutionResult> {
    return ToolExecutionResult.ok('pass_and_wait', '');
  }
}
