import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/kernel/errors/invalid-argument-error.js';
import { SqliteToolCallLog } from '../../../src/storage/sqlite/sqlite-tool-call-log.js';
import type { ToolCallRecord } from '../../../src/storage/tool-call-log.js';
import { countOnDisk, useTestDatabases } from '../storage-fixtures.js';

function call(overrides: Partial<ToolCallRecord> = {}): ToolCallRecord {
  return {
    streamId: 'stream-a',
    callId: 'call-1',
    toolName: 'roll_dice',
    arguments: { sides: 6, label: '骰子 🎲', nested: { list: [1, 2] } },
    success: true,
    observation: '掷出了 4',
    errorMessage: '',
    startedAt: 1_700_000_000_000,
    durationMs: 12.5,
    ...overrides,
  };
}

describe(SqliteToolCallLog, () => {
  const databases = useTestDatabases();

  it('is what Database.toolCalls writes to, in the write batch: seen at once, on disk once committed', async () => {
    const { database, file } = databases.fresh();
    database.toolCalls.record(call());
    expect(database.toolCalls.recent('stream-a', 10)).toEqual([call()]);
    expect(countOnDisk(file, 'tool_calls')).toBe(0);
    await database.committed();
    expect(countOnDisk(file, 'tool_calls')).toBe(1);
  });

  it('records a call and gives it back whole, failures included', () => {
    const { database } = databases.fresh();
    const failed = call({ callId: 'call-2', success: false, observation: '', errorMessage: '超时', startedAt: 1_700_000_001_000 });
    database.toolCalls.record(call());
    database.toolCalls.record(failed);
    expect(database.toolCalls.recent('stream-a', 10)).toEqual([call(), failed]);
  });

  it('returns the newest `limit` calls of the stream, oldest first', () => {
    const { database } = databases.fresh();
    for (let index = 1; index <= 5; index += 1) {
      database.toolCalls.record(call({ callId: `call-${index}`, startedAt: index }));
    }
    database.toolCalls.record(call({ streamId: 'stream-b', callId: 'elsewhere', startedAt: 99 }));
    expect(database.toolCalls.recent('stream-a', 3).map((entry) => entry.callId)).toEqual(['call-3', 'call-4', 'call-5']);
    expect(database.toolCalls.recent('stream-c', 3)).toEqual([]);
  });

  it('needs no stored stream (calls are logged even for streams the chat layer has not saved)', () => {
    const { database } = databases.fresh();
    expect(() => database.toolCalls.record(call({ streamId: 'unsaved' }))).not.toThrow();
  });

  it('stores arguments JSON cannot represent as {} without throwing', () => {
    const { database } = databases.fresh();
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    database.toolCalls.record(call({ arguments: circular }));
    expect(database.toolCalls.recent('stream-a', 1)).toEqual([call({ arguments: {} })]);
  });

  it('refuses a negative limit', () => {
    const { database } = databases.fresh();
    expect(() => database.toolCalls.recent('stream-a', -5)).toThrow(InvalidArgumentError);
  });

  it('deletes the calls that started before the cutoff and says how many', () => {
    const { database } = databases.fresh();
    database.toolCalls.record(call({ callId: 'old', startedAt: 1_000 }));
    database.toolCalls.record(call({ callId: 'at-cutoff', startedAt: 2_000 }));
    database.toolCalls.record(call({ callId: 'new', startedAt: 3_000 }));
    expect(database.toolCalls.deleteBefore(2_000)).toBe(1);
    expect(database.toolCalls.recent('stream-a', 10).map((entry) => entry.callId)).toEqual(['at-cutoff', 'new']);
  });
});
