import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelRequestError } from '../../src/llm/errors/model-request-error.js';
import type { ModelCall } from '../../src/llm/model-client.js';
import { OpenAiCompatibleClient, type OpenAiCompatibleClientOptions } from '../../src/llm/openai-compatible-client.js';
import { createMemoryLogger, type LogRecord } from '../../src/kernel/logger/memory-logger.js';
import { completion, eventStream, FakeOpenAiServer, hang, json, sseData, text } from './support/fake-openai-server.js';
import { RecordingClock } from './support/recording-clock.js';

const API_KEY = 'sk-test-7f3a9c1e5b';

const WEATHER_TOOL = {
  type: 'function' as const,
  function: { name: 'get_weather', description: '查询天气', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

function baseCall(overrides: Partial<ModelCall> = {}): ModelCall {
  return { model: 'test-model', payloads: [{ role: 'user', content: '你好' }], tools: [], ...overrides };
}

async function rejectionOf(promise: Promise<unknown>): Promise<ModelRequestError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ModelRequestError);
    return error as ModelRequestError;
  }
  throw new Error('expected the promise to reject');
}

describe('OpenAiCompatibleClient', () => {
  let server: FakeOpenAiServer;
  let clock: RecordingClock;
  let records: LogRecord[];
  let makeClient: (options?: Partial<OpenAiCompatibleClientOptions>) => OpenAiCompatibleClient;
  const signal = new AbortController().signal;

  beforeEach(async () => {
    server = await FakeOpenAiServer.start();
    clock = new RecordingClock();
    const memory = createMemoryLogger();
    records = memory.records;
    makeClient = (options = {}) =>
      new OpenAiCompatibleClient({ baseUrl: server.baseUrl, clock, logger: memory.logger, providerName: 'local', ...options });
  });

  afterEach(async () => {
    await server.close();
  });

  describe('when the server answers in one body', () => {
    it('posts the OpenAI request shape to /chat/completions and returns the answer', async () => {
      server.reply(completion({ content: '你好呀', reasoning_content: '先打个招呼' }));
      const reply = await makeClient().complete(baseCall({ temperature: 0.3 }), signal);
      expect(reply).toEqual({
        message: '你好呀',
        reasoning: '先打个招呼',
        toolCalls: [],
        finishReason: 'stop',
        usage: { promptTokens: 11, completionTokens: 7 },
      });
      const request = server.requests[0]!;
      expect(request.method).toBe('POST');
      expect(request.url).toBe('/v1/chat/completions');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.body).toEqual({ model: 'test-model', messages: [{ role: 'user', content: '你好' }], temperature: 0.3 });
      expect(request.body).not.toHaveProperty('tools');
      expect(request.headers['authorization']).toBeUndefined();
    });

    it('converts assistant tool calls and tool results to the OpenAI message shape, and sends tools when there are some', async () => {
      server.reply(completion({ content: '北京晴' }));
      await makeClient().complete(
        baseCall({
          tools: [WEATHER_TOOL],
          payloads: [
            { role: 'system', content: '你是月璃' },
            { role: 'user', content: [{ type: 'text', text: '看图' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
            { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'get_weather', args: { city: '北京' } }] },
            { role: 'tool', tool_call_id: 'call_1', name: 'get_weather', content: '晴' },
            { role: 'assistant', content: '', tool_calls: [{ id: 'call_2', name: 'get_weather', args: { _raw: '{city:' } }] },
          ],
        }),
        signal,
      );
      const body = server.requests[0]!.body;
      expect(body['tools']).toEqual([WEATHER_TOOL]);
      expect(body['messages']).toEqual([
        { role: 'system', content: '你是月璃' },
        { role: 'user', content: [{ type: 'text', text: '看图' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"北京"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '晴' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{city:' } }] },
      ]);
    });

    it('reads tool calls whose arguments are a JSON string, an object, invalid JSON or missing, and synthesizes missing ids', async () => {
      server.reply(
        completion(
          {
            content: null,
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"上海"}' } },
              { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: { city: '杭州' } } },
              { id: 'call_c', type: 'function', function: { name: 'get_weather', arguments: '{"city": "广州"' } },
              { type: 'function', function: { name: 'pass_and_wait' } },
            ],
          },
          'tool_calls',
        ),
      );
      const reply = await makeClient().complete(baseCall({ tools: [WEATHER_TOOL] }), signal);
      expect(reply.message).toBe('');
      expect(reply.finishReason).toBe('tool_calls');
      expect(reply.toolCalls).toEqual([
        { id: 'call_a', name: 'get_weather', args: { city: '上海' } },
        { id: 'call_b', name: 'get_weather', args: { city: '杭州' } },
        { id: 'call_c', name: 'get_weather', args: { _raw: '{"city": "广州"' } },
        { id: 'call_3_pass_and_wait', name: 'pass_and_wait', args: {} },
      ]);
    });

    it('keeps arguments that are JSON but not an object as raw text', async () => {
      server.reply(completion({ content: '', tool_calls: [{ id: 'x', function: { name: 'roll', arguments: '[1,2]' } }] }));
      const reply = await makeClient().complete(baseCall(), signal);
      expect(reply.toolCalls[0]!.args).toEqual({ _raw: '[1,2]' });
    });

    it('answers without usage when the server reports none', async () => {
      server.reply(completion({ content: 'ok' }, 'stop', null));
      expect((await makeClient().complete(baseCall(), signal)).usage).toBeUndefined();
    });
  });

  describe('when streaming', () => {
    it('assembles content, reasoning_content and tool-call deltas split across chunks', async () => {
      const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
        sseData({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] });
      const first = chunk({ role: 'assistant', reasoning_content: '用户想知道' });
      server.reply(
        eventStream([
          ': keep-alive comment\n\n',
          first.slice(0, 25),
          first.slice(25),
          chunk({ reasoning_content: '天气。' }),
          chunk({ content: '我查' }) + chunk({ content: '一下。' }),
          chunk({ tool_calls: [{ index: 0, id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
          chunk({ tool_calls: [{ index: 1, id: 'call_w2', type: 'function', function: { name: 'get_weather', arguments: '{"city"' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"北京"}' } }] }).replace(/\n\n$/, '\r\n\r\n'),
          chunk({ tool_calls: [{ index: 1, function: { arguments: ':"上海"}' } }] }),
          chunk({ tool_calls: [{ index: 2, type: 'function', function: { name: 'pass_and_wait', arguments: '{' } }] }),
          chunk({}, 'tool_calls'),
          sseData({ id: 'c1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 30, completion_tokens: 12 } }),
          'data: [DONE]\n\n',
        ]),
      );
      const reply = await makeClient().complete(baseCall({ stream: true, tools: [WEATHER_TOOL] }), signal);
      expect(server.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      expect(reply).toEqual({
        message: '我查一下。',
        reasoning: '用户想知道天气。',
        toolCalls: [
          { id: 'call_w1', name: 'get_weather', args: { city: '北京' } },
          { id: 'call_w2', name: 'get_weather', args: { city: '上海' } },
          { id: 'call_2_pass_and_wait', name: 'pass_and_wait', args: { _raw: '{' } },
        ],
        finishReason: 'tool_calls',
        usage: { promptTokens: 30, completionTokens: 12 },
      });
    });

    it('reads a plain JSON body when the server ignores stream: true', async () => {
      server.reply(completion({ content: '不流式' }));
      expect((await makeClient().complete(baseCall({ stream: true }), signal)).message).toBe('不流式');
    });

    it('refuses a malformed stream event without retrying', async () => {
      server.reply(eventStream([sseData({ choices: 'nope' }), 'data: [DONE]\n\n']));
      const error = await rejectionOf(makeClient().complete(baseCall({ stream: true }), signal));
      expect(error.retryable).toBe(false);
      expect(error.message).toMatch(/not a chat completion chunk: choices: /);
      expect(server.requests).toHaveLength(1);
    });
  });

  describe('when the server fails', () => {
    it('waits as long as Retry-After says after a 429, then succeeds', async () => {
      server.reply(json(429, { error: { message: 'rate limited' } }, { 'retry-after': '3' }), completion({ content: '好了' }));
      const result = makeClient().complete(baseCall(), signal);
      expect(await clock.sleepNumber(1)).toBe(3000);
      expect(server.requests).toHaveLength(1);
      await clock.advance(2999);
      expect(server.requests).toHaveLength(1);
      await clock.advance(1);
      expect((await result).message).toBe('好了');
      expect(server.requests).toHaveLength(2);
      expect(records.find((record) => record.level === 'warn')).toMatchObject({ status: 429, attempt: 1, delay_ms: 3000, provider: 'local' });
    });

    it('retries a 500 twice with exponential backoff, then succeeds', async () => {
      server.reply(json(500, { error: { message: 'boom' } }), json(503, { error: 'overloaded' }), completion({ content: '第三次' }));
      const result = makeClient().complete(baseCall(), signal);
      expect(await clock.sleepNumber(1)).toBe(1000);
      await clock.advance(1000);
      expect(await clock.sleepNumber(2)).toBe(2000);
      await clock.advance(2000);
      expect((await result).message).toBe('第三次');
      expect(server.requests).toHaveLength(3);
    });

    it('gives up after maxRetries with the last status and the number of attempts', async () => {
      server.reply(json(502, { error: { message: 'bad gateway' } }));
      const result = rejectionOf(makeClient({ maxRetries: 1 }).complete(baseCall(), signal));
      await clock.sleepNumber(1);
      await clock.advance(1000);
      const error = await result;
      expect(error).toMatchObject({ code: 'MG_MODEL_REQUEST', status: 502, attempts: 2, retryable: true, provider: 'local', baseUrl: server.baseUrl });
      expect(error.message).toContain('HTTP 502');
      expect(error.message).toContain('bad gateway');
    });

    it('does not retry a 400, and names the server message', async () => {
      server.reply(json(400, { error: { message: 'tool_choice auto needs --enable-auto-tool-choice' } }));
      const error = await rejectionOf(makeClient().complete(baseCall(), signal));
      expect(error).toMatchObject({ status: 400, attempts: 1, retryable: false });
      expect(error.message).toContain('tool_choice auto needs --enable-auto-tool-choice');
      expect(server.requests).toHaveLength(1);
      expect(clock.sleeps).toEqual([]);
    });

    it('times out an attempt that gets no answer, on the injected clock, and retries it', async () => {
      server.reply(hang);
      const result = rejectionOf(makeClient({ timeoutMs: 5000, maxRetries: 1 }).complete(baseCall(), signal));
      await server.receivedRequests(1);
      await clock.advance(4999);
      expect(clock.sleeps).toEqual([]);
      await clock.advance(1);
      expect(await clock.sleepNumber(1)).toBe(1000);
      await clock.advance(1000);
      await server.receivedRequests(2);
      await clock.advance(5000);
      const error = await result;
      expect(error).toMatchObject({ status: undefined, attempts: 2, retryable: true });
      expect(error.message).toContain('no response within 5000 ms');
    });

    it('retries network errors', async () => {
      const closed = await FakeOpenAiServer.start();
      const baseUrl = closed.baseUrl;
      await closed.close();
      const error = await rejectionOf(makeClient({ baseUrl, maxRetries: 0 }).complete(baseCall(), signal));
      expect(error).toMatchObject({ status: undefined, attempts: 1, retryable: true });
      expect(error.message).toMatch(/network error: .*ECONNREFUSED/);
    });

    it('names what is wrong with a malformed body and does not retry it', async () => {
      server.reply(json(200, { id: 'x', choices: [{ index: 0, message: 'hello' }] }));
      const error = await rejectionOf(makeClient().complete(baseCall(), signal));
      expect(error).toMatchObject({ status: 200, attempts: 1, retryable: false });
      expect(error.message).toMatch(/not a chat completion: choices\.0\.message: .*expected object/);
    });

    it('names a body that is not JSON', async () => {
      server.reply(text(200, '<html>gateway</html>', 'text/html'));
      const error = await rejectionOf(makeClient().complete(baseCall(), signal));
      expect(error.message).toContain('the response body is not JSON: <html>gateway</html>');
    });

    it('stops when the caller aborts, without retrying', async () => {
      server.reply(hang);
      const controller = new AbortController();
      const result = makeClient().complete(baseCall(), controller.signal);
      await server.receivedRequests(1);
      controller.abort(new Error('user left'));
      await expect(result).rejects.toThrow('user left');
      expect(clock.sleeps).toEqual([]);
    });
  });

  describe('the API key', () => {
    it('is sent as a Bearer header and never appears in an error message or a log record', async () => {
      const echo = { error: { message: `Incorrect API key provided: ${API_KEY}` } };
      server.reply(json(500, echo), json(401, echo));
      const result = rejectionOf(makeClient({ apiKey: API_KEY }).complete(baseCall(), signal));
      await clock.sleepNumber(1);
      await clock.advance(1000);
      const error = await result;
      expect(server.requests.map((request) => request.headers['authorization'])).toEqual([`Bearer ${API_KEY}`, `Bearer ${API_KEY}`]);
      expect(error.status).toBe(401);
      expect(error.message).toContain('Incorrect API key provided: [redacted]');
      expect(error.message).not.toContain(API_KEY);
      expect(error.reason).not.toContain(API_KEY);
      expect(String(error)).not.toContain(API_KEY);
      expect(records.length).toBeGreaterThan(0);
      expect(JSON.stringify(records)).not.toContain(API_KEY);
    });

    it('is left out of a network error', async () => {
      const error = await rejectionOf(
        makeClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: API_KEY, maxRetries: 0 }).complete(baseCall(), signal),
      );
      expect(error.message).not.toContain(API_KEY);
    });
  });
});
