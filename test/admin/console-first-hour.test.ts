import { describe, expect, it } from 'vitest';
import { useConsoles, type ConsoleUnderTest } from '../support/admin.js';
import { textReply, toolReply } from '../support/ndfc.js';

// Issue 15, item 14, over real HTTP: switching off the chatter that answers messages, the
// messages that arrive meanwhile, and traces a person can read (one turn per answer, with the
// tools, their arguments and results, the repeats skipped and the prompt sent).

const NDFC = 'neo_default_chatter';
const NDFC_CHATTER = 'neo_default_chatter:chatter:neo_default_chatter';

interface Overview {
  chatters: string[];
}

async function json<T>(response: Promise<Response>): Promise<{ status: number; body: T }> {
  const answer = await response;
  return { status: answer.status, body: (await answer.json()) as T };
}

function switchPlugin(api: ConsoleUnderTest['api'], id: string, body: Record<string, unknown>) {
  return json<{ state?: string; error?: string; confirm?: string }>(api(`/plugins/${id}/enabled`, { method: 'POST', body: JSON.stringify(body) }));
}

describe('the web console, issue 15 item 14', () => {
  const startConsole = useConsoles();

  describe('switching off the chatter that answers messages', () => {
    it('[issue 15] is refused without "confirm": true (409, with the question to ask), and the overview lists no chatter while it is off', async () => {
      const { test, api } = await startConsole();
      expect((await json<Overview>(api('/overview'))).body.chatters).toEqual([NDFC_CHATTER]);
      const plugins = await json<{ plugins: { id: string; chatters: string[] }[] }>(api('/plugins'));
      expect(plugins.body.plugins.find((plugin) => plugin.id === NDFC)!.chatters).toEqual([NDFC_CHATTER]);

      const asked = await switchPlugin(api, NDFC, { enabled: false });
      expect(asked.status).toBe(409);
      expect(asked.body.confirm).toBe(
        `${NDFC} answers messages (${NDFC_CHATTER}). No chatter will run: messages are stored but nobody answers them until a chatter is enabled again (then the ones that arrived meanwhile are answered). Disable it?`,
      );
      expect(test.host.plugins.get(NDFC)).toBeDefined();

      expect((await switchPlugin(api, NDFC, { enabled: false, confirm: true })).body.state).toBe('disabled');
      expect((await json<Overview>(api('/overview'))).body.chatters).toEqual([]);
      expect((await json<{ chatters: string[] }>(api('/sandbox'))).body.chatters).toEqual([]);

      // Switching on, and off a plugin without a chatter, ask nothing.
      expect((await switchPlugin(api, NDFC, { enabled: true })).body.state).toBe('loaded');
      expect((await json<Overview>(api('/overview'))).body.chatters).toEqual([NDFC_CHATTER]);
      expect((await switchPlugin(api, 'forward-message', { enabled: false })).body.state).toBe('disabled');
    });
  });

  describe('a message that arrived while no chatter ran', () => {
    // Off long enough that the failed runs' backoff (5 s, doubled each time) is past a minute:
    // an answer within seconds of switching back on comes from the switch, not from a retry.
    const OFF_FOR_MS = 120_000;

    it('[issue 15] is answered when the chatter is enabled again, in a conversation that started while it was off', async () => {
      const { test, api } = await startConsole();
      await switchPlugin(api, NDFC, { enabled: false, confirm: true });
      await test.adapter.send('关着的时候说的');
      await test.settle(OFF_FOR_MS);
      expect(test.adapter.texts()).toEqual([]);

      expect((await switchPlugin(api, NDFC, { enabled: true })).body.state).toBe('loaded');
      await test.settle(10_000);
      expect(test.adapter.texts()).toEqual(['（演示模型）收到：关着的时候说的']);
    });

    it('[issue 15] is answered when the chatter is enabled again, in a conversation it had answered before', async () => {
      const { test, api } = await startConsole();
      await test.adapter.send('你好');
      await test.settle(15_000);
      expect(test.adapter.texts()).toEqual(['（演示模型）收到：你好']);

      await switchPlugin(api, NDFC, { enabled: false, confirm: true });
      await test.adapter.send('关着的时候说的');
      await test.settle(OFF_FOR_MS);
      expect(test.adapter.texts()).toHaveLength(1);

      await switchPlugin(api, NDFC, { enabled: true });
      await test.settle(10_000);
      expect(test.adapter.texts()).toEqual(['（演示模型）收到：你好', '（演示模型）收到：关着的时候说的']);
    });
  });

  describe('traces', () => {
    interface TurnBody {
      source: string | null;
      outcome: string | null;
      toolCalls: { name: string; args: unknown; outcome: string; result: string }[];
      modelCalls: { model: string | null; task: string; prompt: { role: string; text: string }[] | null; toolCalls: { name: string }[] }[];
    }

    it('[issue 15] are one turn per answer (not one per session), with the tools, their arguments and results, a skipped repeat, and the prompt sent', async () => {
      // Each new message gets its calls; a follow-up (the model reading tool results) ends the turn.
      const { test, api } = await startConsole({
        script: (call) => {
          const last = call.payloads.at(-1)!;
          if (last.role !== 'user') return textReply('');
          if (JSON.stringify(last.content).includes('帮我记一下')) {
            return toolReply([
              { name: 'send_text', args: { content: '好的' } },
              { name: 'send_text', args: { content: '好的' } },
              { name: 'no_such_tool', args: { x: 1 } },
            ]);
          }
          return toolReply([{ name: 'send_text', args: { content: '第二句' } }]);
        },
      });
      await test.adapter.send('帮我记一下');
      await test.settle(15_000);
      await test.adapter.send('再说一句');
      await test.settle(15_000);
      expect(test.adapter.texts()).toEqual(['好的', '第二句']);

      const { body: list } = await json<{ streams: { streamId: string; name: string; platform: string; chatType: string; turns: number }[] }>(api('/traces'));
      expect(list.streams).toEqual([expect.objectContaining({ name: 'user 10001', platform: 'test', chatType: 'private', turns: 2 })]);
      const { body } = await json<{ name: string; turns: TurnBody[] }>(api(`/traces/${list.streams[0]!.streamId}`));
      expect(body.name).toBe('user 10001');
      const [second, first] = body.turns;
      expect(body.turns).toHaveLength(2);

      expect(first!.source).toBe('new');
      expect(first!.outcome).toBe('wait');
      expect(first!.toolCalls.map((call) => [call.name, call.args, call.outcome])).toEqual([
        ['send_text', { content: '好的' }, 'ok'],
        ['send_text', { content: '好的' }, 'duplicate'],
        ['no_such_tool', { x: 1 }, 'not run'],
      ]);
      expect(first!.toolCalls[0]!.result).toBe('已发送');
      expect(first!.modelCalls).toHaveLength(1);
      expect(first!.modelCalls[0]).toMatchObject({ model: 'offline-demo', task: 'actor' });
      expect(first!.modelCalls[0]!.prompt!.map((line) => line.role)).toEqual(['system', 'user']);
      expect(first!.modelCalls[0]!.prompt![1]!.text).toContain('帮我记一下');

      expect(second!.source).toBe('message');
      expect(second!.toolCalls.map((call) => [call.name, call.args, call.outcome, call.result])).toEqual([['send_text', { content: '第二句' }, 'ok', '已发送']]);
      // The prompt of the second turn carries the first turn's calls and what the model read back.
      const prompt = second!.modelCalls.flatMap((call) => call.prompt ?? []);
      expect(prompt.find((line) => line.role === 'assistant')!.text).toContain('→ send_text {"content":"好的"}');
      expect(prompt.filter((line) => line.role.startsWith('tool')).map((line) => line.role)).toEqual(
        expect.arrayContaining(['tool send_text', 'tool no_such_tool']),
      );
      expect(prompt.at(-1)!.text).toContain('再说一句');
    });

    it('[issue 15] name a group by its name, and leave the console’s own observers out of the handler lists', async () => {
      const { test, api } = await startConsole();
      await test.adapter.send('大家好', { group: 'g-42', mentionsBot: true });
      await test.settle(15_000);
      const { body: list } = await json<{ streams: { streamId: string; name: string; chatType: string }[] }>(api('/traces'));
      expect(list.streams.map((stream) => [stream.name, stream.chatType])).toEqual([['group g-42', 'group']]);
      const { body } = await json<{ turns: { publishes: { handlers: { label: string }[] }[] }[] }>(api(`/traces/${list.streams[0]!.streamId}`));
      const labels = body.turns.flatMap((turn) => turn.publishes.flatMap((publish) => publish.handlers.map((handler) => handler.label)));
      expect(labels.length).toBeGreaterThan(0);
      expect(labels.filter((label) => label.startsWith('moonglass:console_'))).toEqual([]);
    });
  });
});
