import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/kernel/errors/invalid-argument-error.js';
import { StorageError } from '../../../src/storage/errors/storage-error.js';
import type { StreamStateRecord } from '../../../src/storage/stream-state-repository.js';
import { SqliteStreamStateRepository } from '../../../src/storage/sqlite/sqlite-stream-state-repository.js';
import { countOnDisk, streamRecord, useTestDatabases } from '../storage-fixtures.js';

const stopped: StreamStateRecord = {
  streamId: 'stream-a',
  kind: 'stop',
  waitUntil: null,
  stopUntil: 1_700_000_600_000,
  wakeProbability: 0.25,
  updatedAt: 1_700_000_000_000,
};

describe(SqliteStreamStateRepository, () => {
  const databases = useTestDatabases();

  it('is what Database.streamStates writes to, in the write batch: seen at once, on disk once committed', async () => {
    const { database, file } = databases.fresh();
    database.transaction(() => database.streams.upsert(streamRecord()));
    database.streamStates.set(stopped);
    expect(database.streamStates.get('stream-a')).toEqual(stopped);
    expect(countOnDisk(file, 'stream_state')).toBe(0);
    await database.committed();
    expect(countOnDisk(file, 'stream_state')).toBe(1);
  });

  it('sets a state and gets it back; an unknown stream has none', () => {
    const { database } = databases.fresh();
    database.streams.upsert(streamRecord());
    database.streamStates.set(stopped);
    expect(database.streamStates.get('stream-a')).toEqual(stopped);
    expect(database.streamStates.get('stream-b')).toBeUndefined();
  });

  it('replaces the previous state of the stream', () => {
    const { database } = databases.fresh();
    database.streams.upsert(streamRecord());
    database.streamStates.set(stopped);
    const waiting: StreamStateRecord = { ...stopped, kind: 'wait', waitUntil: 1_700_000_005_000, stopUntil: null, wakeProbability: 0 };
    database.streamStates.set(waiting);
    expect(database.streamStates.all()).toEqual([waiting]);
  });

  it('lists every state by stream id, and they survive a reopen', () => {
    const { database, file } = databases.fresh();
    database.streams.upsert(streamRecord({ streamId: 'b' }));
    database.streams.upsert(streamRecord({ streamId: 'a' }));
    database.streamStates.set({ ...stopped, streamId: 'b' });
    database.streamStates.set({ ...stopped, streamId: 'a', kind: 'idle', stopUntil: null });
    database.close();
    expect(databases.open(file).streamStates.all().map((state) => [state.streamId, state.kind])).toEqual([
      ['a', 'idle'],
      ['b', 'stop'],
    ]);
  });

  it('refuses a state for a stream that is not stored', () => {
    const { database } = databases.fresh();
    expect(() => database.streamStates.set(stopped)).toThrow(StorageError);
  });

  it('refuses an unknown kind and a wake probability outside 0..1', () => {
    const { database } = databases.fresh();
    database.streams.upsert(streamRecord());
    expect(() => database.streamStates.set({ ...stopped, kind: 'sleep' as 'stop' })).toThrow(InvalidArgumentError);
    expect(() => database.streamStates.set({ ...stopped, wakeProbability: 1.5 })).toThrow(InvalidArgumentError);
    expect(() => database.streamStates.set({ ...stopped, wakeProbability: Number.NaN })).toThrow(InvalidArgumentError);
    expect(database.streamStates.get('stream-a')).toBeUndefined();
  });
});
