import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/kernel/errors/invalid-argument-error.js';
import { ManualClock } from '../../src/kernel/time/manual-clock.js';
import type { ModelCall } from '../../src/llm/model-client.js';
import type { LLMPayload } from '../../src/llm/payload.js';
import { ScriptedModel } from '../../src/llm/scripted-model.js';
import type { ToolDeclaration } from '../../src/llm/tool-declaration.js';

function tool(name: string): ToolDeclaration {
  return { type: 'function', function: { name, description: name, parameters: { type: 'object', properties: {} } } };
}

function call(payloads: LLMPayload[], toolNames: string[] = []): ModelCall {
  return { model: 'offline-demo', payloads, tools: toolNames.map(tool) };
}

const signal = new AbortController().signal;

describe('ScriptedModel', () => {
  describe('the demo rule', () => {
    it('(a) calls a declared tool named in the user text as `!<tool> <json>`', async () => {
      const model = new ScriptedModel();
      const reply = await model.complete(
        call([{ role: 'system', content: '你是月璃' }, { role: 'user', content: '掷一下 !roll_dice {"sides": 6, "note": "a } in a string"} 谢谢' }], ['send_text', 'roll_dice']),
        signal,
      );
      expect(reply.toolCalls).toEqual([{ id: 'scripted_1_roll_dice', name: 'roll_dice', args: { sides: 6, note: 'a } in a string' } }]);
      expect(reply.finishReason).toBe('tool_calls');
      expect(reply.message).toBe('');
    });

    it('(a) ignores commands for undeclared tools and commands with bad JSON', async () => {
      const model = new ScriptedModel();
      const reply = await model.complete(call([{ role: 'user', content: '!unknown {"a":1} !roll_dice {oops}' }], ['send_text', 'roll_dice']), signal);
      expect(reply.toolCalls).toEqual([
        { id: 'scripted_1_send_text', name: 'send_text', args: { content: '（演示模型）收到：!unknown {"a":1} !roll_dice {oops}' } },
      ]);
    });

    it('(b) after a tool result it answers with no tool calls but pass_and_wait, even when the user text had a command', async () => {
      const model = new ScriptedModel();
      const reply = await model.complete(
        call(
          [
            { role: 'user', content: '!roll_dice {"sides": 6}' },
            { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'roll_dice', args: { sides: 6 } }] },
            { role: 'tool', tool_call_id: 'c1', name: 'roll_dice', content: '4' },
          ],
          ['roll_dice', 'send_text', 'pass_and_wait'],
        ),
        signal,
      );
      expect(reply).toEqual({
        message: '',
        reasoning: '',
        toolCalls: [{ id: 'scripted_1_pass_and_wait', name: 'pass_and_wait', args: {} }],
        finishReason: 'tool_calls',
        usage: undefined,
      });
    });

    it('(b) with no user text and no pass_and_wait it answers with nothing', async () => {
      const model = new ScriptedModel();
      const reply = await model.complete(call([{ role: 'system', content: '只有系统提示' }], ['send_text']), signal);
      expect(reply).toMatchObject({ message: '', toolCalls: [], finishReason: 'stop' });
    });

    it('(c) calls send_text with the user text, cut to 200 characters', async () => {
      const model = new ScriptedModel();
      const long = '月'.repeat(250);
      const reply = await model.complete(call([{ role: 'user', content: `  ${long}  ` }], ['send_text']), signal);
      expect(reply.toolCalls).toEqual([{ id: 'scripted_1_send_text', name: 'send_text', args: { content: `（演示模型）收到：${'月'.repeat(200)}` } }]);
    });

    it('(c) without send_text it answers with the text as the message, reading the text parts of a multimodal message', async () => {
      const model = new ScriptedModel();
      const reply = await model.complete(
        call([{ role: 'user', content: [{ type: 'text', text: '看看' }, { type: 'image_url', image_url: { url: 'http://x/a.png' } }] }]),
        signal,
      );
      expect(reply).toMatchObject({ message: '（演示模型）收到：看看', toolCalls: [], finishReason: 'stop' });
    });
  });

  describe('with a script', () => {
    it('consumes a list of replies in order, then repeats the last, filling the fields left out', async () => {
      const model = new ScriptedModel([{ message: '一' }, { toolCalls: [{ id: 't', name: 'send_text', args: { content: '二' } }] }]);
      const replies = [];
      for (let index = 0; index < 3; index++) replies.push(await model.complete(call([{ role: 'user', content: `${index}` }]), signal));
      expect(replies[0]).toEqual({ message: '一', reasoning: '', toolCalls: [], finishReason: 'stop', usage: undefined });
      expect(replies[1]).toMatchObject({ message: '', finishReason: 'tool_calls', toolCalls: [{ id: 't' }] });
      expect(replies[2]).toEqual(replies[1]);
    });

    it('answers with a function of the call', async () => {
      const model = new ScriptedModel(async (received) => ({ message: `共 ${received.payloads.length} 条` }));
      expect((await model.complete(call([{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }]), signal)).message).toBe('共 2 条');
    });

    it('records every call as it was received', async () => {
      const model = new ScriptedModel({ message: 'ok' });
      const payloads: LLMPayload[] = [{ role: 'user', content: '第一句' }];
      await model.complete({ ...call(payloads, ['send_text']), temperature: 0.5 }, signal);
      payloads.push({ role: 'user', content: '后来加的' });
      await model.complete(call(payloads), signal);
      expect(model.calls).toHaveLength(2);
      expect(model.calls[0]).toEqual({ model: 'offline-demo', payloads: [{ role: 'user', content: '第一句' }], tools: [tool('send_text')], temperature: 0.5 });
      expect(model.calls[1]!.payloads).toHaveLength(2);
    });

    it('refuses an empty list', () => {
      expect(() => new ScriptedModel([])).toThrow(InvalidArgumentError);
    });
  });

  describe('with a delay', () => {
    it('answers only after delayMs on the injected clock', async () => {
      const clock = new ManualClock();
      const model = new ScriptedModel({ message: '慢' }, { delayMs: 1500, clock });
      let settled = false;
      const result = model.complete(call([{ role: 'user', content: 'x' }]), signal).then((reply) => {
        settled = true;
        return reply;
      });
      await clock.advance(1499);
      expect(settled).toBe(false);
      await clock.advance(1);
      expect((await result).message).toBe('慢');
    });

    it('rejects with the reason when the signal aborts during the delay', async () => {
      const clock = new ManualClock();
      const model = new ScriptedModel(undefined, { delayMs: 1000, clock });
      const controller = new AbortController();
      const result = model.complete(call([{ role: 'user', content: 'x' }]), controller.signal);
      controller.abort(new Error('cancelled'));
      await expect(result).rejects.toThrow('cancelled');
    });
  });
});
