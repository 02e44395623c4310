import { describe, expect, it } from 'vitest';
import type { StreamApi } from '../../src/chat/stream-api.js';
import { BaseAction, type ActionContext } from '../../src/chatter/base-action.js';
import { runToolCalls } from '../../src/chatter/run-tool-calls.js';
import { collectUsables } from '../../src/chatter/usables.js';
import { action } from '../../src/kernel/components/decorators.js';
import { EventDecision } from '../../src/kernel/event-bus/event-decision.js';
import { ToolExecutionResult } from '../../src/tools/tool-execution-result.js';
import { ToolRegistry } from '../../src/tools/tool-registry.js';
import { createTestRegistry } from '../support/registry.js';

const sent: string[] = [];

@action('send_text', {
  description: 'Send a text message to the chat.',
  parameters: { type: 'object', properties: { content: { type: 'string', minLength: 1 } }, required: ['content'] },
})
class SendText extends BaseAction {
  async execute(args: Record<string, unknown>, context: ActionContext): Promise<ToolExecutionResult> {
    sent.push(`${context.streamId}:${String(args['content'])}`);
    return ToolExecutionResult.ok('send_text', 'sent');
  }
}

function setUp() {
  sent.length = 0;
  const base = createTestRegistry();
  const tools = new ToolRegistry({ clock: base.clock, logger: base.logger });
  tools.register('weather', {
    name: 'get_weather',
    description: 'Use when asked about the weather.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    sideEffect: 'readonly',
    capabilities: [],
    timeoutMs: 1_000,
    execute: async (invocation) => ToolExecutionResult.ok('get_weather', `sunny in ${String(invocation.arguments['city'])}`),
  });
  tools.register('forward', {
    name: 'read_forward',
    description: 'Use to read a forwarded message.',
    parameters: { type: 'object', properties: {} },
    sideEffect: 'readonly',
    capabilities: ['forward_message'],
    timeoutMs: 1_000,
    execute: async () => ToolExecutionResult.ok('read_forward', 'page 1'),
  });
  base.registry.register(base.scope('neo_default_chatter'), SendText);
  const streams = {} as StreamApi;
  const usables = collectUsables({ registry: base.registry, tools, streams, capabilities: new Set() });
  const run = (calls: { id: string; name: string; args: Record<string, unknown> }[]) =>
    runToolCalls({ calls, usables, bus: base.bus, clock: base.clock, streamId: 's1', signal: new AbortController().signal, capabilities: new Set() });
  return { ...base, tools, usables, run };
}

describe('collectUsables', () => {
  it('[T-23] declares actions first, then the tools offered in the stream (not those whose capability it lacks)', () => {
    const { usables } = setUp();
    expect(usables.declarations().map((declaration) => declaration.function.name)).toEqual(['send_text', 'get_weather']);
    expect(usables.get('send_text')!.signature).toBe('neo_default_chatter:action:send_text');
    expect(usables.get('get_weather')!.signature).toBe('weather:tool:get_weather');
  });
});

describe('runToolCalls', () => {
  it('runs calls in order and returns results in call order, framed by before/after_tool_call with signatures', async () => {
    const { run, bus } = setUp();
    const events: string[] = [];
    bus.subscribe('before_tool_call', (_name, params) => (events.push(`before ${params.signature}`), [EventDecision.PASS, params]));
    bus.subscribe('after_tool_call', (_name, params) => (events.push(`after ${params.signature} ${params.success}`), [EventDecision.PASS, params]));
    const outcomes = await run([
      { id: 'c1', name: 'send_text', args: { content: 'first' } },
      { id: 'c2', name: 'get_weather', args: { city: 'Hangzhou' } },
      { id: 'c3', name: 'send_text', args: { content: 'second' } },
    ]);
    expect(outcomes.map((outcome) => [outcome.call.id, outcome.result.observation])).toEqual([
      ['c1', 'sent'],
      ['c2', 'sunny in Hangzhou'],
      ['c3', 'sent'],
    ]);
    expect(sent).toEqual(['s1:first', 's1:second']);
    expect(events).toEqual([
      'before neo_default_chatter:action:send_text',
      'after neo_default_chatter:action:send_text true',
      'before weather:tool:get_weather',
      'after weather:tool:get_weather true',
      'before neo_default_chatter:action:send_text',
      'after neo_default_chatter:action:send_text true',
    ]);
  });

  it('lets a before_tool_call handler change the arguments or skip the call', async () => {
    const { run, bus } = setUp();
    bus.subscribe('before_tool_call', (_name, params) => {
      if (params.tool_name === 'get_weather') return [EventDecision.SUCCESS, { ...params, skip: true, skip_reason: '天气查询已停用' }];
      return [EventDecision.SUCCESS, { ...params, args: { content: `[过滤] ${String(params.args['content'])}` } }];
    });
    const outcomes = await run([
      { id: 'c1', name: 'send_text', args: { content: 'hi' } },
      { id: 'c2', name: 'get_weather', args: { city: 'x' } },
    ]);
    expect(sent).toEqual(['s1:[过滤] hi']);
    expect(outcomes[1]!.result).toMatchObject({ success: false, errorMessage: '天气查询已停用' });
  });

  it('turns an unknown name, bad action arguments and a tool the stream lacks into failures the model reads', async () => {
    const { run } = setUp();
    const outcomes = await run([
      { id: 'c1', name: 'launch_rocket', args: {} },
      { id: 'c2', name: 'send_text', args: { content: '' } },
      { id: 'c3', name: 'read_forward', args: {} },
    ]);
    expect(outcomes.map((outcome) => outcome.result.success)).toEqual([false, false, false]);
    expect(outcomes[0]!.result.errorMessage).toMatch(/未知的工具 launch_rocket，可用：send_text、get_weather/);
    expect(outcomes[1]!.result.errorMessage).toMatch(/参数 content/);
    expect(sent).toEqual([]);
  });
});
