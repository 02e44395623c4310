import { afterEach, describe, expect, it } from 'vitest';
import { createTestHost, type TestHost } from '../../../src/testing/create-test-host.js';
import { SequenceRandom } from '../../../src/kernel/time/random.js';
import { EventDecision } from '../../../src/kernel/event-bus/event-decision.js';

const call = (name: string, args: Record<string, unknown>, id = `c_${name}`) => ({ message: '', reasoning: '', toolCalls: [{ id, name, args }], finishReason: 'tool_calls', usage: undefined });
const text = (message: string) => ({ message, reasoning: '', toolCalls: [], finishReason: 'stop', usage: undefined });

describe('neo_default_chatter sessions', () => {
  const hosts: TestHost[] = [];
  afterEach(async () => {
    while (hosts.length > 0) await hosts.pop()!.stop();
  });
  const start = async (options: Parameters<typeof createTestHost>[0] = {}) => {
    const test = await createTestHost(options);
    hosts.push(test);
    return test;
  };

  it('[N-01] loads with the seed’s component signatures', async () => {
    const { host } = await start();
    const signatures = host.registry.list({ pluginId: 'neo_default_chatter' }).map((record) => record.signature);
    expect(signatures).toEqual(expect.arrayContaining([
      'neo_default_chatter:service:chat_core',
      'neo_default_chatter:chatter:neo_default_chatter',
      'neo_default_chatter:action:send_text',
      'neo_default_chatter:action:pass_and_wait',
      'neo_default_chatter:action:stop_conversation',
      'neo_default_chatter:event_handler:probability_bypass',
      'neo_default_chatter:event_handler:sub_agent_decision',
    ]));
    // One default per non-preprocess event: the seed's enum has 16 of them (it counts them as 15 +
    // the observation-only session_transition, whose default "only logs").
    expect(signatures.filter((signature) => signature.endsWith('_default'))).toHaveLength(16);
  });

  it('answers a private chat with the demo model through send_text', async () => {
    const test = await start();
    await test.adapter.send('你好');
    await test.settle(10_000);
    expect(test.adapter.texts()).toHaveLength(1);
    expect(test.adapter.texts()[0]).toMatch(/^（演示模型）收到：[\s\S]*你好/);
  });

  it('[N-07] pass_and_wait yields Wait(seconds) and a timer resume starts a new model turn', async () => {
    const both = { ...call('send_text', { content: '稍等' }), toolCalls: [{ id: 'c1', name: 'send_text', args: { content: '稍等' } }, { id: 'c2', name: 'pass_and_wait', args: { seconds: 5 } }] };
    const test = await start({ script: [both, call('send_text', { content: '我回来了' }), text('')] });
    await test.adapter.send('在吗');
    await test.settle(2_000);
    expect(test.adapter.texts()).toEqual(['稍等']);
    await test.settle(6_000);
    expect(test.adapter.texts()).toEqual(['稍等', '我回来了']);
  });

  it('[N-07] stop_conversation ends the run with its cooldown; a group message in the cooldown is not answered', async () => {
    const test = await start({ script: [call('stop_conversation', { minutes: 1 }), call('send_text', { content: 'again' })], random: new SequenceRandom([0]) });
    await test.adapter.send('再见', { group: 'g1', mentionsBot: true });
    await test.settle(10_000);
    await test.adapter.send('还在吗', { group: 'g1', mentionsBot: true });
    await test.settle(1_000);
    expect(test.adapter.texts()).toEqual([]);
    await test.settle(60_000);
    expect(test.adapter.texts()).toEqual(['again']);
  });

  it('[N-15] publishes Tier I events with NDFC identifiers: template names, request_name actor, tool signatures, chatter_name', async () => {
    const test = await start();
    const seen: string[] = [];
    const bus = test.host.bus;
    bus.subscribe('on_prompt_build', (_n, p) => (seen.push(`prompt ${p.name}`), [EventDecision.PASS, p]));
    bus.subscribe('before_llm_request', (_n, p) => (seen.push(`llm ${p.request_name}`), [EventDecision.PASS, p]));
    bus.subscribe('before_tool_call', (_n, p) => (seen.push(`tool ${p.signature}`), [EventDecision.PASS, p]));
    bus.subscribe('on_chatter_step', (_n, p) => (seen.push(`step ${p.chatter_name}`), [EventDecision.PASS, p]));
    await test.adapter.send('hi');
    await test.settle(10_000);
    expect(seen).toEqual(expect.arrayContaining([
      'prompt neo_default_chatter:system',
      'prompt neo_default_chatter:user',
      'llm actor',
      'tool neo_default_chatter:action:send_text',
      'step neo_default_chatter',
    ]));
  });

  it('[N-16] an on_prompt_build handler setting values.extra_constraints changes the system prompt the model receives', async () => {
    const test = await start();
    test.host.bus.subscribe('on_prompt_build', (_n, params) => {
      if (!params.name.startsWith('neo_default_chatter:')) return [EventDecision.PASS, params];
      params.values['extra_constraints'] = '不要提及内部实现细节';
      return [EventDecision.SUCCESS, params];
    }, { weight: 200 });
    await test.adapter.send('hi');
    await test.settle(10_000);
    const system = test.model.calls[0]!.payloads.find((payload) => payload.role === 'system');
    expect(String(system?.content)).toContain('不要提及内部实现细节');
  });
});
