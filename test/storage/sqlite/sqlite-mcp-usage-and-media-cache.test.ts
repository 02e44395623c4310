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
