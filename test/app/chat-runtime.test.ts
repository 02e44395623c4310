import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/app/create-host.js';
import { EventDecision } from '../../src/kernel/event-bus/event-decision.js';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { ManualClock } from '../../src/kernel/time/manual-clock.js';
import { groupEnvelope, privateEnvelope, RecordingSink } from '../support/chat.js';
import { copyFixture, useProjectTempDir } from '../support/temp-dir.js';

describe('the chat runtime in a host', () => {
  const workDir = useProjectTempDir();
  const hosts: Host[] = [];
  afterEach(async () => {
    while (hosts.length > 0) await hosts.pop()!.stop();
  });

  async function startHost(dir: string, clock = new ManualClock()) {
    copyFixture('plugin-roots/third-party/echo-chatter', join(dir, 'plugins', 'echo-chatter'));
    const { logger, records } = createMemoryLogger();
    const host = createHost({
      logger,
      clock,
      appConfig: {},
      botConfig: { chat: { default_chatter: 'fixture.echo-chatter:chatter:echo_chatter', message_buffer_seconds: 0, step_timeout_seconds: 90 } },
      dataDir: join(dir, 'data'),
      pluginRoots: [{ path: join(dir, 'plugins'), builtIn: false }],
    });
    const sink = new RecordingSink();
    host.setOutboundSink(sink);
    await host.start();
    hosts.push(host);
    return { host, sink, clock, records };
  }

  it('answers an inbound message end to end: stored, chatter woken, model asked, action sent, reply stored', async () => {
    const { host, sink, clock } = await startHost(workDir());
    const events: string[] = [];
    for (const name of ['on_message_received', 'on_chatter_step', 'before_llm_request', 'after_llm_request', 'before_tool_call', 'after_tool_call', 'on_message_sent', 'after_chatter_step'] as const) {
      host.bus.subscribe(name, (event, params) => (events.push(event), [EventDecision.PASS, params]));
    }
    const outcome = await host.receive(privateEnvelope(1, '你好'), 'test:adapter:loopback');
    expect(outcome.status).toBe('delivered');
    await clock.advance(0);
    await clock.advance(0);
    expect(sink.deliveries.map((delivery) => delivery.content)).toEqual(['（演示模型）收到：你好']);
    expect(events).toEqual([
      'on_message_received',
      'on_chatter_step',
      'before_llm_request',
      'after_llm_request',
      'before_tool_call',
      'on_message_sent',
      'after_tool_call',
      'after_chatter_step',
    ]);
    const streamId = (outcome as { message: { streamId: string } }).message.streamId;
    expect(host.chat.database.messages.history(streamId, 10).map((message) => [message.direction, message.content])).toEqual([
      ['inbound', '你好'],
      ['outbound', '（演示模型）收到：你好'],
    ]);
    expect(host.chat.loop.driverOf(streamId)!.state.kind).toBe('waiting');
    expect(host.chat.database.toolCalls.recent(streamId, 5)).toEqual([
      expect.objectContaining({ toolName: 'send_text', success: true, observation: '已发送', arguments: { content: '（演示模型）收到：你好' } }),
    ]);
  });

  it('runs streams independently, and a restarted host answers messages left unread', async () => {
    const dir = workDir();
    const clock = new ManualClock();
    const first = await startHost(dir, clock);
    // Hold the first host's chatter back: the message is stored but not answered before "the crash".
    first.host.bus.subscribe('on_chatter_step', (_name, params) => [EventDecision.SUCCESS, { ...params, continue: false }]);
    await first.host.receive(groupEnvelope('g1', '有人吗'));
    await clock.advance(0);
    expect(first.sink.deliveries).toEqual([]);
    await first.host.stop();
    hosts.length = 0;

    const second = await startHost(dir, clock);
    await clock.advance(0);
    await clock.advance(0);
    expect(second.sink.deliveries.map((delivery) => [delivery.chatType, delivery.content])).toEqual([['group', '（演示模型）收到：有人吗']]);
  });

  it('says plainly when the offline demo model is in use', async () => {
    const { records } = await startHost(workDir());
    expect(records.some((record) => /demo|演示|offline/i.test(record.msg))).toBe(true);
  });
});
