import { describe, expect, it } from 'vitest';
import { textReply, toolReply, useTestHosts } from '../../support/ndfc.js';

const DUPLICATE_TEXT = '检测到重复工具调用，已自动跳过';
const okay = () => toolReply([{ name: 'send_text', args: { content: '好的' } }]);

describe('NDFC dedupe of tool calls, per user turn (issue 13)', () => {
  const start = useTestHosts();

  describe('when the same send_text comes in a later turn', () => {
    it('[N-28] [issue 13] after a Wait and a new message, the same "好的" is sent again', async () => {
      const test = await start({ script: [okay(), okay()] });
      await test.adapter.send('帮我记一下');
      await test.settle(15_000);
      await test.adapter.send('再记一条');
      await test.settle(15_000);
      expect(test.model.calls).toHaveLength(2);
      expect(test.adapter.texts()).toEqual(['好的', '好的']);
      expect(JSON.stringify(test.model.calls.map((call) => call.payloads))).not.toContain(DUPLICATE_TEXT);
    });

    it('[N-09] [N-28] [issue 13] a turn started by the pass_and_wait timer’s resume prompt sends the same text again', async () => {
      const test = await start({
        script: [
          toolReply([{ name: 'send_text', args: { content: '早上好' } }, { name: 'pass_and_wait', args: { seconds: 60 } }]),
          toolReply([{ name: 'send_text', args: { content: '早上好' } }]),
        ],
      });
      await test.adapter.send('早');
      await test.settle(15_000);
      expect(test.adapter.texts()).toEqual(['早上好']);
      await test.settle(60_000);
      expect(test.model.calls).toHaveLength(2);
      expect(test.adapter.texts()).toEqual(['早上好', '早上好']);
    });
  });

  describe('within one turn (a model round and its follow-ups)', () => {
    it('[N-07] [N-28] [issue 13] a repeat in the follow-up round is skipped, and the next turn starts afresh', async () => {
      const test = await start({
        script: [okay(), okay(), textReply('（说过了）'), okay(), textReply('')],
        pluginConfigs: { neo_default_chatter: '[plugin]\nenable_action_suspend = false\n' },
      });
      await test.adapter.send('帮我记一下');
      await test.settle(15_000);
      // Round, follow-up with the repeat (skipped, told to the model), follow-up with text.
      expect(test.model.calls).toHaveLength(3);
      expect(test.adapter.texts()).toEqual(['好的']);
      expect(test.model.calls[2]!.payloads.at(-1)).toMatchObject({ role: 'tool', content: DUPLICATE_TEXT });

      await test.adapter.send('再记一条');
      await test.settle(15_000);
      expect(test.model.calls).toHaveLength(5);
      expect(test.adapter.texts()).toEqual(['好的', '好的']);
    });
  });

  describe('when a call is skipped as a duplicate', () => {
    it('[N-28] [issue 13] it is logged at debug level with the stream id, the tool name and the arguments in short', async () => {
      const twice = toolReply([
        { name: 'send_text', args: { content: '只说一次' } },
        { name: 'send_text', args: { content: '只说一次', reason: '再强调' } },
      ]);
      const test = await start({ script: [twice] });
      const outcome = await test.adapter.send('hi');
      await test.settle(15_000);
      const streamId = (outcome as { message: { streamId: string } }).message.streamId;
      expect(test.adapter.texts()).toEqual(['只说一次']);
      const skipped = test.logs.filter((record) => /duplicate/.test(record.msg));
      expect(skipped).toEqual([
        expect.objectContaining({
          level: 'debug',
          stream_id: streamId,
          tool: 'send_text',
          args: '{"content":"只说一次","reason":"再强调"}',
          msg: 'skipped a duplicate call of send_text in this turn: {"content":"只说一次","reason":"再强调"}',
        }),
      ]);
    });

    it('[issue 13] long arguments are cut in the log line', async () => {
      const long = '很长的一句话'.repeat(40);
      const twice = toolReply([
        { name: 'send_text', args: { content: long } },
        { name: 'send_text', args: { content: long } },
      ]);
      const test = await start({ script: [twice] });
      await test.adapter.send('hi');
      await test.settle(60_000);
      const skipped = test.logs.find((record) => /duplicate/.test(record.msg));
      expect(String(skipped?.['args'])).toHaveLength(80);
      expect(String(skipped?.['args'])).toMatch(/^\{"content":"很长的一句话.*…$/);
    });
  });
});
