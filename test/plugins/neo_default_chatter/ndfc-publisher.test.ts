import { describe, expect, it } from 'vitest';
import { WaitResumeEvent } from '../../../src/chatter/wait-resume-event.js';
import { Wait } from '../../../src/chatter/chatter-result.js';
import { EventDecision } from '../../../src/kernel/event-bus/event-decision.js';
import { publishEvent as publicPublishEvent } from '../../../src/index.js';
import { ScriptedModel } from '../../../src/llm/scripted-model.js';
import type { ToolCall } from '../../../src/llm/tool-call.js';
import { ComputeCooldownDefaultHandler } from '../../../src/plugins/built_in/neo_default_chatter/defaults/compute_cooldown.js';
import { NdfcEvent } from '../../../src/plugins/built_in/neo_default_chatter/events/ndfc-event.js';
import { NdfcPublisher, type NdfcBus } from '../../../src/plugins/built_in/neo_default_chatter/events/ndfc-publisher.js';
import { PreprocessDecision } from '../../../src/plugins/built_in/neo_default_chatter/events/preprocess-decision.js';
import { message, ndfcConfig, streamWithUnreads, useNdfcHost } from './ndfc-test-host.js';

type Params = Record<string, unknown>;

interface PublisherCase {
  method: string;
  event: NdfcEvent;
  call: () => Promise<unknown>;
  /** Every key the subscriber must receive, with its pre-filled value. */
  prefilled: Params;
  /** What a STOP handler sets. */
  set: Params;
  /** What the method must then resolve to. */
  check: (result: unknown) => void;
}

