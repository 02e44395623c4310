import { describe, expect, it } from 'vitest';
import { Stop } from '../../../src/chatter/chatter-result.js';
import type { Usable } from '../../../src/chatter/usables.js';
import { WaitResumeEvent } from '../../../src/chatter/wait-resume-event.js';
import { readComponentMetadata, type EventHandlerMetadata } from '../../../src/kernel/components/component-metadata.js';
import { BaseAction } from '../../../src/chatter/base-action.js';
import { BaseEventHandler } from '../../../src/kernel/event-bus/base-event-handler.js';
import { action, eventHandler } from '../../../src/kernel/components/decorators.js';
import { EventDecision } from '../../../src/kernel/event-bus/event-decision.js';
import { publishEvent } from '../../../src/kernel/runtime/module-api.js';
import { ScriptedModel } from '../../../src/llm/scripted-model.js';
import { ToolExecutionResult } from '../../../src/tools/tool-execution-result.js';
import { DEFAULT_HANDLERS } from '../../../src/plugins/built_in/neo_default_chatter/defaults/default-handlers.js';
import { NEGATIVE_BEHAVIORS } from '../../../src/plugins/built_in/neo_default_chatter/defaults/negative-behaviors.js';
import { RunToolCallDefaultHandler } from '../../../src/plugins/built_in/neo_default_chatter/defaults/run_tool_call.js';
import { NdfcEvent } from '../../../src/plugins/built_in/neo_default_chatter/events/ndfc-event.js';
import { NdfcPublisher } from '../../../src/plugins/built_in/neo_default_chatter/events/ndfc-publisher.js';
import type { InjectUsablesPayload } from '../../../src/plugins/built_in/neo_default_chatter/events/ndfc-payloads.js';
import { message, ndfcConfig, streamWithUnreads, useNdfcHost } from './ndfc-test-host.js';

