import { describe, expect, it } from 'vitest';
import { textReply, toolReply, useTestHosts } from '../../support/ndfc.js';
import { SequenceRandom } from '../../../src/kernel/time/random.js';
import { EventDecision } from '../../../src/kernel/event-bus/event-decision.js';

const call = (name: string, args: Record<string, unknown>) => toolReply([{ name, args }]);
const text = textReply;

describe('neo_default_chatter sessions', () => {
  const start = useTestHosts();

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

describe('neo_default_chatter gates and faults', () => {
  const start = useTestHosts();

  it('[N-35] in a group the probability gate declines a plain message, then a mention gets through', async () => {
    // base 0.1 + 0.05 per unread: 0.15 for one message; the draw 0.5 loses. A mention adds 0.7: 0.9 (two unreads) wins.
    const test = await start({ random: new SequenceRandom([0.5, 0.5]) });
    await test.adapter.send('今天天气不错', { group: 'g1' });
    await test.settle(10_000);
    expect(test.adapter.texts()).toEqual([]);
    await test.adapter.send('月璃你觉得呢', { group: 'g1', mentionsBot: true });
    await test.settle(20_000);
    expect(test.adapter.texts()).toHaveLength(1);
    expect(test.model.calls).toHaveLength(1);
  });

  it('[N-07] a private message may wake a stopped stream early, by the configured chance', async () => {
    const stop = { message: '', reasoning: '', finishReason: 'tool_calls', usage: undefined, toolCalls: [{ id: 's', name: 'stop_conversation', args: { minutes: 30 } }] };
    const test = await start({ script: [stop], random: new SequenceRandom([0.1]) });
    const file = test.host.plugins.get('neo_default_chatter')!;
    Object.assign((file as unknown as { config: Record<string, unknown> }).config, {});
    await test.adapter.send('拜拜');
    await test.settle(5_000);
    expect(test.model.calls).toHaveLength(1);
    await test.adapter.send('等等，还有一件事');
    await test.settle(5_000);
    // enable_stop_direct_message_wake is off by default: no early wake.
    expect(test.model.calls).toHaveLength(1);
  });

  it('[N-37] [N-38] [N-39] a third-party handler that throws, hangs, or breaks the key set changes nothing', async () => {
    const test = await start();
    const bus = test.host.bus;
    bus.subscribe('neo_default_chatter:fetch_unreads', () => {
      throw new Error('broken plugin');
    }, { weight: 300, label: 'thrower' });
    bus.subscribe('neo_default_chatter:format_unread_line', (_n, params) => [EventDecision.SUCCESS, { ...params, formatted_line: 'HIJACKED', extra: 1 }], { weight: 300, label: 'key_breaker' });
    bus.subscribe('neo_default_chatter:build_negative_extra', () => new Promise<never>(() => undefined), { weight: 300, timeout: 1, label: 'hanger' });
    await test.adapter.send('你好');
    await test.settle(15_000);
    expect(test.adapter.texts()).toHaveLength(1);
    const userPrompt = test.model.calls[0]!.payloads.filter((payload) => payload.role === 'user').map((payload) => String(payload.content)).join('\n');
    expect(userPrompt).toContain('你好');
    expect(userPrompt).not.toContain('HIJACKED');
    const warned = test.logs.filter((record) => record.level === 'warn').map((record) => String(record['handler']));
    expect(warned).toEqual(expect.arrayContaining(['thrower', 'key_breaker', 'hanger']));
  });

  it('[N-02] other plugins reach NDFC only through getService, a new instance each call, and can run a session themselves', async () => {
    const test = await start();
    const first = test.host.getService<{ createSession(options: { streamId: string }): { execute(): AsyncGenerator<unknown, void, unknown> } }>('neo_default_chatter:service:chat_core');
    const second = test.host.getService('neo_default_chatter:service:chat_core');
    expect(first).toBeDefined();
    expect(first).not.toBe(second);
    expect(test.host.getService('neo_default_chatter:service:missing')).toBeUndefined();
    const outcome = await test.adapter.send('hi');
    const streamId = (outcome as { message: { streamId: string } }).message.streamId;
    await test.settle(10_000); // the host's own loop answers the message first
    // The seed's run_chat driver: drive a session until it waits (no unreads left: it waits at once).
    const session = first!.createSession({ streamId });
    const runner = session.execute();
    const result = (await runner.next()).value as { kind: string };
    expect(['wait', 'success']).toContain(result.kind);
    await runner.return(undefined);
  });
});
