import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { ManualClock } from '../../src/kernel/time/manual-clock.js';
import { applyRetention } from '../../src/storage/apply-retention.js';
import type { Database } from '../../src/storage/database.js';
import { RETENTION_FIRST_DELAY_MS, RETENTION_INTERVAL_MS, startRetention } from '../../src/storage/start-retention.js';
import { messageRecord, streamRecord, useTestDatabases } from './storage-fixtures.js';

const DAY_MS = 86_400_000;
const NOW_MS = Date.UTC(2026, 0, 1);

/** `count` read inbound messages of about 2 KB each, `daysAgo` days before `NOW_MS`. */
function fillRead(database: Database, prefix: string, count: number, daysAgo: number): void {
  database.transaction(() => {
    for (let index = 0; index < count; index += 1) {
      const messageId = `${prefix}-${index}`;
      database.messages.insertInbound(messageRecord({ messageId, time: (NOW_MS - daysAgo * DAY_MS) / 1000 + index, content: 'x'.repeat(2000) }));
      database.messages.markRead('stream-a', [messageId]);
    }
  });
}

function onDisk(file: string): number {
  return ['', '-wal', '-shm'].reduce((total, suffix) => total + (statSync(file + suffix, { throwIfNoEntry: false })?.size ?? 0), 0);
}

describe('Database.sizeBytes', () => {
  const databases = useTestDatabases();

  it('counts the file with its -wal and -shm files', () => {
    const { database, file } = databases.fresh();
    database.streams.upsert(streamRecord());
    fillRead(database, 'm', 50, 1);
    expect(database.sizeBytes()).toBe(onDisk(file));
    expect(database.sizeBytes()).toBeGreaterThan(statSync(file).size);
  });

  it('is 0 for an in-memory database', () => {
    expect(databases.open(':memory:').sizeBytes()).toBe(0);
  });
});

describe(applyRetention, () => {
  const databases = useTestDatabases();

  function filled() {
    const opened = databases.fresh();
    const { database } = opened;
    database.streams.upsert(streamRecord());
    fillRead(database, 'old', 2000, 100);
    fillRead(database, 'recent', 10, 10);
    database.messages.insertInbound(messageRecord({ messageId: 'old-unread', time: (NOW_MS - 200 * DAY_MS) / 1000 }));
    const tool = { streamId: 'stream-a', toolName: 'roll_dice', arguments: {}, success: true, observation: '4', errorMessage: '', durationMs: 1 };
    database.toolCalls.record({ ...tool, callId: 'old', startedAt: NOW_MS - 100 * DAY_MS });
    database.toolCalls.record({ ...tool, callId: 'recent', startedAt: NOW_MS - 10 * DAY_MS });
    const model = { task: 'actor', requestName: 'actor', model: 'main', streamId: 'stream-a', success: true, promptTokens: 1, completionTokens: 1, durationMs: 1 };
    database.modelCalls.record({ ...model, time: NOW_MS - 100 * DAY_MS });
    database.modelCalls.record({ ...model, time: NOW_MS - 10 * DAY_MS });
    return opened;
  }

  it('removes read messages and logs older than keep_days, keeps unread and recent ones, and shrinks the file', () => {
    const { database, file } = filled();
    const before = onDisk(file);
    const report = applyRetention(database, 90, NOW_MS);
    expect(report).toMatchObject({ cutoffMs: NOW_MS - 90 * DAY_MS, messages: 2000, toolCalls: 1, modelCalls: 1, sizeBeforeBytes: before });
    expect(database.messages.unread('stream-a').map((message) => message.messageId)).toEqual(['old-unread']);
    expect(database.messages.history('stream-a', 100)).toHaveLength(10);
    expect(database.toolCalls.recent('stream-a', 10).map((call) => call.callId)).toEqual(['recent']);
    expect(database.modelCalls.dailyUsage(0).reduce((sum, row) => sum + row.calls, 0)).toBe(1);
    expect(report.sizeAfterBytes).toBe(onDisk(file));
    expect(report.sizeAfterBytes).toBeLessThan(before / 4);
  });

  it('shrinks the file again on a later pass (incremental vacuum after the first compaction), with the data intact after a reopen', () => {
    const { database, file } = filled();
    applyRetention(database, 90, NOW_MS);
    fillRead(database, 'later', 2000, 95);
    const before = onDisk(file);
    const report = applyRetention(database, 90, NOW_MS);
    expect(report.messages).toBe(2000);
    expect(report.sizeAfterBytes).toBeLessThan(before / 4);
    database.close();
    const reopened = databases.open(file);
    expect(reopened.messages.history('stream-a', 100)).toHaveLength(10);
    expect(reopened.messages.unread('stream-a')).toHaveLength(1);
  });

  it('keeps everything newer than keep_days', () => {
    const { database } = filled();
    expect(applyRetention(database, 365, NOW_MS)).toMatchObject({ messages: 0, toolCalls: 0, modelCalls: 0 });
    expect(database.messages.history('stream-a', 5000)).toHaveLength(2010);
  });
});