describe('NdfcPublisher', () => {
  const startHost = useNdfcHost();

  async function fixtures() {
    const ndfc = await startHost({ offlineModel: new ScriptedModel({ message: '嗯' }) });
    const { stream, unreads } = await streamWithUnreads(ndfc.host, ['你好', '在吗']);
    const streamId = stream.streamId;
    const request = ndfc.runtime.createRequest(streamId, 'actor');
    const response = await request.send();
    const usables = await ndfc.runtime.usablesFor(streamId);
    const otherUsables = await ndfc.runtime.usablesFor(streamId);
    const config = ndfcConfig();
    return { ...ndfc, stream, unreads, streamId, request, response, usables, otherUsables, config };
  }

  it('[N-13] has the 16 methods of the seed (15 Tier II + preprocess) plus sessionTransition, all static', () => {
    const methods = Object.getOwnPropertyNames(NdfcPublisher).filter((name) => typeof (NdfcPublisher as unknown as Params)[name] === 'function');
    expect(methods.sort()).toEqual(
      [
        'preprocess',
        'fetchUnreads',
        'formatUnreadLine',
        'flushUnreads',
        'createRequest',
        'injectUsables',
        'injectUnreadPayload',
        'buildHistoryText',
        'buildNegativeExtra',
        'pickTriggerMessage',
        'buildResumePrompt',
        'runToolCall',
        'dedupeToolCall',
        'formatToolResult',
        'computeStopWake',
        'computeCooldown',
        'sessionTransition',
      ].sort(),
    );
  });

  it('[N-13] [N-41] each method pre-fills every key of its payload and reads the result back after a STOP', async () => {
    const f = await fixtures();
    const { streamId, stream, unreads, request, response, usables, otherUsables, config } = f;
    const call: ToolCall = { id: 'c1', name: 'send_text', args: { content: '嗨', reason: '打招呼' } };
    const seen = new Set<string>();
    const resume = new WaitResumeEvent('timer', { waitTime: 30 });
    const trigger = message({ messageId: 'picked' });
    const turn = new Wait();
    const cases: PublisherCase[] = [
      {
        method: 'preprocess',
        event: NdfcEvent.PREPROCESS,
        call: () => NdfcPublisher.preprocess({ chat_stream: stream, unreads, history_text: '历史', config }),
        prefilled: {
          stream_id: streamId,
          chat_type: 'group',
          chat_stream: stream,
          unreads,
          history_text: '历史',
          config,
          proceed: false,
          reason: '',
          mutations: '',
          force_stop_minutes: null,
        },
        set: { proceed: true, reason: '想聊', mutations: { mood: '开心' } },
        check: (result) => {
          expect(result).toBeInstanceOf(PreprocessDecision);
          expect(result).toMatchObject({ proceed: true, reason: '想聊', extra: 'mood: 开心', force_stop_minutes: null, published: true });
        },
      },
      {
        method: 'fetchUnreads',
        event: NdfcEvent.FETCH_UNREADS,
        call: () => NdfcPublisher.fetchUnreads(streamId),
        prefilled: { stream_id: streamId, messages: [] },
        set: { messages: [trigger] },
        check: (result) => expect(result).toEqual([trigger]),
      },
      {
        method: 'formatUnreadLine',
        event: NdfcEvent.FORMAT_UNREAD_LINE,
        call: () => NdfcPublisher.formatUnreadLine(streamId, unreads[0]!),
        prefilled: { stream_id: streamId, message: unreads[0], time_format: '%H:%M', formatted_line: '' },
        set: { formatted_line: '一行' },
        check: (result) => expect(result).toBe('一行'),
      },
      {
        method: 'flushUnreads',
        event: NdfcEvent.FLUSH_UNREADS,
        call: () => NdfcPublisher.flushUnreads(streamId, unreads),
        prefilled: { stream_id: streamId, messages: unreads, flushed_count: 0 },
        set: { flushed_count: 2 },
        check: (result) => expect(result).toBe(2),
      },
      {
        method: 'createRequest',
        event: NdfcEvent.CREATE_REQUEST,
        call: () => NdfcPublisher.createRequest(streamId, config.actor_task_name),
        prefilled: { stream_id: streamId, task_name: 'actor', request_name: '', with_reminder: 'actor', request: null },
        set: { request },
        check: (result) => expect(result).toBe(request),
      },
      {
        method: 'injectUsables',
        event: NdfcEvent.INJECT_USABLES,
        call: () => NdfcPublisher.injectUsables(streamId, request),
        prefilled: { stream_id: streamId, request, tool_registry: null, extra_tools: [] },
        set: { tool_registry: otherUsables },
        check: (result) => expect(result).toBe(otherUsables),
      },
      {
        method: 'injectUnreadPayload',
        event: NdfcEvent.INJECT_UNREAD_PAYLOAD,
        call: () => NdfcPublisher.injectUnreadPayload(streamId, request, '新消息', unreads, false),
        prefilled: { stream_id: streamId, response: request, formatted_text: '新消息', unread_msgs: unreads, native_multimodal: false, skip: false },
        set: { skip: true },
        check: (result) => expect(result).toBe(true),
      },
      {
        method: 'buildHistoryText',
        event: NdfcEvent.BUILD_HISTORY_TEXT,
        call: () => NdfcPublisher.buildHistoryText(streamId, stream),
        prefilled: { stream_id: streamId, chat_stream: stream, lines: [] },
        set: { lines: ['旧'] },
        check: (result) => expect(result).toEqual(['旧']),
      },
      {
        method: 'buildNegativeExtra',
        event: NdfcEvent.BUILD_NEGATIVE_EXTRA,
        call: () => NdfcPublisher.buildNegativeExtra(streamId, config),
        prefilled: { stream_id: streamId, config, fragments: [] },
        set: { fragments: ['别这样'] },
        check: (result) => expect(result).toEqual(['别这样']),
      },
      {
        method: 'pickTriggerMessage',
        event: NdfcEvent.PICK_TRIGGER_MESSAGE,
        call: () => NdfcPublisher.pickTriggerMessage(streamId, stream, unreads, null, stream.history),
        prefilled: { stream_id: streamId, chat_stream: stream, unreads, current_message: null, history: stream.history, trigger: null },
        set: { trigger },
        check: (result) => expect(result).toBe(trigger),
      },
      {
        method: 'buildResumePrompt',
        event: NdfcEvent.BUILD_RESUME_PROMPT,
        call: () => NdfcPublisher.buildResumePrompt(streamId, resume),
        prefilled: { stream_id: streamId, resume_event: resume, source: 'timer', prompt: '' },
        set: { prompt: '醒醒' },
        check: (result) => expect(result).toBe('醒醒'),
      },
      {
        method: 'runToolCall',
        event: NdfcEvent.RUN_TOOL_CALL,
        call: () => NdfcPublisher.runToolCall(streamId, [call], response, usables, trigger),
        prefilled: { stream_id: streamId, calls: [call], response, usable_map: usables, trigger_msg: trigger, results: [] },
        set: { results: [[true, false]] },
        check: (result) => expect(result).toEqual([[true, false]]),
      },
      {
        method: 'dedupeToolCall',
        event: NdfcEvent.DEDUPE_TOOL_CALL,
        call: () => NdfcPublisher.dedupeToolCall(streamId, call, seen),
        prefilled: { stream_id: streamId, call, seen_signatures: seen, is_duplicate: false },
        set: { is_duplicate: true },
        check: (result) => expect(result).toBe(true),
      },
      {
        method: 'formatToolResult',
        event: NdfcEvent.FORMAT_TOOL_RESULT,
        call: () => NdfcPublisher.formatToolResult(streamId, 'pass_and_wait', 'pass', { seconds: 30 }),
        prefilled: { stream_id: streamId, call_name: 'pass_and_wait', kind: 'pass', args: { seconds: 30 }, result_text: '' },
        set: { result_text: '好' },
        check: (result) => expect(result).toBe('好'),
      },
      {
        method: 'computeStopWake',
        event: NdfcEvent.COMPUTE_STOP_WAKE,
        call: () => NdfcPublisher.computeStopWake(streamId, config, 'private'),
        prefilled: { stream_id: streamId, config, chat_type: 'private', probability: 0 },
        set: { probability: 0.25 },
        check: (result) => expect(result).toBe(0.25),
      },
      {
        method: 'computeCooldown',
        event: NdfcEvent.COMPUTE_COOLDOWN,
        call: () => NdfcPublisher.computeCooldown(streamId, 5, config),
        prefilled: { stream_id: streamId, minutes: 5, config, cooldown_seconds: 0 },
        set: { cooldown_seconds: 999 },
        check: (result) => expect(result).toBe(999),
      },
      {
        method: 'sessionTransition',
        event: NdfcEvent.SESSION_TRANSITION,
        call: () => NdfcPublisher.sessionTransition(streamId, 'TOOL_EXEC', 'WAIT_USER', turn),
        prefilled: { stream_id: streamId, from_phase: 'TOOL_EXEC', to_phase: 'WAIT_USER', turn_result: turn },
        set: {},
        check: (result) => expect(result).toBeUndefined(),
      },
    ];
    expect(new Set(cases.map((entry) => entry.event)).size).toBe(Object.values(NdfcEvent).length);

    for (const entry of cases) {
      const received: Params[] = [];
      const dispose = f.host.bus.subscribe(entry.event as string, (_name, params: Params) => {
        received.push(params);
        return [EventDecision.STOP, { ...params, ...entry.set }];
      }, { weight: 1000 });
      const result = await entry.call();
      dispose();
      expect(received, entry.method).toHaveLength(1);
      expect(Object.keys(received[0]!).sort(), entry.method).toEqual(Object.keys(entry.prefilled).sort());
      expect(received[0], entry.method).toEqual(entry.prefilled);
      entry.check(result);
    }
  });

  it('[N-13] reads back the default of a field a handler set to a value of the wrong type', async () => {
    const { host, streamId } = await fixtures();
    host.bus.subscribe(NdfcEvent.FETCH_UNREADS, (_name, params) => [EventDecision.STOP, { ...params, messages: null as never }]);
    host.bus.subscribe(NdfcEvent.COMPUTE_COOLDOWN, (_name, params) => [EventDecision.STOP, { ...params, cooldown_seconds: -30 }]);
    expect(await NdfcPublisher.fetchUnreads(streamId)).toEqual([]);
    expect(await NdfcPublisher.computeCooldown(streamId, 5, ndfcConfig())).toBe(0);
  });

  it('[N-18] injectUsables adds every extra_tools entry to the registry read back and declares it on the request', async () => {
    const { host, streamId, request, usables } = await fixtures();
    const extra = {
      signature: 'third:tool:weather',
      kind: 'tool' as const,
      name: 'weather',
      declaration: { type: 'function' as const, function: { name: 'weather', description: '查天气', parameters: { type: 'object', properties: {} } } },
      run: async () => {
        throw new Error('not called');
      },
    };
    host.bus.subscribe(NdfcEvent.INJECT_USABLES, (_name, params) => {
      params.extra_tools.push(extra);
      return [EventDecision.SUCCESS, { ...params, tool_registry: usables }];
    });
    const registry = await NdfcPublisher.injectUsables(streamId, request);
    expect(registry).toBe(usables);
    expect(registry!.get('weather')).toBe(extra);
    expect(request.tools.map((declaration) => declaration.function.name)).toContain('weather');
  });

  it('[N-14] a third party publishes an NDFC event itself with the public publishEvent and gets the default result', async () => {
    const { register, streamId, config } = await fixtures();
    register(ComputeCooldownDefaultHandler);
    const { decision, params } = await publicPublishEvent(NdfcEvent.COMPUTE_COOLDOWN, { stream_id: streamId, minutes: 2, config, cooldown_seconds: 0 });
    expect(decision).toBe(EventDecision.SUCCESS);
    expect(params.cooldown_seconds).toBe(120);
    const byString = await publicPublishEvent('neo_default_chatter:compute_cooldown', { stream_id: streamId, minutes: 0.5, config, cooldown_seconds: 0 });
    expect(byString.params.cooldown_seconds).toBe(30);
  });

  describe('preprocess', () => {
    it('[N-34] with no subscriber is not published and the message proceeds (module-level publish and a given bus)', async () => {
      const { host, stream, unreads, config } = await fixtures();
      const input = { chat_stream: stream, unreads, history_text: '', config };
      const viaHost = await NdfcPublisher.preprocess(input);
      expect(viaHost).toMatchObject({ proceed: true, published: false, reason: '', extra: '', force_stop_minutes: null });
      expect(viaHost.raw_params).toMatchObject({ stream_id: stream.streamId, proceed: false });
      const viaBus = await NdfcPublisher.preprocess(input, { bus: host.bus });
      expect(viaBus).toMatchObject({ proceed: true, published: false });
    });

    it('[N-34] with subscribers that leave proceed false, is published and does not proceed', async () => {
      const { host, stream, unreads, config } = await fixtures();
      host.bus.subscribe(NdfcEvent.PREPROCESS, (_name, params) => [EventDecision.PASS, params]);
      const input = { chat_stream: stream, unreads, history_text: '', config };
      expect(await NdfcPublisher.preprocess(input)).toMatchObject({ proceed: false, published: true });
      expect(await NdfcPublisher.preprocess(input, { bus: host.bus })).toMatchObject({ proceed: false, published: true });
    });

    it('[N-34] a handler forcing a stop gives force_stop_minutes; the reason is kept', async () => {
      const { host, stream, unreads, config } = await fixtures();
      host.bus.subscribe(NdfcEvent.PREPROCESS, (_name, params) => [EventDecision.STOP, { ...params, reason: '刷屏', force_stop_minutes: 10 }]);
      const decision = await NdfcPublisher.preprocess({ chat_stream: stream, unreads, history_text: '', config });
      expect(decision).toMatchObject({ proceed: false, reason: '刷屏', force_stop_minutes: 10, published: true });
      expect(decision.raw_params['force_stop_minutes']).toBe(10);
    });

    it('[N-34] fails open: a publish that throws lets the message proceed and is logged', async () => {
      const { stream, unreads, config, host, records } = await fixtures();
      const failing: NdfcBus = {
        subscribers: (name) => host.bus.subscribers(name).concat([{ event: name, weight: 1, timeout: undefined, label: 'x', owner: undefined, order: 0 }]),
        publish: () => Promise.reject(new Error('bus down')),
      };
      const decision = await NdfcPublisher.preprocess({ chat_stream: stream, unreads, history_text: '', config }, { bus: failing, logger: host.logger });
      expect(decision).toMatchObject({ proceed: true, published: false, reason: 'preprocess 发布失败：bus down' });
      expect(records.filter((record) => record.level === 'warn' && record.msg.includes('preprocess could not be published'))).toHaveLength(1);
    });

    it('[N-34] fails open when no host is running', async () => {
      const stream = { streamId: 's1', chatType: 'private' } as never;
      const decision = await NdfcPublisher.preprocess({ chat_stream: stream, unreads: [], history_text: '', config: ndfcConfig() });
      expect(decision.proceed).toBe(true);
      expect(decision.published).toBe(false);
      expect(decision.raw_params).toMatchObject({ stream_id: 's1', chat_type: 'private' });
    });
  });
});
