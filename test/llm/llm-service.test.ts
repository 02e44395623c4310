import { afterEach, describe, expect, it } from 'vitest';
import { EventDecision } from '../../src/kernel/event-bus/event-decision.js';
import { LlmRequestFailedError } from '../../src/llm/errors/llm-request-failed-error.js';
import { LlmTaskError } from '../../src/llm/errors/llm-task-error.js';
import { ModelRequestError } from '../../src/llm/errors/model-request-error.js';
import type { AfterLlmRequestPayload, BeforeLlmRequestPayload, LlmRequestFailedPayload } from '../../src/llm/llm-event-payloads.js';
import { LlmService, type LlmServiceOptions } from '../../src/llm/llm-service.js';
import type { ModelClient } from '../../src/llm/model-client.js';
import { ModelsConfigSchema } from '../../src/llm/models-config.js';
import { ScriptedModel } from '../../src/llm/scripted-model.js';
import type { ToolDeclaration } from '../../src/llm/tool-declaration.js';
import type { ManualClock } from '../../src/kernel/time/manual-clock.js';
import { createTestBus } from '../support/bus.js';
import { FakeOpenAiServer, json } from './support/fake-openai-server.js';

const SEND_TEXT: ToolDeclaration = {
  type: 'function',
  function: { name: 'send_text', description: '发送文本', parameters: { type: 'object', properties: { content: { type: 'string' } } } },
};

function twoProviderConfig(primaryUrl = 'http://127.0.0.1:9/v1') {
  return ModelsConfigSchema.parse({
    providers: { primary: { base_url: primaryUrl }, backup: { base_url: 'http://127.0.0.1:9/v1' } },
    models: { main: { provider: 'primary', model: 'main-id', temperature: 0.2 }, spare: { provider: 'backup', model: 'spare-id' } },
    tasks: { actor: { models: ['main', 'spare'] }, utils: { models: [] }, vlm: { models: ['spare'] } },
  });
}

function failing(status: number): ModelClient {
  return {
    complete: () =>
      Promise.reject(new ModelRequestError({ provider: 'p', baseUrl: 'http://p/v1', status, attempts: 3, retryable: true, reason: `HTTP ${status}` })),
  };
}

type Clients = Record<string, ModelClient | undefined>;

function setup(clients: Clients | ((clock: ManualClock) => Clients), overrides: Partial<LlmServiceOptions> = {}) {
  const test = createTestBus();
  const byName = typeof clients === 'function' ? clients(test.clock) : clients;
  const service = new LlmService({
    config: twoProviderConfig(),
    bus: test.bus,
    clock: test.clock,
    logger: test.logger,
    clientFor: (name) => byName[name],
    ...overrides,
  });
  return { ...test, service };
}

