import { describe, expect, it } from 'vitest';
import { messageRecord, streamRecord, useTestDatabases } from '../storage-fixtures.js';

describe('the MCP usage counter, the media cache and message text updates', () => {
  const databases = useTestDatabases();

  it('counts MCP calls per day, server and tool, refusing past the limit, and keeps the counts across a reopen', () => {
    const { database, file } = databases.fresh();
    expect(database.mcpUsage.tryCount('2026-11-30', 'search', 'web', 2)).toBe(true);
    expect(database.mcpUsage.tryCount('2026-11-30', 'search', 'web', 2)).toBe(true);
    expect(database.mcpUsage.tryCount('2026-11-30', 'search', 'web', 2)).toBe(false);
    expect(database.mcpUsage.count('2026-11-30', 'search', 'web')).toBe(2);
    expect(database.mcpUsage.tryCount('2026-12-01', 'search', 'web', 2)).toBe(true); // a new day, a new count
    expect(database.mcpUsage.tryCount('2026-11-30', 'search', 'news', 0)).toBe(false); // quota 0: none allowed
    expect(database.mcpUsage.tryCount('2026-11-30', 'search', 'news', undefined)).toBe(true); // no quota
    database.close();
    expect(databases.open(file).mcpUsage.count('2026-11-30', 'search', 'web')).toBe(2);
  });

  it('stores, replaces and finds media descriptions by kind and key', () => {
    const { database } = databases.fresh();
    const entry = { kind: 'image' as const, key: 'sha-1', text: '[图片：一只猫]', durationS: null, createdAt: 1 };
    database.mediaCache.put(entry);
    expect(database.mediaCache.get('image', 'sha-1')).toEqual(entry);
    expect(database.mediaCache.get('video', 'sha-1')).toBeUndefined();
    database.mediaCache.put({ ...entry, text: '[图片：两只猫]', createdAt: 2 });
    expect(database.mediaCache.get('image', 'sha-1')).toMatchObject({ text: '[图片：两只猫]', createdAt: 2 });
    database.mediaCache.put({ kind: 'video', key: 'v.mp4', text: '[视频：约 10 分钟，超出观看时长上限，未看]', durationS: 600, createdAt: 3 });
    expect(database.mediaCache.get('video', 'v.mp4')?.durationS).toBe(600);
  });

  it('replaces an inbound message’s processed text and says whether the message exists', () => {
    const { database } = databases.fresh();
    database.streams.upsert(streamRecord({ streamId: 'stream-a' }));
    database.messages.insertInbound(messageRecord({ processedPlainText: '看 [图片]' }));
    const { streamId, messageId } = messageRecord();
    expect(database.messages.updateProcessedText(streamId, messageId, '看 [图片：一只猫]')).toBe(true);
    expect(database.messages.unread(streamId)[0]?.processedPlainText).toBe('看 [图片：一只猫]');
    expect(database.messages.updateProcessedText(streamId, 'no-such-message', 'x')).toBe(false);
  });
});

describe('the model-call log', () => {
  const databases = useTestDatabases();

  it('sums calls, failures, tokens and mean latency per local day and task', () => {
    const { database } = databases.fresh();
    const at = (day: number, hour: number) => new Date(2026, 10, day, hour).getTime();
    const call = { requestName: 'actor', model: 'main', streamId: 's', promptTokens: 100, completionTokens: 20 };
    database.modelCalls.record({ ...call, time: at(29, 23), task: 'actor', success: true, durationMs: 900 });
    database.modelCalls.record({ ...call, time: at(30, 1), task: 'actor', success: true, durationMs: 1000 });
    database.modelCalls.record({ ...call, time: at(30, 2), task: 'actor', success: true, durationMs: 3000 });
    database.modelCalls.record({ ...call, time: at(30, 3), task: 'actor', success: false, model: null, promptTokens: null, completionTokens: null, durationMs: null });
    database.modelCalls.record({ ...call, time: at(30, 4), task: 'vlm', success: true, durationMs: 500 });
    expect(database.modelCalls.dailyUsage(at(30, 0))).toEqual([
      { day: '2026-11-30', task: 'actor', calls: 3, failures: 1, promptTokens: 200, completionTokens: 40, averageMs: 2000 },
      { day: '2026-11-30', task: 'vlm', calls: 1, failures: 0, promptTokens: 100, completionTokens: 20, averageMs: 500 },
    ]);
    expect(database.modelCalls.dailyUsage(at(29, 0)).map((row) => row.day)).toEqual(['2026-11-29', '2026-11-30', '2026-11-30']);
  });

  it('deletes the calls made before the cutoff and says how many', () => {
    const { database } = databases.fresh();
    const call = { task: 'actor', requestName: 'actor', model: 'main', streamId: 's', success: true, promptTokens: 1, completionTokens: 1, durationMs: 10 };
    database.modelCalls.record({ ...call, time: 1_000 });
    database.modelCalls.record({ ...call, time: 2_000 });
    expect(database.modelCalls.deleteBefore(2_000)).toBe(1);
    expect(database.modelCalls.dailyUsage(0).map((row) => row.calls)).toEqual([1]);
  });
});
