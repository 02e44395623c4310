import { describe, expect, it } from 'vitest';
import { textReply, toolReply, useTestHosts } from '../../support/ndfc.js';
import { SequenceRandom } from '../../../src/kernel/time/random.js';
import { EventDecision } from '../../../src/kernel/event-bus/event-decision.js';
import { TRANSITIONS } from '../../../src/plugins/built_in/neo_default_chatter/session/session-phase.js';

type Service = { createSession(options: { streamId: string; plugin?: unknown }): { streamId: string; execute(): AsyncGenerator<{ kind: string; message?: string }, void, unknown> } };

const reply = toolReply;

describe('NDFC service and session API', () => {
  const start = useTestHosts();

  it('[N-04] [N-05] createSession with no plugin uses NDFC’s own; the service is a factory of one-run, one-stream sessions', async () => {
    // NDFC's chatter creates its sessions with no plugin: they read NDFC's own config.
    const test = await start({
      script: [reply([{ name: 'stop_conversation', args: {} }])],
      pluginConfigs: { neo_default_chatter: '[plugin]\ndefault_stop_minutes = 7\n' },
    });
    const stops: number[] = [];
    test.host.bus.subscribe('after_chatter_step', async (_name, params) => {
      const result = (params as { result: { kind: string; time?: number } }).result;
      if (result.kind === 'stop') stops.push(result.time!);
      return [EventDecision.PASS, params];
    });
    await test.adapter.send('再见');
    await test.settle(5_000);
    expect(stops).toEqual([7 * 60]);
    const service = test.host.getService<Service>('neo_default_chatter:service:chat_core')!;
    // The service does not hand out NDFC's plugin (and with it NDFC's config).
    expect(Object.keys(service)).not.toContain('plugin');
    const one = service.createSession({ streamId: 's-one' });
    const two = service.createSession({ streamId: 's-two' });
    expect(one).not.toBe(two);
    expect([one.streamId, two.streamId]).toEqual(['s-one', 's-two']);
    expect(Object.keys(service)).not.toContain('sessions');
  });

  it('[N-08] execute() is an async generator that yields Failure when the stream cannot be activated', async () => {
    const test = await start();
    const service = test.host.getService<Service>('neo_default_chatter:service:chat_core')!;
    const runner = service.createSession({ streamId: 'no-such-stream' }).execute();
    const first = await runner.next();
    expect(first.value).toMatchObject({ kind: 'failure' });
    expect((await runner.next()).done).toBe(true);
  });

  it('[N-06] [N-10] moves only along the seed’s transitions, driven through the chatter that forwards to the session', async () => {
    const both = reply([{ name: 'send_text', args: { content: '嗯' } }, { name: 'pass_and_wait', args: { seconds: 3 } }]);
    const test = await start({ script: [both, reply([{ name: 'send_text', args: { content: '好了' } }])] });
    const transitions: [string, string][] = [];
    test.host.bus.subscribe('neo_default_chatter:session_transition', (_n, params) => (transitions.push([String(params.from_phase), String(params.to_phase)]), [EventDecision.PASS, params]));
    await test.adapter.send('在吗');
    await test.settle(10_000);
    expect(transitions.length).toBeGreaterThan(3);
    for (const [from, to] of transitions) expect(TRANSITIONS[from as keyof typeof TRANSITIONS] as readonly string[]).toContain(to);
    expect(transitions.map(([, to]) => to)).toEqual(expect.arrayContaining(['MODEL_TURN', 'TOOL_EXEC', 'WAIT_USER']));
  });

  it('[N-46] send_text waits a typing delay (per character, capped), counting only the time left since the last send, with reply_to and at', async () => {
    // Times are read off the manual clock where things happen, so how many event-loop turns
    // the path from message to action takes on a busy machine cannot move the figures.
    let modelAt = Number.NaN;
    const sentAt: number[] = [];
    const sends = reply([
      { name: 'send_text', args: { content: '一二三四', reply_to: 'in-1', at: '10001' } },
      { name: 'send_text', args: { content: '五六' } },
    ]);
    // The draw 0 always passes the group probability gate, so the model is asked at once.
    const test = await start({ random: new SequenceRandom([0]), script: () => (Number.isNaN(modelAt) ? ((modelAt = test.clock.now()), sends) : textReply('')) });
    const deliver = test.adapter.deliver.bind(test.adapter);
    test.adapter.deliver = (delivery) => (sentAt.push(test.clock.now()), deliver(delivery));
    await test.adapter.send('hi', { group: 'g1', mentionsBot: true });
    await test.settle(4_000);
    expect(test.adapter.texts()).toEqual(['一二三四', '五六']);
    expect(test.adapter.sent[0]).toMatchObject({ content: '一二三四', replyTo: 'in-1', at: '10001' });
    // 4 characters x 0.5 s = 2 s after the model answered (settle moves time in 50 ms steps).
    expect(sentAt[0]! - modelAt).toBeGreaterThanOrEqual(2_000);
    expect(sentAt[0]! - modelAt).toBeLessThanOrEqual(2_050);
    // '五六' wants 1 s, counted from the previous send, not from when it was asked for.
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(1_000);
    expect(sentAt[1]! - sentAt[0]!).toBeLessThanOrEqual(1_050);
  });

  it('[N-45] send_text, pass_and_wait and stop_conversation are action components', async () => {
    const test = await start();
    const actions = test.host.registry.list({ kind: 'action', pluginId: 'neo_default_chatter' }).map((record) => record.name).sort();
    expect(actions).toEqual(['pass_and_wait', 'send_media', 'send_text', 'stop_conversation']);
  });
});