describe(startRetention, () => {
  const databases = useTestDatabases();

  function scheduled(database: Database) {
    const clock = new ManualClock(NOW_MS);
    const { logger, records } = createMemoryLogger();
    const stop = startRetention({ database, clock, keepDays: 90, logger });
    const passes = () => records.filter((record) => record.msg.startsWith('retention: '));
    return { clock, records, stop, passes };
  }

  it('runs a minute after start, then once a day, logging what it removed and the size before and after', async () => {
    const { database } = databases.fresh();
    database.streams.upsert(streamRecord());
    fillRead(database, 'old', 500, 100);
    const { clock, stop, passes } = scheduled(database);
    await clock.advance(RETENTION_FIRST_DELAY_MS - 1);
    expect(passes()).toHaveLength(0);
    await clock.advance(1);
    expect(passes()).toHaveLength(1);
    expect(passes()[0]!.msg).toMatch(/^retention: removed 500 messages, 0 tool calls and 0 model calls older than 90 days; database \d+\.\d MiB -> \d+\.\d MiB$/);
    expect(passes()[0]).toMatchObject({ level: 'info', messages: 500, keepDays: 90 });

    // A day later the messages that were 89.9 days old have passed the line.
    fillRead(database, 'next', 3, 89.9);
    await clock.advance(RETENTION_INTERVAL_MS - 1);
    expect(passes()).toHaveLength(1);
    await clock.advance(1);
    expect(passes()).toHaveLength(2);
    expect(passes()[1]).toMatchObject({ messages: 3 });
    stop();
    stop();
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(3 * RETENTION_INTERVAL_MS);
    expect(passes()).toHaveLength(2);
  });

  it('logs a failing pass instead of throwing, and tries again the next day', async () => {
    const failing = {
      file: '/data/moonglass.db',
      isOpen: true,
      sizeBytes: () => 0,
      transaction: () => {
        throw new Error('disk I/O error');
      },
    } as unknown as Database;
    const { clock, records, stop } = scheduled(failing);
    await clock.advance(RETENTION_FIRST_DELAY_MS + RETENTION_INTERVAL_MS);
    const failures = records.filter((record) => record.msg === 'retention failed; the next pass is in a day');
    expect(failures).toHaveLength(2);
    expect(failures[0]).toMatchObject({ level: 'error', error: 'Error: disk I/O error', file: '/data/moonglass.db' });
    stop();
  });

  it('ends its schedule once the database is closed', async () => {
    const { database } = databases.fresh();
    const { clock, passes } = scheduled(database);
    database.close();
    await clock.advance(RETENTION_FIRST_DELAY_MS);
    expect(passes()).toHaveLength(0);
    expect(clock.pendingTimers).toBe(0);
  });
});
