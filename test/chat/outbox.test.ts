import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withDeliveryFailure } from '../../src/chat/delivery-failure.js';
import { Ingress } from '../../src/chat/ingress.js';
import type { Message } from '../../src/chat/message.js';
import type { OutboundDelivery, OutboundSink } from '../../src/chat/outbound-sink.js';
import { StreamManager } from '../../src/chat/stream-manager.js';
import { streamIdFor } from '../../src/chat/stream-id.js';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { EventBus } from '../../src/kernel/event-bus/event-bus.js';
import { ManualClock, flushMicrotasks } from '../../src/kernel/time/manual-clock.js';
import { Database } from '../../src/storage/database.js';
import type { Logger } from '../../src/kernel/logger/logger.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { privateEnvelope } from '../support/chat.js';
import { useTempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

// The durable outbox (issue 13, item 1) over a real SQLite file on a manual clock.

/** A platform that can be switched off, refuse, or leave a send in doubt; records what got through. */
class Platform implements OutboundSink {
  readonly delivered: OutboundDelivery[] = [];
  readonly attempts: OutboundDelivery[] = [];
  up = true;
  next: Error | undefined;
  readonly #listeners = new Set<(connected: boolean) => void>();

  async deliver(delivery: OutboundDelivery): Promise<{ messageId: string }> {
    this.attempts.push(delivery);
    if (this.next !== undefined) {
      const error = this.next;
      this.next = undefined;
      throw error;
    }
    if (!this.up) throw withDeliveryFailure(new Error('no OneBot connection'), 'retry');
    this.delivered.push(delivery);
    return { messageId: `platform-${this.delivered.length}` };
  }

  onConnectionChange(listener: (connected: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  reconnect(): void {
    this.up = true;
    for (const listener of this.#listeners) listener(true);
  }

  texts(): string[] {
    return this.delivered.map((delivery) => delivery.content);
  }
}

function useHarness() {
  const tempDir = useTempDir();
  return (options: { folder?: string; clock?: ManualClock; deadlineMs?: number; platform?: Platform; open?: (file: string, logger: Logger) => Database } = {}) => {
    const folder = options.folder ?? tempDir();
    const clock = options.clock ?? new ManualClock();
    const { logger, records } = createMemoryLogger();
    const bus = new EventBus({ clock, logger });
    const file = join(folder, 'moonglass.db');
    const database: Database = options.open?.(file, logger) ?? openDatabase({ file, logger });
    const platform = options.platform ?? new Platform();
    const streams = new StreamManager({
      database,
      bus,
      clock,
      logger,
      sink: () => platform,
      bot: { name: '月璃', accountFor: () => 'bot' },
      ...(options.deadlineMs === undefined ? {} : { sendDeadlineMs: options.deadlineMs }),
    });
    platform.onConnectionChange((connected) => connected && streams.outbox.wake());
    const ingress = new Ingress({ database, streams, bus, clock, logger, onDelivered: () => undefined });
    return { folder, clock, database, streams, ingress, platform, records };
  };
}

const streamOf = (user: string) => streamIdFor({ platform: 'qq', chatType: 'private', userId: user });

describe('Outbox', () => {
  const harness = useHarness();

  it('holds a reply as a row from the moment it is sent, through its typing delay, until the platform took it', async () => {
    const { streams, ingress, database, platform, clock } = harness();
    await ingress.receive(privateEnvelope(1, '早上好'));
    const stream = streamOf('10001');
    const sending = streams.send(stream, { content: '早上好呀' }, { delayMs: 3_000 });
    await flushMicrotasks();
    expect(database.outbox.forStream(stream).map((entry) => (entry.message as Message).content)).toEqual(['早上好呀']);
    expect(platform.attempts).toEqual([]);
    await clock.advance(2_999);
    expect(platform.attempts).toEqual([]);
    await clock.advance(1);
    expect(await sending).toMatchObject({ status: 'sent', message: { messageId: 'platform-1', content: '早上好呀' } });
    expect(database.outbox.count()).toBe(0);
    expect(database.messages.get(stream, 'outbound', 'platform-1')).toMatchObject({ content: '早上好呀' });
  });

  it('keeps a reply while the platform is down and sends it once, in order with later ones, when the connection is back', async () => {
    const { streams, ingress, database, platform, clock, records } = harness();
    await ingress.receive(privateEnvelope(1, 'hi'));
    const stream = streamOf('10001');
    platform.up = false;
    const first = await streams.send(stream, { content: '第一句' });
    expect(first).toMatchObject({ status: 'queued', reason: expect.stringContaining('no OneBot connection') });
    const second = streams.send(stream, { content: '第二句' });
    await clock.advance(5_000); // retries on the clock, still down
    expect(platform.delivered).toEqual([]);
    expect(database.outbox.count()).toBe(2);
    platform.reconnect(); // no clock movement needed: the connection wakes the outbox
    await flushMicrotasks();
    await flushMicrotasks();
    expect(await second).toMatchObject({ status: 'sent' });
    expect(platform.texts()).toEqual(['第一句', '第二句']);
    expect(database.outbox.count()).toBe(0);
    expect(records.filter((record) => record.msg.includes('could not be delivered yet')).length).toBeGreaterThan(0);
  });

  it('drops a reply still undelivered at its deadline, naming the stream and the text, and keeps it in history as not delivered', async () => {
    const { streams, ingress, database, platform, clock, records } = harness({ deadlineMs: 60_000 });
    await ingress.receive(privateEnvelope(1, 'hi'));
    const stream = streamOf('10001');
    platform.up = false;
    await streams.send(stream, { content: '这句话永远发不出去了，因为连接一直断着' });
    await clock.advance(61_000);
    await flushMicrotasks();
    expect(database.outbox.count()).toBe(0);
    const warning = records.find((record) => record.level === 'warn' && record.msg.includes('was dropped'));
    expect(warning?.msg).toContain(stream.slice(0, 12));
    expect(warning?.msg).toContain('这句话永远发不出去了');
    expect(warning?.msg).toContain('send_deadline_seconds');
    const history = streams.getStream(stream)!.history.at(-1)!;
    expect(history).toMatchObject({ direction: 'outbound', extra: { undelivered: true } });
    expect(history.processedPlainText).toMatch(/^（未送达）/);
    expect(database.messages.history(stream, 10).at(-1)).toMatchObject({ messageId: expect.stringMatching(/^undelivered-/) });
    platform.reconnect();
    await flushMicrotasks();
    expect(platform.delivered).toEqual([]);
  });

  it('does not send again a reply left in doubt (the request went out, no answer came), and drops one the platform refused', async () => {
    const { streams, ingress, platform, clock, records } = harness();
    await ingress.receive(privateEnvelope(1, 'hi'));
    const stream = streamOf('10001');
    platform.next = withDeliveryFailure(new Error('no answer within 30000 ms'), 'in_doubt');
    expect(await streams.send(stream, { content: 'maybe' })).toMatchObject({ status: 'sent', message: { messageId: expect.stringMatching(/^unconfirmed-/) } });
    platform.next = withDeliveryFailure(new Error('retcode 120: muted'), 'refused');
    expect(await streams.send(stream, { content: 'muted' })).toMatchObject({ status: 'failed', reason: expect.stringContaining('refused') });
    await clock.advance(60_000);
    expect(platform.attempts.map((delivery) => delivery.content)).toEqual(['maybe', 'muted']);
    expect(records.some((record) => record.level === 'warn' && record.msg.includes('may or may not have reached'))).toBe(true);
  });

  it('asks the platform about a reply left in doubt: sends it again only when the platform does not have it', async () => {
    const { streams, ingress, platform, database, clock } = harness();
    const checks: string[] = [];
    let platformHasIt = false;
    Object.assign(platform, {
      confirm: async ({ delivery, knownMessageIds }: { delivery: OutboundDelivery; knownMessageIds: readonly string[] }) => {
        checks.push(`${delivery.content} known:${knownMessageIds.join(',')}`);
        return platformHasIt ? { status: 'delivered', messageId: 'found-7' } : { status: 'missing' };
      },
    });
    await ingress.receive(privateEnvelope(1, 'hi'));
    const stream = streamOf('10001');
    platform.next = withDeliveryFailure(new Error('connection closed while waiting'), 'in_doubt');
    const first = streams.send(stream, { content: '第一次' });
    await clock.advance(9_999);
    expect(checks).toEqual([]); // a platform that timed out may still be sending: not asked at once
    await clock.advance(1);
    expect(await first).toMatchObject({ status: 'sent', message: { messageId: 'platform-1' } });
    expect(platform.texts()).toEqual(['第一次']); // missing: sent again, once
    platformHasIt = true;
    platform.next = withDeliveryFailure(new Error('no answer within 30000 ms'), 'in_doubt');
    const second = streams.send(stream, { content: '第二次' });
    await clock.advance(10_000);
    expect(await second).toMatchObject({ status: 'sent', message: { messageId: 'found-7' } });
    await clock.advance(60_000);
    expect(platform.texts()).toEqual(['第一次']); // found: not sent again
    expect(checks).toEqual(['第一次 known:', '第二次 known:platform-1']);
    expect(database.messages.get(stream, 'outbound', 'found-7')).toMatchObject({ content: '第二次' });
  });

  it('sends the replies a previous process left in the outbox, after a restart, each once', async () => {
    const before = harness();
    const folder = before.folder;
    await before.ingress.receive(privateEnvelope(1, 'hi'));
    const stream = streamOf('10001');
    void before.streams.send(stream, { content: '重启前排队的' }, { delayMs: 10_000 });
    await flushMicrotasks();
    before.database.close(); // the process dies during the typing delay

    const after = harness({ folder, clock: new ManualClock(before.clock.now() + 20_000) });
    expect(after.database.outbox.count()).toBe(1);
    after.streams.outbox.restore();
    await flushMicrotasks();
    await flushMicrotasks();
    expect(after.platform.texts()).toEqual(['重启前排队的']);
    expect(after.database.outbox.count()).toBe(0);
    after.streams.outbox.restore();
    await flushMicrotasks();
    expect(after.platform.texts()).toEqual(['重启前排队的']);
  });

  it('after a restart where every queued reply is past its deadline, drops them and still sends the next reply', async () => {
    const before = harness();
    await before.ingress.receive(privateEnvelope(1, 'hi'));
    const stream = streamOf('10001');
    before.platform.up = false;
    await before.streams.send(stream, { content: '太迟了' });
    before.database.close();
    const after = harness({ folder: before.folder, clock: new ManualClock(before.clock.now() + 3_600_000) });
    after.streams.outbox.restore();
    await flushMicrotasks();
    expect(after.database.outbox.count()).toBe(0);
    expect(after.streams.outbox.isBusy(stream)).toBe(false);
    expect(await after.streams.send(stream, { content: '现在的' })).toMatchObject({ status: 'sent' });
    expect(after.platform.texts()).toEqual(['现在的']);
  });

  it('after a restart, a reply that was out when the process died is looked up before it is sent again', async () => {
    const before = harness();
    await before.ingress.receive(privateEnvelope(1, 'hi'));
    const stream = streamOf('10001');
    let release!: () => void;
    Object.assign(before.platform, { deliver: () => new Promise<never>(() => (release = () => undefined)) }); // NapCat took it; no answer comes
    void before.streams.send(stream, { content: '发出去了吗' });
    await flushMicrotasks();
    expect(release).toBeDefined();
    before.database.close(); // kill -9 while the send is out

    const after = harness({ folder: before.folder, clock: new ManualClock(before.clock.now() + 60_000) });
    const asked: string[] = [];
    let connected = false; // the adapter connects after the host has started
    Object.assign(after.platform, {
      confirm: async ({ delivery }: { delivery: OutboundDelivery }) => {
        if (!connected) throw withDeliveryFailure(new Error('no adapter is connected yet'), 'retry');
        asked.push(delivery.content);
        return { status: 'delivered', messageId: 'on-qq-1' };
      },
    });
    after.streams.outbox.restore();
    for (let round = 0; round < 5; round += 1) await flushMicrotasks();
    expect(after.database.outbox.count()).toBe(1); // not written off while nobody can look
    connected = true;
    after.platform.reconnect();
    for (let round = 0; round < 5; round += 1) await flushMicrotasks();
    expect(asked).toEqual(['发出去了吗']);
    expect(after.platform.attempts).toEqual([]);
    expect(after.database.messages.get(stream, 'outbound', 'on-qq-1')).toMatchObject({ content: '发出去了吗' });
  });

  it('[issue 20] a reply due at once is stored already marked as going out; one queued behind it is marked only at its turn; a failed try clears the mark', async () => {
    const { streams, ingress, database, platform, clock } = harness();
    await ingress.receive(privateEnvelope(1, 'hi'));
    const stream = streamOf('10001');
    const marks = () => database.outbox.forStream(stream).map((entry) => [(entry.message as Message).content, entry.inDoubtAt]);
    let release: (() => void) | undefined;
    const deliver = platform.deliver.bind(platform);
    platform.deliver = (delivery) => new Promise((resolve) => (release = () => resolve(deliver(delivery))));
    const first = streams.send(stream, { content: '第一句' });
    const second = streams.send(stream, { content: '第二句' });
    await until(() => release !== undefined, { what: 'the first reply going out' });
    expect(marks()).toEqual([
      ['第一句', clock.now()],
      ['第二句', null],
    ]);
    const releaseFirst = release!;
    release = undefined;
    releaseFirst();
    expect(await first).toMatchObject({ status: 'sent' });
    await until(() => release !== undefined, { what: 'the second reply going out' });
    expect(marks()).toEqual([['第二句', expect.any(Number)]]);
    release!();
    expect(await second).toMatchObject({ status: 'sent' });
    expect(platform.texts()).toEqual(['第一句', '第二句']);

    // Down: the mark written at the insert is cleared, and the reply waits for the connection like any other.
    platform.deliver = deliver;
    platform.up = false;
    const third = streams.send(stream, { content: '第三句' });
    expect(await third).toMatchObject({ status: 'queued' });
    expect(marks()).toEqual([['第三句', null]]);
    platform.reconnect();
    await until(() => platform.texts().length === 3, { what: 'the third reply after the reconnect' });
    expect(platform.texts()).toEqual(['第一句', '第二句', '第三句']);
  });

  it('[issue 20] a stream whose one reply went out is idle at once, and each later reply starts it again', async () => {
    const { streams, ingress, database, platform } = harness();
    await ingress.receive(privateEnvelope(1, 'hi'));
    const stream = streamOf('10001');
    for (const content of ['一', '二', '三']) {
      expect(await streams.send(stream, { content })).toMatchObject({ status: 'sent' });
      await flushMicrotasks();
      expect(streams.outbox.isBusy(stream)).toBe(false);
      expect(database.outbox.countFor(stream)).toBe(0);
    }
    expect(platform.texts()).toEqual(['一', '二', '三']);
  });

  it('carries the account the stream belongs to to every delivery', async () => {
    const { streams, ingress, platform } = harness();
    await ingress.receive({ ...privateEnvelope(1, 'hi'), account: '20002' });
    await streams.send(streamIdFor({ platform: 'qq', account: '20002', chatType: 'private', userId: '10001' }), { content: 'back on 20002' });
    expect(platform.delivered[0]).toMatchObject({ account: '20002', content: 'back on 20002' });
  });
});

describe('held reads', () => {
  const harness = useHarness();

  it('a flush during a step is written only with the step’s first queued reply, in one transaction', async () => {
    const { streams, ingress, database } = harness();
    await ingress.receive(privateEnvelope(1, 'hi'));
    const stream = streamOf('10001');
    streams.holdReads(stream);
    const unreads = streams.fetchUnreads(stream);
    expect(streams.flushUnreads(stream, unreads)).toBe(1);
    expect(streams.fetchUnreads(stream)).toEqual([]); // gone from memory at once
    expect(database.messages.unread(stream)).toHaveLength(1); // not yet in storage
    await streams.send(stream, { content: '收到' });
    expect(database.messages.unread(stream)).toEqual([]);
    streams.commitReads(stream);
  });

  it('a step that fails or is abandoned gives its flushed messages back as unread, for the next run', async () => {
    const { streams, ingress, database } = harness();
    await ingress.receive(privateEnvelope(1, 'one'));
    await ingress.receive(privateEnvelope(2, 'two'));
    const stream = streamOf('10001');
    streams.holdReads(stream);
    streams.flushUnreads(stream, streams.fetchUnreads(stream).slice(0, 1));
    streams.releaseReads(stream);
    expect(streams.fetchUnreads(stream).map((message) => message.content)).toEqual(['one', 'two']);
    expect(streams.getStream(stream)!.history.some((message) => message.content === 'one')).toBe(false);
    expect(database.messages.unread(stream)).toHaveLength(2);
  });

  it('a step that ends well writes what it flushed; a crash before that leaves the messages unread on disk', async () => {
    const first = harness();
    const folder = first.folder;
    await first.ingress.receive(privateEnvelope(1, 'hi'));
    const stream = streamOf('10001');
    first.streams.holdReads(stream);
    first.streams.flushUnreads(stream, first.streams.fetchUnreads(stream));
    first.database.close(); // killed mid-step, no reply queued
    const second = harness({ folder });
    expect(second.database.messages.unread(stream)).toHaveLength(1);
    second.streams.holdReads(stream);
    second.streams.flushUnreads(stream, second.streams.fetchUnreads(stream));
    second.streams.commitReads(stream);
    expect(second.database.messages.unread(stream)).toEqual([]);
  });

  it('outside a step a flush is written at once, as before', async () => {
    const { streams, ingress, database } = harness();
    await ingress.receive(privateEnvelope(1, 'hi'));
    const stream = streamOf('10001');
    streams.flushUnreads(stream, streams.fetchUnreads(stream));
    expect(database.messages.unread(stream)).toEqual([]);
  });

  describe('group commit (issue 20): the batch is on disk before anything leaves', () => {
    const onDisk = (folder: string, sql: string) => {
      const disk = new BetterSqlite3(join(folder, 'moonglass.db'), { readonly: true });
      try {
        return disk.prepare(sql).get() as Record<string, unknown>;
      } finally {
        disk.close();
      }
    };

    it('receive() resolves once the inbound message is committed', async () => {
      const { ingress, folder } = harness();
      await ingress.receive(privateEnvelope(1, '刚说的话'));
      expect(onDisk(folder, `SELECT count(*) AS n FROM messages WHERE content = '刚说的话'`)).toEqual({ n: 1 });
    });

    it('a reply is sent only once its outbox row and its in-doubt mark are committed', async () => {
      const platform = new Platform();
      const { streams, ingress, folder } = harness({ platform });
      await ingress.receive(privateEnvelope(1, 'hi'));
      const seenAtSend: Record<string, unknown>[] = [];
      const deliver = platform.deliver.bind(platform);
      platform.deliver = (delivery) => {
        seenAtSend.push(onDisk(folder, 'SELECT count(*) AS n, max(in_doubt_at IS NOT NULL) AS marked FROM outbox'));
        return deliver(delivery);
      };
      expect(await streams.send(streamOf('10001'), { content: '持久了才发' })).toMatchObject({ status: 'sent' });
      expect(seenAtSend).toEqual([{ n: 1, marked: 1 }]);
    });

    it('a message whose batch another write sank is stored again on its own', async () => {
      let handle!: BetterSqlite3.Database;
      const { ingress, database, records, folder } = harness({
        open: (file, logger) => {
          openDatabase({ file, logger }).close(); // creates and migrates the file
          handle = new BetterSqlite3(file);
          return new Database(handle, logger);
        },
      });
      await ingress.receive(privateEnvelope(1, 'hi'));
      // Right after the message is written into the batch, SQLite rolls the transaction back
      // under it, as it does when another write of the batch hits a full disk.
      const insert = database.messages.insertInbound.bind(database.messages);
      database.messages.insertInbound = (message) => {
        database.messages.insertInbound = insert; // once: the second try goes through
        const outcome = insert(message);
        queueMicrotask(() => handle.exec('ROLLBACK'));
        return outcome;
      };
      const outcome = await ingress.receive(privateEnvelope(2, '不会丢'));
      expect(outcome).toMatchObject({ status: 'delivered' });
      expect(onDisk(folder, `SELECT count(*) AS n FROM messages WHERE content = '不会丢'`)).toEqual({ n: 1 });
      expect(records.some((record) => record.msg.includes('storing an inbound message again on its own'))).toBe(true);
      expect(records.some((record) => record.level === 'error' && record.msg.includes('not stored'))).toBe(true);
      database.close();
    });

    it('a reply whose batch SQLite rolled back is reported failed to its sender, its text in the error log, and never sent', async () => {
      let handle!: BetterSqlite3.Database;
      const { ingress, database, streams, platform, records } = harness({
        open: (file, logger) => {
          openDatabase({ file, logger }).close();
          handle = new BetterSqlite3(file);
          return new Database(handle, logger);
        },
      });
      await ingress.receive(privateEnvelope(1, 'hi'));
      const add = database.outbox.add.bind(database.outbox);
      database.outbox.add = (entry) => {
        database.outbox.add = add;
        const rowId = add(entry);
        queueMicrotask(() => handle.exec('ROLLBACK'));
        return rowId;
      };
      expect(await streams.send(streamOf('10001'), { content: '这句没存下来' })).toMatchObject({ status: 'failed', reason: expect.stringContaining('could not be stored') });
      expect(platform.attempts).toEqual([]);
      expect(database.outbox.count()).toBe(0);
      expect(records.some((record) => record.level === 'error' && record.msg.includes('这句没存下来'))).toBe(true);
      database.close();
    });
  });
});
