import { describe, expect, it } from 'vitest';
import type { ModelCall } from '../../src/llm/model-client.js';
import { ScriptedModel } from '../../src/llm/scripted-model.js';
import type { ToolDeclaration } from '../../src/llm/tool-declaration.js';

function tool(name: string): ToolDeclaration {
  return { type: 'function', function: { name, description: name, parameters: { type: 'object', properties: {} } } };
}

/** One NDFC user prompt (history, new messages, extra info), as the demo model receives it. */
function ndfcCall(history: string[], unreads: string[]): ModelCall {
  const historyBlock = history.length > 0 ? `<history>\n${history.join('\n')}\n</history>\n` : '';
  return {
    model: 'offline-demo',
    payloads: [
      { role: 'system', content: '我是月璃。' },
      { role: 'user', content: `${historyBlock}<new_messages>\n${unreads.join('\n')}\n</new_messages>\n<extra_info>\n现在是 2026-01-01 08:00（星期四，Asia/Shanghai 时间，UTC+08:00；消息时间同此时区）。\n</extra_info>` },
    ],
    tools: ['send_text', 'roll_dice', 'pass_and_wait'].map(tool),
  };
}

const line = (id: string, text: string) => `【08:00】阿明（用户 10001，消息 ${id}）： ${text}`;
const signal = new AbortController().signal;

describe('the offline demo model reads only the newest message (issue 15, item 9)', () => {
  it('[issue 15] a !tool command in the history is not run again: the newest message is answered', async () => {
    const reply = await new ScriptedModel().complete(
      ndfcCall([line('1', '!roll_dice {"count": 1, "sides": 6}'), '【08:00】月璃（我，消息 2）： 好的'], [line('3', '你好')]),
      signal,
    );
    expect(reply.toolCalls).toEqual([{ id: 'scripted_1_send_text', name: 'send_text', args: { content: '（演示模型）收到：你好' } }]);
  });

  it('[issue 15] a command in the newest message is run, also when that message has several lines, and not one in the history before it', async () => {
    const model = new ScriptedModel();
    const single = await model.complete(ndfcCall([line('1', '!roll_dice {"count": 9}')], [line('2', '掷一下 !roll_dice {"count": 2}')]), signal);
    expect(single.toolCalls).toEqual([{ id: 'scripted_1_roll_dice', name: 'roll_dice', args: { count: 2 } }]);
    const multiLine = await model.complete(ndfcCall([line('1', '!roll_dice {"count": 9}')], [line('3', '!roll_dice {"sides": 20}'), '谢谢']), signal);
    expect(multiLine.toolCalls).toEqual([{ id: 'scripted_2_roll_dice', name: 'roll_dice', args: { sides: 20 } }]);
  });

  it('[issue 15] of several new messages only the newest counts, also for a command in an older one', async () => {
    const reply = await new ScriptedModel().complete(ndfcCall([], [line('1', '!roll_dice {"count": 2}'), line('2', '算了，不掷了')]), signal);
    expect(reply.toolCalls).toEqual([{ id: 'scripted_1_send_text', name: 'send_text', args: { content: '（演示模型）收到：算了，不掷了' } }]);
  });

  it('[issue 15] a prompt without a <new_messages> block is read without its <history> blocks', async () => {
    const reply = await new ScriptedModel().complete(
      { model: 'offline-demo', payloads: [{ role: 'user', content: '<history>\n!roll_dice {"count": 1}\n</history>\n早上好' }], tools: ['send_text', 'roll_dice'].map(tool) },
      signal,
    );
    expect(reply.toolCalls).toEqual([{ id: 'scripted_1_send_text', name: 'send_text', args: { content: '（演示模型）收到：早上好' } }]);
  });
});
