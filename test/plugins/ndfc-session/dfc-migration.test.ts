import { describe, expect, it } from 'vitest';
import { BaseEventHandler, EventDecision, eventHandler, inject, TOKENS, type ChatRuntime, type LLMRequest } from 'moonglass';
import { NdfcEvent } from 'moonglass/ndfc';
import { SequenceRandom } from '../../../src/kernel/time/random.js';
import { useTestHosts } from '../../support/ndfc.js';

type Params = Record<string, unknown>;

/** A handler class that STOPs `event` after `fill` changed the params: the seed's "订阅 + STOP + 填 X". */
function replacing(name: string, event: string, fill: (params: Params, runtime: ChatRuntime) => void | Promise<void>) {
  @eventHandler({ name, subscribe: [event], weight: 200 })
  class Replacement extends BaseEventHandler {
    constructor(@inject(TOKENS.ChatRuntime) private readonly runtime: ChatRuntime) {
      super();
    }
    async execute(_event: string, params: Params) {
      await fill(params, this.runtime);
      return [EventDecision.STOP, params] as const;
    }
  }
  return Replacement;
}

describe('[N-43] each DFC adapter slot is served by its NDFC event', () => {
  const start = useTestHosts();

  async function run(handler: ReturnType<typeof replacing>, options: { group?: boolean; random?: number[] } = {}) {
    const test = await start(options.random === undefined ? {} : { random: new SequenceRandom(options.random) });
    test.host.registry.register(test.host.createScope('third_party'), handler);
    await test.adapter.send('原始消息', options.group ? { group: 'g1' } : {});
    await test.settle(15_000);
    const call = test.model.calls[0];
    const text = (call?.payloads ?? []).map((payload) => String(payload.content)).join('\n');
    return { test, call, text };
  }

  it('request_adapter.create_request → :create_request (STOP + request)', async () => {
    const { text } = await run(
      replacing('my_request', NdfcEvent.CREATE_REQUEST, (params, runtime) => {
        const request = runtime.createRequest(String(params['stream_id']), 'actor', 'actor');
        request.addPayload({ role: 'system', content: 'REQUEST-MARKER' });
        params['request'] = request;
      }),
    );
    expect(text).toContain('REQUEST-MARKER');
  });

  it('prompt_adapter._build_enhanced_history_text → :build_history_text (STOP + lines)', async () => {
    const { text } = await run(replacing('my_history', NdfcEvent.BUILD_HISTORY_TEXT, (params) => void (params['lines'] = ['HISTORY-MARKER'])));
    expect(text).toContain('HISTORY-MARKER');
  });

  it('unread_adapter.format_message_line → :format_unread_line (STOP + formatted_line)', async () => {
    const { text } = await run(replacing('my_line', NdfcEvent.FORMAT_UNREAD_LINE, (params) => void (params['formatted_line'] = 'LINE-MARKER')));
    expect(text).toContain('LINE-MARKER');
    expect(text).not.toContain('原始消息');
  });

  it('unread_adapter._upsert_pending_unread_payload → :inject_unread_payload (STOP + inject into response yourself)', async () => {
    const { text } = await run(
      replacing('my_inject', NdfcEvent.INJECT_UNREAD_PAYLOAD, (params) => {
        (params['response'] as LLMRequest).addPayload({ role: 'user', content: 'INJECT-MARKER' });
      }),
    );
    expect(text).toContain('INJECT-MARKER');
  });

  it('unread_adapter.flush_unreads → :flush_unreads (STOP + flushed_count): the default flush does not run', async () => {
    const { test } = await run(replacing('my_flush', NdfcEvent.FLUSH_UNREADS, (params) => void (params['flushed_count'] = 0)));
    const [streamId] = test.host.chat.streams.activeStreamIds();
    expect(test.host.chat.database.messages.unread(streamId!).map((message) => message.content)).toEqual(['原始消息']);
  });

  it('usable_adapter.inject_usables → :inject_usables (STOP + tool_registry)', async () => {
    const { call } = await run(
      replacing('my_usables', NdfcEvent.INJECT_USABLES, async (params, runtime) => {
        const usables = await runtime.usablesFor(String(params['stream_id']));
        (params['request'] as LLMRequest).tools = usables.declarations().filter((declaration) => declaration.function.name !== 'stop_conversation');
        params['tool_registry'] = usables;
      }),
    );
    const names = (call?.tools ?? []).map((tool) => tool.function.name);
    expect(names).toContain('send_text');
    expect(names).not.toContain('stop_conversation');
  });

  it('tool_execution_adapter.run_tool_call → :run_tool_call (STOP + results): the calls are handled by the replacement', async () => {
    const { test } = await run(replacing('my_run', NdfcEvent.RUN_TOOL_CALL, (params) => void (params['results'] = [])));
    expect(test.adapter.texts()).toEqual([]);
    expect(test.model.calls).toHaveLength(1);
  });

  it('sub_agent_adapter.sub_agent → :preprocess (STOP + proceed): a group message the gate would decline is answered', async () => {
    const { test } = await run(
      replacing('my_gate', NdfcEvent.PREPROCESS, (params) => {
        params['proceed'] = true;
        params['reason'] = 'my own gate';
      }),
      { group: true, random: [0.99] },
    );
    expect(test.adapter.texts()).toHaveLength(1);
  });
});
