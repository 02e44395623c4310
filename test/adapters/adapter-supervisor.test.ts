import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboundAck } from '../../src/adapters/adapter-context.js';
import { AdapterSupervisor } from '../../src/adapters/adapter-supervisor.js';
import { listAdapters, resolveAdapter } from '../../src/adapters/find-adapter.js';
import type { OutboundDelivery } from '../../src/chat/outbound-sink.js';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { ManualClock } from '../../src/kernel/time/manual-clock.js';
import { projectRoot } from '../support/temp-dir.js';
import { until } from '../support/until.js';

// Real adapter processes (test/fixtures/adapters/scripted) under a supervisor whose restart
// delays run on a manual clock. Waiting for a process is waiting for real events.

const ROOT = join(projectRoot, 'test/fixtures/adapters');
const BOT = { nickname: '月璃', aliases: [], accounts: {} };

function delivery(content: string): OutboundDelivery {
  return { streamId: 's1', platform: 'test', chatType: 'private', groupId: null, userId: 'u1', content, replyTo: null, at: null };
}


describe('AdapterSupervisor', () => {
  const supervisors: AdapterSupervisor[] = [];
  afterEach(async () => {
    for (const supervisor of supervisors.splice(0)) await supervisor.stop();
  });

  async function supervise(config: Record<string, unknown> = {}, options: { deliveryWaitMs?: number; restart?: { initialDelayMs: number }; isolation?: 'process' | 'thread' } = {}) {
    const adapter = await resolveAdapter('scripted', ROOT);
    const clock = new ManualClock();
    const { logger, records } = createMemoryLogger('debug');
    const received: unknown[] = [];
    const supervisor = new AdapterSupervisor({
      adapter,
      logger,
      clock,
      restart: { initialDelayMs: 500, maxDelayMs: 2_000, resetAfterMs: 60_000 },
      ...options,
      receive: async (envelope): Promise<InboundAck> => {
        received.push(envelope);
        return { stored: true, status: 'delivered' };
      },
    });
    supervisors.push(supervisor);
    return { supervisor, clock, records, received, start: () => supervisor.start({ config: adapter.configSchema.parse(config), bot: BOT }) };
  }

  it('[adapter] finds adapters by name under a root, and refuses unknown or unsafe names naming the known ones', async () => {
    expect(listAdapters(ROOT)).toEqual(['scripted']);
    expect(listAdapters()).toEqual(expect.arrayContaining(['console', 'onebot_v11']));
    await expect(resolveAdapter('nope', ROOT)).rejects.toThrow(/adapter "nope": no such adapter .*known adapters: scripted/);
    await expect(resolveAdapter('../scripted', ROOT)).rejects.toThrow(/not an adapter name/);
    await expect(resolveAdapter('neo_default_chatter', join(projectRoot, 'src/plugins/built_in'))).rejects.toThrow(/plugin_type must be "adapter", got "tool"/);
  });

  it('[adapter] runs the adapter in its own process: inbound messages are acknowledged, sends confirmed, actions answered', async () => {
    const { supervisor, received, records, start } = await supervise({ inbound: ['一', '二'] });
    await start();
    expect(supervisor.status).toMatchObject({ state: 'ready', connected: true, selfId: 'bot-1', restarts: 0 });
    expect(supervisor.status.pid).not.toBe(process.pid);
    // A small young generation and a capped old one: a transport's garbage is collected as it goes (issue 20).
    const commandLine = readFileSync(`/proc/${supervisor.status.pid}/cmdline`, 'utf8').split('\0');
    expect(commandLine).toEqual(expect.arrayContaining(['--max-semi-space-size=1', '--max-old-space-size=256']));
    expect(received).toEqual([expect.objectContaining({ content: '一' }), expect.objectContaining({ content: '二' })]);
    expect(records.filter((record) => record.adapter === 'scripted' && /^ack for/.test(record.msg)).map((record) => record.ack)).toEqual([
      { stored: true, status: 'delivered' },
      { stored: true, status: 'delivered' },
    ]);
    expect(await supervisor.deliver(delivery('hello'))).toEqual({ messageId: `out-${supervisor.status.pid}-1` });
    expect(await supervisor.call('get_msg', { message_id: 5 })).toEqual({ action: 'get_msg', params: { message_id: 5 }, pid: supervisor.status.pid });
    await expect(supervisor.deliver(delivery('fail'))).rejects.toThrow(/adapter "scripted": send failed: the platform refused it/);
  });

  it('[adapter] a first start that fails is reported with the adapter’s reason and not retried', async () => {
    const { supervisor, start } = await supervise({ fail_on_start: 'port 8095 is already in use' });
    await expect(start()).rejects.toThrow(/adapter "scripted": could not start: .*port 8095 is already in use/);
    expect(supervisor.status.state).toBe('stopped');
  });

  it('[adapter] a crashed process is restarted after a growing delay; a send in flight fails (not repeated), sends during the outage wait for the restart', async () => {
    const { supervisor, clock, records, start } = await supervise();
    await start();
    const firstPid = supervisor.status.pid;
    await expect(supervisor.deliver(delivery('crash'))).rejects.toThrow(/exited before confirming; not retried/);
    await until(() => supervisor.status.state === 'restarting', { what: 'the exit' });
    expect(records.find((record) => /exited unexpectedly \(exit code 3\)/.test(record.msg))).toMatchObject({ level: 'warn', restartInMs: 500, restarts: 1 });

    const waiting = supervisor.deliver(delivery('queued while down'));
    await clock.advance(499);
    expect(supervisor.status.pid).toBe(firstPid); // not yet restarted
    await clock.advance(1);
    await until(() => supervisor.status.state === 'ready', { what: 'the restart' });
    expect(supervisor.status.pid).not.toBe(firstPid);
    expect(await waiting).toEqual({ messageId: `out-${supervisor.status.pid}-1` });

    // A second crash soon after waits twice as long.
    await expect(supervisor.deliver(delivery('crash'))).rejects.toThrow(/not retried/);
    await until(() => supervisor.status.state === 'restarting', { what: 'the second exit' });
    expect(records.filter((record) => /exited unexpectedly/.test(record.msg)).at(-1)).toMatchObject({ restartInMs: 1_000, restarts: 2 });
    await clock.advance(1_000);
    await until(() => supervisor.status.state === 'ready', { what: 'the second restart' });
    expect(records.some((record) => record.msg === 'the scripted adapter is up again (restart 2)')).toBe(true);
  });

  it('[adapter] a send waits for the adapter only so long, then fails with a clear reason', async () => {
    const { supervisor, clock, start } = await supervise({}, { deliveryWaitMs: 3_000, restart: { initialDelayMs: 10_000 } });
    await start();
    await expect(supervisor.deliver(delivery('crash'))).rejects.toThrow(/not retried/);
    await until(() => supervisor.status.state === 'restarting', { what: 'the exit' });
    const waiting = supervisor.deliver(delivery('too late'));
    const outcome = waiting.then(
      () => 'sent',
      (error: Error) => error.message,
    );
    await clock.advance(2_999);
    await clock.advance(1);
    expect(await outcome).toBe('adapter "scripted": send: the adapter was not up within 3000 ms');
    expect(supervisor.status.state).toBe('restarting'); // the restart itself is still due at 10 s
  });

  it('[adapter] an adapter without platform actions says so; stop() asks the process to exit and waits for it', async () => {
    const { supervisor, records, start } = await supervise({ no_actions: true });
    await start();
    await expect(supervisor.call('get_forward_msg', { id: 'x' })).rejects.toThrow(/action get_forward_msg: this adapter has no platform actions/);
    await supervisor.stop();
    expect(supervisor.status.state).toBe('stopped');
    expect(records.find((record) => record.msg === 'the scripted adapter stopped')).toMatchObject({ code: 0 });
    await expect(supervisor.deliver(delivery('after stop'))).rejects.toThrow(/the adapter is not running \(stopped\)/);
  });

  describe('[issue 20] isolation = "thread": the adapter in a worker thread of the host process', () => {
    it('runs there, not in a process of its own: inbound messages are acknowledged, sends confirmed, actions answered, a refusal reported', async () => {
      const { supervisor, received, records, start } = await supervise({ inbound: ['一', '二'] }, { isolation: 'thread' });
      await start();
      expect(supervisor.status).toMatchObject({ state: 'ready', isolation: 'thread', pid: process.pid, connected: true, selfId: 'bot-1', restarts: 0 });
      expect(records.find((record) => record.msg === 'the scripted adapter is up')).toMatchObject({ isolation: 'thread', threadId: expect.any(Number) });
      expect(received).toEqual([expect.objectContaining({ content: '一' }), expect.objectContaining({ content: '二' })]);
      expect(records.filter((record) => record.adapter === 'scripted' && /^ack for/.test(record.msg)).map((record) => record.ack)).toEqual([
        { stored: true, status: 'delivered' },
        { stored: true, status: 'delivered' },
      ]);
      expect(await supervisor.deliver(delivery('hello'))).toEqual({ messageId: `out-${process.pid}-1` });
      expect(await supervisor.call('get_msg', { message_id: 5 })).toEqual({ action: 'get_msg', params: { message_id: 5 }, pid: process.pid });
      await expect(supervisor.deliver(delivery('fail'))).rejects.toThrow(/adapter "scripted": send failed: the platform refused it/);
    });

    it('a thread that exits, or dies of an uncaught error, is restarted after a growing delay; the send in flight fails in doubt, one during the outage waits', async () => {
      const { supervisor, clock, records, start } = await supervise({}, { isolation: 'thread' });
      await start();
      await expect(supervisor.deliver(delivery('crash'))).rejects.toThrow(/exited before confirming; not retried/);
      await until(() => supervisor.status.state === 'restarting', { what: 'the exit' });
      expect(records.find((record) => /exited unexpectedly \(exit code 3\)/.test(record.msg))).toMatchObject({ level: 'warn', restartInMs: 500, restarts: 1 });
      const waiting = supervisor.deliver(delivery('queued while down'));
      await clock.advance(500);
      await until(() => supervisor.status.state === 'ready', { what: 'the restart' });
      expect(await waiting).toEqual({ messageId: `out-${process.pid}-1` });

      // An uncaught error ends the thread, not the host: logged with its message, and restarted.
      await expect(supervisor.deliver(delivery('throw'))).rejects.toThrow(/not retried/);
      await until(() => supervisor.status.state === 'restarting', { what: 'the thread dying' });
      expect(records.find((record) => record.msg === 'the scripted adapter failed')).toMatchObject({ level: 'error', error: expect.stringMatching(/^Error: scripted uncaught error\n\s+at /) });
      expect(records.find((record) => /exited unexpectedly \(exit code 1\)/.test(record.msg))).toBeDefined();
      expect(records.filter((record) => /exited unexpectedly/.test(record.msg)).at(-1)).toMatchObject({ restartInMs: 1_000, restarts: 2 });
      await clock.advance(1_000);
      await until(() => supervisor.status.state === 'ready', { what: 'the second restart' });
      expect(await supervisor.deliver(delivery('after'))).toEqual({ messageId: `out-${process.pid}-1` });
    });

    it('stop() asks the thread to end and waits for it; a first start that fails is reported with the reason', async () => {
      const { supervisor, records, start } = await supervise({}, { isolation: 'thread' });
      await start();
      await supervisor.stop();
      expect(supervisor.status.state).toBe('stopped');
      expect(records.find((record) => record.msg === 'the scripted adapter stopped')).toMatchObject({ code: 0 });

      const failing = await supervise({ fail_on_start: 'port 8095 is already in use' }, { isolation: 'thread' });
      await expect(failing.start()).rejects.toThrow(/adapter "scripted": could not start: .*port 8095 is already in use/);
    });
  });
});