const pad = (value: number) => String(value).padStart(2, '0');
const hhmm = (epochSeconds: number) => {
  const date = new Date(epochSeconds * 1000);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

@action('note_down', { description: '记下一件事。', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
class NoteDown extends BaseAction {
  async execute(args: Record<string, unknown>) {
    return ToolExecutionResult.ok('note_down', `记下了：${String(args['text'])}`);
  }
}

function failingTool(name: string): Usable {
  return {
    signature: `third:tool:${name}`,
    kind: 'tool',
    name,
    declaration: { type: 'function', function: { name, description: '总是失败', parameters: { type: 'object', properties: {} } } },
    run: async () => ToolExecutionResult.fail(name, '服务不可用'),
  };
}

describe('NDFC default handlers', () => {
  const startHost = useNdfcHost();

  it('[N-01] are one <seam>_default per NDFC event but preprocess, at weight 0, signed neo_default_chatter:event_handler:<seam>_default', async () => {
    const { host } = await startHost({ defaults: true });
    const expected = Object.values(NdfcEvent)
      .filter((event) => event !== NdfcEvent.PREPROCESS)
      .map((event) => ({ event, label: `neo_default_chatter:event_handler:${event.slice('neo_default_chatter:'.length)}_default`, weight: 0 }));
    expect(DEFAULT_HANDLERS).toHaveLength(16);
    for (const { event, label, weight } of expected) {
      expect(host.bus.subscribers(event).map((subscriber) => ({ label: subscriber.label, weight: subscriber.weight }))).toEqual([{ label, weight }]);
    }
    expect(host.bus.subscribers(NdfcEvent.PREPROCESS)).toEqual([]);
  });

  it('[N-17] create_request: {stream_id, task_name, request_name "", with_reminder "actor", request null}; the default makes a request for the task, named after it', async () => {
    const streamId = 's-create';
    await startHost({ defaults: true });
    const request = await NdfcPublisher.createRequest(streamId, 'actor');
    expect(request).toMatchObject({ taskName: 'actor', requestName: 'actor', streamId });
    const named = await NdfcPublisher.createRequest(streamId, 'actor', 'my_request');
    expect(named?.requestName).toBe('my_request');
  });

  it('[N-18] inject_usables: the default fills tool_registry with what the stream offers and declares it, extra_tools included', async () => {
    const ndfc = await startHost({ defaults: true });
    ndfc.registerAs('notes', NoteDown);
    const extra = failingTool('weather');

    @eventHandler({ name: 'add_weather', subscribe: [NdfcEvent.INJECT_USABLES], weight: 100 })
    class AddWeather extends BaseEventHandler<typeof NdfcEvent.INJECT_USABLES> {
      execute(_event: typeof NdfcEvent.INJECT_USABLES, params: InjectUsablesPayload) {
        params.extra_tools.push(extra);
        return [EventDecision.SUCCESS, params] as const;
      }
    }
    ndfc.registerAs('weather', AddWeather);
    const request = ndfc.runtime.createRequest('s1', 'actor');
    const registry = await NdfcPublisher.injectUsables('s1', request);
    expect(registry?.names().sort()).toEqual(['note_down', 'weather']);
    expect(request.tools.map((declaration) => declaration.function.name)).toEqual(['note_down', 'weather']);
  });

  it('[N-19] fetch_unreads: {stream_id, messages []}; the default reads the stream\'s unread messages, oldest first', async () => {
    const { host } = await startHost({ defaults: true });
    const { stream } = await streamWithUnreads(host, ['一', '二']);
    const messages = await NdfcPublisher.fetchUnreads(stream.streamId);
    expect(messages.map((item) => item.content)).toEqual(['一', '二']);
  });

  it('[N-20] format_unread_line: {stream_id, message, time_format "%H:%M", formatted_line ""}; the default writes 【HH:MM】card-or-name（用户 id，消息 id）： text', async () => {
    const { clock } = await startHost({ defaults: true });
    // An hour after the manual clock's start: the same day in every zone (UTC-12 to UTC+14).
    const today = clock.now() / 1000 + 3600;
    const carded = message({ time: today, senderCard: '明明', processedPlainText: '大家好' });
    expect(await NdfcPublisher.formatUnreadLine('s1', carded)).toBe(`【${hhmm(today)}】明明（用户 10001，消息 m1）： 大家好`);
    const plain = message({ time: today, senderCard: '', processedPlainText: '', content: '原文' });
    expect(await NdfcPublisher.formatUnreadLine('s1', plain)).toBe(`【${hhmm(today)}】阿明（用户 10001，消息 m1）： 原文`);
    const date = new Date(today * 1000);
    expect(await NdfcPublisher.formatUnreadLine('s1', carded, '%Y-%m-%d %H:%M:%S %%')).toBe(
      `【${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${hhmm(today)}:${pad(date.getSeconds())} %】明明（用户 10001，消息 m1）： 大家好`,
    );
    // A message from another day shows its date before the time.
    const old = 1_700_000_000;
    const oldDate = new Date(old * 1000);
    expect(await NdfcPublisher.formatUnreadLine('s1', message({ time: old }))).toBe(
      `【${oldDate.getFullYear()}-${pad(oldDate.getMonth() + 1)}-${pad(oldDate.getDate())} ${hhmm(old)}】阿明（用户 10001，消息 m1）： 你好`,
    );
  });

  it('[N-21] flush_unreads: {stream_id, messages, flushed_count 0}; the default moves exactly those messages to history', async () => {
    const { host } = await startHost({ defaults: true });
    const { stream, unreads } = await streamWithUnreads(host, ['一', '二', '三']);
    expect(await NdfcPublisher.flushUnreads(stream.streamId, unreads.slice(0, 2))).toBe(2);
    expect(host.chat.streams.fetchUnreads(stream.streamId).map((item) => item.content)).toEqual(['三']);
    expect(stream.history.map((item) => item.content)).toEqual(['一', '二']);
  });

  it('[N-22] inject_unread_payload: the default appends formatted_text to the shared response unless skip', async () => {
    const ndfc = await startHost({ defaults: true, offlineModel: new ScriptedModel({ message: '嗯' }) });
    const request = ndfc.runtime.createRequest('s1', 'actor');
    expect(await NdfcPublisher.injectUnreadPayload('s1', request, '【12:00】阿明 [1]： 你好', [], false)).toBe(false);
    expect(request.payloads).toEqual([{ role: 'user', content: '【12:00】阿明 [1]： 你好' }]);

    const response = await request.send();
    await NdfcPublisher.injectUnreadPayload('s1', response, '又来了', null, false);
    expect(response.request.payloads.at(-1)).toEqual({ role: 'user', content: '又来了' });

    const skipper = ndfc.host.bus.subscribe(NdfcEvent.INJECT_UNREAD_PAYLOAD, (_name, params) => [EventDecision.SUCCESS, { ...params, skip: true }], { weight: 100 });
    const before = request.payloads.length;
    expect(await NdfcPublisher.injectUnreadPayload('s1', request, '不要注入', [], false)).toBe(true);
    expect(request.payloads).toHaveLength(before);
    skipper();
  });

  it('[N-23] build_history_text: {stream_id, chat_stream, lines []}; the default formats the history like unread lines', async () => {
    const { host } = await startHost({ defaults: true });
    const { stream, unreads } = await streamWithUnreads(host, ['早', '吃了吗']);
    host.chat.streams.flushUnreads(stream.streamId, unreads);
    const lines = await NdfcPublisher.buildHistoryText(stream.streamId, stream);
    expect(lines).toEqual(unreads.map((item) => `【${hhmm(item.time)}】明明（用户 10001，消息 ${item.messageId}）： ${item.content}`));
  });

  it('[N-24] build_negative_extra: a third party appends with SUCCESS, then the default appends NDFC\'s eight (when reinforced)', async () => {
    const ndfc = await startHost({ defaults: true });
    @eventHandler({ name: 'no_internal_details', subscribe: ['neo_default_chatter:build_negative_extra'], weight: 200 })
    class NoInternalDetails extends BaseEventHandler {
      execute(_event: string, params: Record<string, unknown>) {
        (params['fragments'] as string[]).push('禁止透露：事件名、handler weight、payload schema、内部实现细节');
        return [EventDecision.SUCCESS, params] as const;
      }
    }
    ndfc.registerAs('third', NoInternalDetails);
    expect(NEGATIVE_BEHAVIORS).toHaveLength(8);
    expect(await NdfcPublisher.buildNegativeExtra('s1', ndfcConfig())).toEqual(['禁止透露：事件名、handler weight、payload schema、内部实现细节', ...NEGATIVE_BEHAVIORS]);
    expect(await NdfcPublisher.buildNegativeExtra('s1', ndfcConfig({ reinforce_negative_behaviors: false }))).toEqual([
      '禁止透露：事件名、handler weight、payload schema、内部实现细节',
    ]);
    expect(await NdfcPublisher.buildNegativeExtra('s1', null)).toHaveLength(9);
  });

  it('[N-25] pick_trigger_message: the default picks the last unread, else current_message, else the last of history, else null', async () => {
    const { host } = await startHost({ defaults: true });
    const { stream } = await streamWithUnreads(host, ['x']);
    const [a, b, current, old] = ['a', 'b', 'current', 'old'].map((id) => message({ messageId: id }));
    expect(await NdfcPublisher.pickTriggerMessage('s1', stream, [a!, b!], current!, [old!])).toBe(b);
    expect(await NdfcPublisher.pickTriggerMessage('s1', stream, [], current!, [old!])).toBe(current);
    expect(await NdfcPublisher.pickTriggerMessage('s1', stream, [], null, [message(), old!])).toBe(old);
    expect(await NdfcPublisher.pickTriggerMessage('s1', stream, [], null, [])).toBeNull();
  });

  it('[N-26] build_resume_prompt: {stream_id, resume_event, source, prompt ""}; timer branch, generic branch, empty for message', async () => {
    await startHost({ defaults: true });
    expect(await NdfcPublisher.buildResumePrompt('s1', new WaitResumeEvent('timer', { waitTime: 30 }))).toMatch(/^等待 30 秒已经结束。/);
    expect(await NdfcPublisher.buildResumePrompt('s1', new WaitResumeEvent('message', { unreadCount: 2 }))).toBe('');
    const generic = await NdfcPublisher.buildResumePrompt('s1', new WaitResumeEvent('sub_agent', { extra: { result: '查到了' } }));
    expect(generic).toBe('收到来自「sub_agent」的恢复事件，附带信息：{"result":"查到了"}。请结合上下文决定接下来怎么做。');
    // The branch follows `source`, which the session pre-fills from the event and a handler may change.
    expect(await NdfcPublisher.buildResumePrompt('s1', new WaitResumeEvent('timer', { waitTime: 5 }), 'message')).toBe('');
  });

  it('[N-27] run_tool_call: the default runs the calls, adds each result to the shared response, fills [success, needsFollowUp]; no timeout', async () => {
    const metadata = readComponentMetadata(RunToolCallDefaultHandler) as EventHandlerMetadata;
    expect(metadata).toMatchObject({ name: 'run_tool_call_default', weight: 0, timeout: 0, subscribe: [NdfcEvent.RUN_TOOL_CALL] });

    const toolCalls = [
      { id: 'c1', name: 'note_down', args: { text: '买牛奶' } },
      { id: 'c2', name: 'weather', args: {} },
    ];
    const ndfc = await startHost({ defaults: true, offlineModel: new ScriptedModel({ toolCalls }) });
    expect(ndfc.host.bus.subscribers(NdfcEvent.RUN_TOOL_CALL)[0]!.timeout).toBe(0);
    ndfc.registerAs('notes', NoteDown);
    const usables = await ndfc.runtime.usablesFor('s1');
    usables.add(failingTool('weather'));
    const request = ndfc.runtime.createRequest('s1', 'actor');
    request.addPayload({ role: 'user', content: '记一下买牛奶，再查天气' });
    const response = await request.send();

    const results = await NdfcPublisher.runToolCall('s1', response.toolCalls, response, usables, null);
    expect(results).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(request.payloads.slice(1)).toEqual([
      { role: 'assistant', content: '', tool_calls: toolCalls },
      { role: 'tool', tool_call_id: 'c1', name: 'note_down', content: '记下了：买牛奶' },
      { role: 'tool', tool_call_id: 'c2', name: 'weather', content: '失败：服务不可用' },
    ]);
  });

  it('[N-28] dedupe_tool_call: same name and arguments (reason ignored, key order ignored) within the shared set is a duplicate', async () => {
    await startHost({ defaults: true });
    const seen = new Set<string>();
    const call = (args: Record<string, unknown>, name = 'send_text') => ({ id: 'c', name, args });
    expect(await NdfcPublisher.dedupeToolCall('s1', call({ content: '你好', at: '1', reason: '打招呼' }), seen)).toBe(false);
    expect(seen.size).toBe(1);
    expect(await NdfcPublisher.dedupeToolCall('s1', call({ at: '1', content: '你好', reason: '换个理由' }), seen)).toBe(true);
    expect(await NdfcPublisher.dedupeToolCall('s1', call({ content: '你好呀' }), seen)).toBe(false);
    expect(await NdfcPublisher.dedupeToolCall('s1', call({ content: '你好', at: '1' }, 'other_tool'), seen)).toBe(false);
    expect(seen.size).toBe(3);
  });

  it('[N-29] format_tool_result: the seed\'s texts for pass, stop, duplicate, and "" for normal', async () => {
    await startHost({ defaults: true });
    expect(await NdfcPublisher.formatToolResult('s1', 'pass_and_wait', 'pass', { seconds: 30 })).toBe('已登记等待 30 秒');
    expect(await NdfcPublisher.formatToolResult('s1', 'stop_conversation', 'stop', { minutes: 10 })).toBe('对话已结束，将在 10 分钟后允许新对话');
    expect(await NdfcPublisher.formatToolResult('s1', 'stop_conversation', 'stop', {})).toBe('对话已结束，将在 5 分钟后允许新对话');
    expect(await NdfcPublisher.formatToolResult('s1', 'send_text', 'duplicate', { content: 'x' })).toBe('检测到重复工具调用，已自动跳过');
    expect(await NdfcPublisher.formatToolResult('s1', 'send_text', 'normal', { content: 'x' })).toBe('');
  });

  it('[N-30] compute_stop_wake: 0.0 in groups and with the switch off; the clamped probability in private chats with it on', async () => {
    await startHost({ defaults: true });
    const on = ndfcConfig({ enable_stop_direct_message_wake: true, stop_direct_message_wake_probability: 0.3 });
    expect(await NdfcPublisher.computeStopWake('s1', on, 'group')).toBe(0);
    expect(await NdfcPublisher.computeStopWake('s1', ndfcConfig(), 'private')).toBe(0);
    expect(await NdfcPublisher.computeStopWake('s1', on, 'private')).toBe(0.3);
    expect(await NdfcPublisher.computeStopWake('s1', { ...on, stop_direct_message_wake_probability: 1.7 }, 'private')).toBe(1);
    expect(await NdfcPublisher.computeStopWake('s1', { ...on, stop_direct_message_wake_probability: -1 }, 'private')).toBe(0);
  });

  it('[N-31] compute_cooldown: int(minutes * 60) when enable_cooldown, else 0', async () => {
    await startHost({ defaults: true });
    expect(await NdfcPublisher.computeCooldown('s1', 5, ndfcConfig())).toBe(300);
    expect(await NdfcPublisher.computeCooldown('s1', 2.759, ndfcConfig())).toBe(165);
    expect(await NdfcPublisher.computeCooldown('s1', 5, ndfcConfig({ enable_cooldown: false }))).toBe(0);
  });

  it('[N-32] session_transition: {stream_id, from_phase, to_phase, turn_result}; the default only logs at debug and passes', async () => {
    const { records } = await startHost({ defaults: true });
    const { decision } = await publishEvent(NdfcEvent.SESSION_TRANSITION, { stream_id: 's1', from_phase: 'TOOL_EXEC', to_phase: 'WAIT_USER', turn_result: new Stop(300) });
    expect(decision).toBe(EventDecision.PASS);
    const lines = records.filter((record) => record.msg === 'NDFC session TOOL_EXEC -> WAIT_USER');
    expect(lines).toEqual([expect.objectContaining({ level: 'debug', stream_id: 's1', from_phase: 'TOOL_EXEC', to_phase: 'WAIT_USER', turn_result: 'stop' })]);
  });

  it('[N-33] preprocess: the ten pre-filled keys; a handler may change the four decision fields, never add a key', async () => {
    const ndfc = await startHost({ defaults: true });
    const { stream, unreads } = await streamWithUnreads(ndfc.host, ['在吗']);
    const received: object[] = [];
    ndfc.host.bus.subscribe(NdfcEvent.PREPROCESS, (_name, params) => {
      received.push(params);
      return [EventDecision.SUCCESS, { ...params, proceed: true, extra_field: 1 } as typeof params];
    }, { weight: 200 });
    const decision = await NdfcPublisher.preprocess({ chat_stream: stream, unreads, history_text: '', config: ndfcConfig() });
    expect(Object.keys(received[0]!)).toEqual([
      'stream_id',
      'chat_type',
      'chat_stream',
      'unreads',
      'history_text',
      'config',
      'proceed',
      'reason',
      'mutations',
      'force_stop_minutes',
    ]);
    expect(decision).toMatchObject({ published: true, proceed: false });
  });
});
