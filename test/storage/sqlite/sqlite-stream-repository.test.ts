import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/kernel/errors/invalid-argument-error.js';
import type { StreamRecord } from '../../../src/storage/stream-repository.js';
import { SqliteStreamRepository } from '../../../src/storage/sqlite/sqlite-stream-repository.js';
import { streamRecord, useTestDatabases } from '../storage-fixtures.js';

describe(SqliteStreamRepository, () => {
  const databases = useTestDatabases();

  it('is what Database.streams holds', () => {
    expect(databases.fresh().database.streams).toBeInstanceOf(SqliteStreamRepository);
  });

  it('stores a stream and gets it back, and nothing for an unknown id', () => {
    const { database } = databases.fresh();
    const privateStream: StreamRecord = streamRecord({
      streamId: 'private-1',
      chatType: 'private',
      groupId: null,
      groupName: null,
      userId: '42',
      userName: '小明',
    });
    database.streams.upsert(privateStream);
    expect(database.streams.get('private-1')).toEqual(privateStream);
    expect(database.streams.get('missing')).toBeUndefined();
  });

  describe('upsert of a stored stream', () => {
    it('keeps created_at and the ids, and updates the names and last_active_at', () => {
      const { database } = databases.fresh();
      database.streams.upsert(streamRecord({ createdAt: 100, lastActiveAt: 100 }));
      database.streams.upsert(streamRecord({ createdAt: 999, lastActiveAt: 500, groupName: '改名了', groupId: 'other', platform: 'telegram' }));
      expect(database.streams.get('stream-a')).toEqual(streamRecord({ createdAt: 100, lastActiveAt: 500, groupName: '改名了' }));
    });

    it('keeps a stored name when the new record has none (the platform sent no name)', () => {
      const { database } = databases.fresh();
      database.streams.upsert(streamRecord({ streamId: 'group', groupName: '老群名', lastActiveAt: 100 }));
      database.streams.upsert(streamRecord({ streamId: 'group', groupName: null, lastActiveAt: 200 }));
      expect(database.streams.get('group')).toMatchObject({ groupName: '老群名', lastActiveAt: 200 });
      const user = { streamId: 'user', chatType: 'private' as const, groupId: null, groupName: null, userId: '42' };
      database.streams.upsert(streamRecord({ ...user, userName: '小明', lastActiveAt: 100 }));
      database.streams.upsert(streamRecord({ ...user, userName: null, lastActiveAt: 300 }));
      database.streams.upsert(streamRecord({ ...user, userName: '小红', lastActiveAt: 400 }));
      expect(database.streams.get('user')).toMatchObject({ userName: '小红', lastActiveAt: 400 });
    });
  });

  it('refuses a chat type other than private or group', () => {
    const { database } = databases.fresh();
    expect(() => database.streams.upsert(streamRecord({ chatType: 'channel' as 'group' }))).toThrow(InvalidArgumentError);
    expect(database.streams.get('stream-a')).toBeUndefined();
  });

  describe('list', () => {
    it('returns the most recently active streams first, up to the limit', () => {
      const { database } = databases.fresh();
      database.streams.upsert(streamRecord({ streamId: 'old', lastActiveAt: 10 }));
      database.streams.upsert(streamRecord({ streamId: 'new', lastActiveAt: 30 }));
      database.streams.upsert(streamRecord({ streamId: 'mid', lastActiveAt: 20 }));
      expect(database.streams.list({ limit: 10 }).map((stream) => stream.streamId)).toEqual(['new', 'mid', 'old']);
      expect(database.streams.list({ limit: 2 }).map((stream) => stream.streamId)).toEqual(['new', 'mid']);
    });

    it('keeps only streams active at or after activeSince', () => {
      const { database } = databases.fresh();
      database.streams.upsert(streamRecord({ streamId: 'old', lastActiveAt: 10 }));
      database.streams.upsert(streamRecord({ streamId: 'edge', lastActiveAt: 20 }));
      database.streams.upsert(streamRecord({ streamId: 'new', lastActiveAt: 30 }));
      expect(database.streams.list({ limit: 10, activeSince: 20 }).map((stream) => stream.streamId)).toEqual(['new', 'edge']);
    });

    it('refuses a negative limit', () => {
      const { database } = databases.fresh();
      expect(() => database.streams.list({ limit: -1 })).toThrow(InvalidArgumentError);
    });
  });

  describe('touch', () => {
    it('moves last_active_at forward and nothing else', () => {
      const { database } = databases.fresh();
      database.streams.upsert(streamRecord({ lastActiveAt: 10 }));
      database.streams.touch('stream-a', 42.5);
      expect(database.streams.get('stream-a')).toEqual(streamRecord({ lastActiveAt: 42.5 }));
    });

    it('never moves last_active_at back', () => {
      const { database } = databases.fresh();
      database.streams.upsert(streamRecord({ lastActiveAt: 50 }));
      database.streams.touch('stream-a', 42);
      expect(database.streams.get('stream-a')?.lastActiveAt).toBe(50);
    });

    it('does nothing for an unknown stream', () => {
      const { database } = databases.fresh();
      database.streams.touch('missing', 42);
      expect(database.streams.get('missing')).toBeUndefined();
    });
  });
});