describe('LlmService', () => {
  let server: FakeOpenAiServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  describe('with no provider configured', () => {
    it('answers every task with the offline demo model and says so once in the log', async () => {
      const { bus, clock, logger, records } = createTestBus();
      const service = new LlmService({ config: ModelsConfigSchema.parse({}), bus, clock, logger });
      expect(service.offline).toBe(true);
      const offlineLines = records.filter((record) => record.msg.includes('offline demo model'));
      expect(offlineLines).toHaveLength(1);
      expect(offlineLines[0]!.level).toBe('info');
      const request = service.createRequest({ taskName: 'anything', requestName: 'actor', payloads: [{ role: 'user', content: '在吗' }], tools: [SEND_TEXT] });
      const response = await request.send();
      expect(response.model).toBe('offline-demo');
      expect(response.toolCalls).toEqual([{ id: 'scripted_1_send_text', name: 'send_text', args: { content: '（演示模型）收到：在吗' } }]);
      await service.createRequest({ taskName: 'utils', requestName: 'x' }).send();
      expect(records.filter((record) => record.msg.includes('offline demo model'))).toHaveLength(1);
    });
  });

  describe('before_llm_request', () => {
    it('[N-15] carries request_name and stream_id, and the model receives the payloads the handlers changed', async () => {
      const model = new ScriptedModel({ message: '好' });
      const { bus, service } = setup({ primary: model });
      const seen: BeforeLlmRequestPayload[] = [];
      bus.subscribe('before_llm_request', (_event, params) => {
        seen.push(structuredClone(params));
        if (params.request_name !== 'actor') return [EventDecision.PASS, params];
        // As in the seed's example: edit the system payload in place.
        for (const payload of params.payloads) if (payload.role === 'system') payload.content += '\n\n附加约束：不要提及内部实现细节';
        params.payloads.push({ role: 'user', content: '（提醒）' });
        return [EventDecision.SUCCESS, params];
      });
      const request = service.createRequest({
        taskName: 'actor',
        requestName: 'actor',
        streamId: 'qq:group:42',
        payloads: [{ role: 'system', content: '你是月璃' }, { role: 'user', content: '你好' }],
        tools: [SEND_TEXT],
      });
      await request.send();
      expect(seen[0]).toEqual({
        request_name: 'actor',
        stream_id: 'qq:group:42',
        task_name: 'actor',
        payloads: [{ role: 'system', content: '你是月璃' }, { role: 'user', content: '你好' }],
        tools: [SEND_TEXT],
      });
      expect(model.calls[0]).toEqual({
        model: 'main-id',
        provider: expect.any(String),
        temperature: 0.2,
        tools: [SEND_TEXT],
        payloads: [
          { role: 'system', content: '你是月璃\n\n附加约束：不要提及内部实现细节' },
          { role: 'user', content: '你好' },
          { role: 'user', content: '（提醒）' },
        ],
      });
      // The edit applies to that send only: the request's history is unchanged, so it is not repeated.
      expect(request.payloads).toEqual([{ role: 'system', content: '你是月璃' }, { role: 'user', content: '你好' }]);
      await request.send();
      expect(model.calls[1]!.payloads[0]).toEqual({ role: 'system', content: '你是月璃\n\n附加约束：不要提及内部实现细节' });
    });

    it('passes the stream flag to the model', async () => {
      const model = new ScriptedModel({ message: '流' });
      const { service } = setup({ primary: model });
      await service.createRequest({ taskName: 'actor', requestName: 'actor' }).send({ stream: true });
      expect(model.calls[0]!.stream).toBe(true);
    });
  });

  describe('after_llm_request', () => {
    it('[N-15] carries request_name, stream_id, the model, the reply, usage and the duration', async () => {
      const { bus, clock, service } = setup((manualClock) => ({
        primary: new ScriptedModel(
          { message: '晴', toolCalls: [{ id: 'c1', name: 'send_text', args: { content: '晴' } }], usage: { promptTokens: 5, completionTokens: 2 } },
          { delayMs: 250, clock: manualClock },
        ),
      }));
      const seen: AfterLlmRequestPayload[] = [];
      bus.subscribe('after_llm_request', (_event, params) => {
        seen.push(params);
        return [EventDecision.PASS, params];
      });
      const result = service.createRequest({ taskName: 'actor', requestName: 'actor', streamId: 's-1', payloads: [{ role: 'user', content: '天气' }] }).send();
      await clock.advance(250);
      const response = await result;
      expect(seen).toEqual([
        {
          request_name: 'actor',
          stream_id: 's-1',
          task_name: 'actor',
          model: 'main',
          payloads: [{ role: 'user', content: '天气' }],
          response_message: '晴',
          tool_calls: [{ id: 'c1', name: 'send_text', args: { content: '晴' } }],
          usage: { promptTokens: 5, completionTokens: 2 },
          duration_ms: 250,
        },
      ]);
      expect(response).toMatchObject({ message: '晴', model: 'main', usage: { promptTokens: 5, completionTokens: 2 }, finishReason: 'tool_calls' });
    });

    it('lets a handler change the message and tool calls the response carries', async () => {
      const { bus, service } = setup({ primary: new ScriptedModel({ message: '原文', toolCalls: [{ id: 'c', name: 'danger', args: {} }] }) });
      bus.subscribe('after_llm_request', (_event, params) => [
        EventDecision.SUCCESS,
        { ...params, response_message: '改写', tool_calls: params.tool_calls.filter((call) => call.name !== 'danger') },
      ]);
      const response = await service.createRequest({ taskName: 'actor', requestName: 'actor' }).send();
      expect(response.message).toBe('改写');
      expect(response.toolCalls).toEqual([]);
    });
  });

  describe('when a model fails', () => {
    it('falls back to the next model of the task when the first provider fails', async () => {
      server = await FakeOpenAiServer.start();
      server.reply(json(400, { error: { message: 'model main-id not found' } }));
      const spare = new ScriptedModel({ message: '备用模型的回答' });
      const test = createTestBus();
      const service = new LlmService({
        config: twoProviderConfig(server.baseUrl),
        bus: test.bus,
        clock: test.clock,
        logger: test.logger,
        clientFor: (name) => (name === 'backup' ? spare : undefined),
      });
      const response = await service.createRequest({ taskName: 'actor', requestName: 'actor', payloads: [{ role: 'user', content: 'hi' }] }).send();
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.body).toMatchObject({ model: 'main-id', temperature: 0.2 });
      expect(response).toMatchObject({ message: '备用模型的回答', model: 'spare' });
      expect(spare.calls[0]).toMatchObject({ model: 'spare-id', payloads: [{ role: 'user', content: 'hi' }] });
      const warning = test.warnings().find((record) => record.msg === 'model main failed');
      expect(warning).toMatchObject({ model: 'main', provider: 'primary', request_name: 'actor' });
      expect(String(warning?.['error'])).toContain('model main-id not found');
    });

    it('publishes on_llm_request_failed and throws LlmRequestFailedError listing every model when all fail', async () => {
      const { bus, service } = setup({ primary: failing(503), backup: failing(429) });
      const failed: LlmRequestFailedPayload[] = [];
      let afterCount = 0;
      bus.subscribe('on_llm_request_failed', (_event, params) => {
        failed.push(params);
        return [EventDecision.PASS, params];
      });
      bus.subscribe('after_llm_request', (_event, params) => {
        afterCount++;
        return [EventDecision.PASS, params];
      });
      const promise = service.createRequest({ taskName: 'actor', requestName: 'actor', streamId: 's-9', payloads: [{ role: 'user', content: 'x' }] }).send();
      await expect(promise).rejects.toBeInstanceOf(LlmRequestFailedError);
      const error = (await promise.catch((caught: unknown) => caught)) as LlmRequestFailedError;
      expect(error.code).toBe('MG_LLM_REQUEST_FAILED');
      expect(error.failures.map((failure) => [failure.model, failure.provider])).toEqual([
        ['main', 'primary'],
        ['spare', 'backup'],
      ]);
      expect(error.message).toMatch(/main \(provider primary\): .*HTTP 503/);
      expect(error.message).toMatch(/spare \(provider backup\): .*HTTP 429/);
      expect(error.cause).toBeInstanceOf(ModelRequestError);
      expect(failed).toHaveLength(1);
      expect(failed[0]).toEqual({ request_name: 'actor', stream_id: 's-9', task_name: 'actor', payloads: [{ role: 'user', content: 'x' }], error: failed[0]!.error });
      expect(failed[0]!.error).toBeInstanceOf(LlmRequestFailedError);
      expect(afterCount).toBe(0);
    });

    it('does not fall back when the caller aborts', async () => {
      const spare = new ScriptedModel({ message: '不该用到' });
      const { service } = setup({ primary: new ScriptedModel({ message: 'x' }), backup: spare });
      const controller = new AbortController();
      controller.abort(new Error('stopped'));
      await expect(service.createRequest({ taskName: 'actor', requestName: 'actor' }).send({ signal: controller.signal })).rejects.toThrow('stopped');
      expect(spare.calls).toHaveLength(0);
    });
  });

  describe('tasks', () => {
    it("uses actor's models for a task that lists none or is not defined, and its own otherwise", () => {
      const { service } = setup({ primary: new ScriptedModel(), backup: new ScriptedModel() });
      expect(service.modelsFor('utils').map((model) => model.name)).toEqual(['main', 'spare']);
      expect(service.modelsFor('video').map((model) => model.name)).toEqual(['main', 'spare']);
      expect(service.modelsFor('vlm').map((model) => model.name)).toEqual(['spare']);
    });

    it('fails clearly when neither the task nor actor has models', () => {
      const test = createTestBus();
      const config = ModelsConfigSchema.parse({ providers: { p: { base_url: 'http://p/v1' } }, models: { m: { provider: 'p', model: 'm' } }, tasks: { utils: { models: ['m'] } } });
      const service = new LlmService({ config, bus: test.bus, clock: test.clock, logger: test.logger });
      expect(() => service.createRequest({ taskName: 'video', requestName: 'x' })).toThrow(LlmTaskError);
      expect(() => service.createRequest({ taskName: 'video', requestName: 'x' })).toThrow(
        /LLM task "video" cannot be used: the task is not defined and the fallback task actor lists no models/,
      );
      expect(() => service.createRequest({ taskName: 'utils', requestName: 'x' })).not.toThrow();
    });
  });

  describe('LLMResponse.send', () => {
    it('continues the conversation with the assistant payload and the tool results, in order', async () => {
      const model = new ScriptedModel([
        {
          message: '我掷两次',
          toolCalls: [
            { id: 'c1', name: 'roll_dice', args: { sides: 6 } },
            { id: 'c2', name: 'roll_dice', args: { sides: 20 } },
          ],
        },
        { message: '一共 21 点' },
        { message: '还有什么？' },
      ]);
      const { service } = setup({ primary: model });
      const request = service.createRequest({ taskName: 'actor', requestName: 'actor', payloads: [{ role: 'system', content: 's' }] });
      request.addPayload({ role: 'user', content: '掷骰子' });
      const first = await request.send();
      first.addToolResult('c1', 'roll_dice', '4').addToolResult('c2', 'roll_dice', '17');
      const second = await first.send();
      expect(second.request).toBe(request);
      expect(second.message).toBe('一共 21 点');
      const expected = [
        { role: 'system', content: 's' },
        { role: 'user', content: '掷骰子' },
        {
          role: 'assistant',
          content: '我掷两次',
          tool_calls: [
            { id: 'c1', name: 'roll_dice', args: { sides: 6 } },
            { id: 'c2', name: 'roll_dice', args: { sides: 20 } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', name: 'roll_dice', content: '4' },
        { role: 'tool', tool_call_id: 'c2', name: 'roll_dice', content: '17' },
      ];
      expect(model.calls[1]!.payloads).toEqual(expected);
      await second.send();
      expect(model.calls[2]!.payloads).toEqual([...expected, { role: 'assistant', content: '一共 21 点' }]);
      expect(request.payloads).toEqual(model.calls[2]!.payloads);
    });
  });
});
