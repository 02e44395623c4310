import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/kernel/errors/invalid-argument-error.js';
import type { Database } from '../../../src/storage/database.js';
import { SqliteMessageRepository } from '../../../src/storage/sqlite/sqlite-message-repository.js';
import { messageRecord, streamRecord, useTestDatabases } from '../storage-fixtures.js';

describe(SqliteMessageRepository, () => {
  const databases = useTestDatabases();

  /** A fresh database with `stream-a` and `stream-b` stored. */
  function freshWithStreams(): { database: Database; file: string } {
    const opened = databases.fresh();
    opened.database.streams.upsert(streamRecord());
    opened.database.streams.upsert(streamRecord({ streamId: 'stream-b' }));
    return opened;
  }

  const ids = (records: readonly { messageId: string }[]): string[] => records.map((record) => record.messageId);

  it('is what Database.messages holds', () => {
    expect(databases.fresh().database.messages).toBeInstanceOf(SqliteMessageRepository);
  });

  describe('insertInbound', () => {
    it('stores a new message as unread and says inserted', () => {
      const { database } = freshWithStreams();
      expect(database.messages.insertInbound(messageRecord())).toBe('inserted');
      expect(database.messages.unread('stream-a')).toEqual([messageRecord()]);
    });

    it('says duplicate for an id already stored in the stream and keeps the one row unchanged', () => {
      const { database } = freshWithStreams();
      database.messages.insertInbound(messageRecord({ content: 'first' }));
      expect(database.messages.insertInbound(messageRecord({ content: 'second' }))).toBe('duplicate');
      expect(database.messages.unread('stream-a')).toEqual([messageRecord({ content: 'first' })]);
    });

    it('does not call a read message a new one when it arrives again', () => {
      const { database } = freshWithStreams();
      database.messages.insertInbound(messageRecord());
      database.messages.markRead('stream-a', ['m1']);
      expect(database.messages.insertInbound(messageRecord())).toBe('duplicate');
      expect(database.messages.unread('stream-a')).toEqual([]);
    });

    it('treats the same id in another stream as another message', () => {
      const { database } = freshWithStreams();
      database.messages.insertInbound(messageRecord());
      expect(database.messages.insertInbound(messageRecord({ streamId: 'stream-b' }))).toBe('inserted');
    });

    it('refuses a record whose direction is outbound', () => {
      const { database } = freshWithStreams();
      expect(() => database.messages.insertInbound(messageRecord({ direction: 'outbound' }))).toThrow(InvalidArgumentError);
    });
  });

  describe('insertOutbound', () => {
    it('stores the message read: never in unread, always in history', () => {
      const { database } = freshWithStreams();
      database.messages.insertOutbound(messageRecord({ direction: 'outbound', messageId: 'bot-1' }));
      expect(database.messages.unread('stream-a')).toEqual([]);
      expect(database.messages.streamsWithUnread()).toEqual([]);
      expect(ids(database.messages.history('stream-a', 10))).toEqual(['bot-1']);
    });

    it('ignores a repeated id', () => {
      const { database } = freshWithStreams();
      database.messages.insertOutbound(messageRecord({ direction: 'outbound', messageId: 'bot-1', content: 'first' }));
      database.messages.insertOutbound(messageRecord({ direction: 'outbound', messageId: 'bot-1', content: 'second' }));
      expect(database.messages.history('stream-a', 10).map((message) => message.content)).toEqual(['first']);
    });

    it('keeps an outbound message apart from an inbound one with the same id', () => {
      const { database } = freshWithStreams();
      database.messages.insertInbound(messageRecord({ messageId: 'same' }));
      database.messages.insertOutbound(messageRecord({ direction: 'outbound', messageId: 'same', content: 'reply' }));
      expect(database.messages.get('stream-a', 'inbound', 'same')?.content).toBe('text of same');
      expect(database.messages.get('stream-a', 'outbound', 'same')?.content).toBe('reply');
    });

    it('refuses a record whose direction is inbound', () => {
      const { database } = freshWithStreams();
      expect(() => database.messages.insertOutbound(messageRecord())).toThrow(InvalidArgumentError);
    });
  });

  describe('unread', () => {
    it('lists the stream’s unread messages oldest first, whatever the insertion order', () => {
      const { database } = freshWithStreams();
      database.messages.insertInbound(messageRecord({ messageId: 'late', time: 300 }));
      database.messages.insertInbound(messageRecord({ messageId: 'early', time: 100 }));
      database.messages.insertInbound(messageRecord({ messageId: 'middle', time: 200 }));
      database.messages.insertInbound(messageRecord({ messageId: 'other', streamId: 'stream-b' }));
      expect(ids(database.messages.unread('stream-a'))).toEqual(['early', 'middle', 'late']);
    });

    it('after a restart every stream’s unread messages are back', () => {
      const { database, file } = freshWithStreams();
      database.messages.insertInbound(messageRecord({ messageId: 'a1', time: 1 }));
      database.messages.insertInbound(messageRecord({ messageId: 'a2', time: 2 }));
      database.messages.insertInbound(messageRecord({ messageId: 'b1', streamId: 'stream-b', time: 3 }));
      database.messages.markRead('stream-a', ['a1']);
      database.close();

      const reopened = databases.open(file);
      expect(reopened.messages.streamsWithUnread()).toEqual(['stream-a', 'stream-b']);
      expect(ids(reopened.messages.unread('stream-a'))).toEqual(['a2']);
      expect(ids(reopened.messages.unread('stream-b'))).toEqual(['b1']);
      expect(ids(reopened.messages.history('stream-a', 10))).toEqual(['a1']);
    });
  });

  describe('markRead', () => {
    it('moves exactly the given ids from unread to history and counts them', () => {
      const { database } = freshWithStreams();
      for (const [index, messageId] of ['m1', 'm2', 'm3', 'm4'].entries()) {
        database.messages.insertInbound(messageRecord({ messageId, time: index }));
      }
      expect(database.messages.markRead('stream-a', ['m1', 'm3'])).toBe(2);
      expect(ids(database.messages.unread('stream-a'))).toEqual(['m2', 'm4']);
      expect(ids(database.messages.history('stream-a', 10))).toEqual(['m1', 'm3']);
    });

    it('counts only messages that were unread: unknown, repeated and already read ids change nothing', () => {
      const { database } = freshWithStreams();
      database.messages.insertInbound(messageRecord({ messageId: 'm1' }));
      database.messages.insertInbound(messageRecord({ messageId: 'm2' }));
      database.messages.markRead('stream-a', ['m2']);
      expect(database.messages.markRead('stream-a', ['m1', 'm1', 'm2', 'missing'])).toBe(1);
      expect(database.messages.markRead('stream-a', [])).toBe(0);
    });

    it('is undone with the transaction or batch it ran in', () => {
      const { database } = freshWithStreams();
      for (const messageId of ['m1', 'm2', 'm3']) database.messages.insertInbound(messageRecord({ messageId }));
      expect(() =>
        database.transaction(() => {
          database.messages.markRead('stream-a', ['m1', 'm2']);
          throw new Error('the rest of the transaction failed');
        }),
      ).toThrow('the rest of the transaction failed');
      expect(() =>
        database.batch(() => {
          database.messages.markRead('stream-a', ['m3']);
          throw new Error('the rest of the batch failed');
        }),
      ).toThrow('the rest of the batch failed');
      expect(ids(database.messages.unread('stream-a'))).toEqual(['m1', 'm2', 'm3']);
    });

    it('leaves the same id in another stream unread', () => {
      const { database } = freshWithStreams();
      database.messages.insertInbound(messageRecord({ messageId: 'm1' }));
      database.messages.insertInbound(messageRecord({ messageId: 'm1', streamId: 'stream-b' }));
      database.messages.markRead('stream-a', ['m1']);
      expect(ids(database.messages.unread('stream-b'))).toEqual(['m1']);
    });
  });

  describe('history', () => {
    it('returns the newest `limit` read inbound and outbound messages, oldest first, without unread ones', () => {
      const { database } = freshWithStreams();
      for (let index = 1; index <= 6; index += 1) {
        database.messages.insertInbound(messageRecord({ messageId: `in${index}`, time: index * 10 }));
        database.messages.insertOutbound(messageRecord({ direction: 'outbound', messageId: `out${index}`, time: index * 10 + 5 }));
      }
      database.messages.markRead('stream-a', ['in1', 'in2', 'in3', 'in4', 'in5']); // in6 stays unread
      // out6 is newer than the unread in6 and belongs to history; in6 does not.
      expect(ids(database.messages.history('stream-a', 4))).toEqual(['out4', 'in5', 'out5', 'out6']);
      expect(database.messages.history('stream-a', 100)).toHaveLength(11);
      expect(database.messages.history('stream-a', 0)).toEqual([]);
      expect(database.messages.history('stream-b', 10)).toEqual([]);
    });

    it('keeps insertion order between messages with the same time', () => {
      const { database } = freshWithStreams();
      for (const messageId of ['x', 'y', 'z']) {
        database.messages.insertOutbound(messageRecord({ direction: 'outbound', messageId, time: 5 }));
      }
      expect(ids(database.messages.history('stream-a', 2))).toEqual(['y', 'z']);
    });

    it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses the limit %s', (limit) => {
      const { database } = freshWithStreams();
      expect(() => database.messages.history('stream-a', limit)).toThrow(InvalidArgumentError);
    });
  });

  describe('streamsWithUnread', () => {
    it('lists each stream with unread messages once, the one waiting longest first', () => {
      const { database } = freshWithStreams();
      database.streams.upsert(streamRecord({ streamId: 'stream-c' }));
      database.messages.insertInbound(messageRecord({ streamId: 'stream-b', messageId: 'b1', time: 50 }));
      database.messages.insertInbound(messageRecord({ streamId: 'stream-b', messageId: 'b2', time: 60 }));
      database.messages.insertInbound(messageRecord({ streamId: 'stream-a', messageId: 'a1', time: 70 }));
      database.messages.insertInbound(messageRecord({ streamId: 'stream-c', messageId: 'c1', time: 80 }));
      database.messages.markRead('stream-c', ['c1']);
      expect(database.messages.streamsWithUnread()).toEqual(['stream-b', 'stream-a']);
    });
  });

  describe('get', () => {
    it('finds a message by stream, direction and id, and nothing for the wrong direction', () => {
      const { database } = freshWithStreams();
      database.messages.insertInbound(messageRecord());
      expect(database.messages.get('stream-a', 'inbound', 'm1')).toEqual(messageRecord());
      expect(database.messages.get('stream-a', 'outbound', 'm1')).toBeUndefined();
      expect(database.messages.get('stream-b', 'inbound', 'm1')).toBeUndefined();
    });
  });

  describe('countSince', () => {
    it('counts each direction from the given epoch second on', () => {
      const { database } = freshWithStreams();
      database.messages.insertInbound(messageRecord({ messageId: 'old', time: 99.9 }));
      database.messages.insertInbound(messageRecord({ messageId: 'edge', time: 100 }));
      database.messages.insertInbound(messageRecord({ messageId: 'new', streamId: 'stream-b', time: 150 }));
      database.messages.insertOutbound(messageRecord({ direction: 'outbound', messageId: 'reply', time: 120 }));
      expect(database.messages.countSince(100)).toEqual({ inbound: 2, outbound: 1 });
      expect(database.messages.countSince(1000)).toEqual({ inbound: 0, outbound: 0 });
    });
  });

  describe('raw and extra', () => {
    it('round-trip through JSON, unicode and nested objects included', () => {
      const { database } = freshWithStreams();
      const raw = {
        post_type: 'message',
        message: [
          { type: 'text', data: { text: '月璃，晚上好 🌙 — ¿qué tal? \u0000 "quoted" \\ back' } },
          { type: 'at', data: { qq: '10001' } },
        ],
        sender: { nickname: '小明', card: null, level: 3, flags: [true, false] },
      };
      const extra = { group_id: '10001', at_users: ['10001', '10002'], format_info: { content_format: ['text', 'emoji'] } };
      const record = messageRecord({ raw, extra, content: '🌙 晚上好', processedPlainText: '晚上好 🌙' });
      database.messages.insertInbound(record);
      expect(database.messages.get('stream-a', 'inbound', 'm1')).toEqual(record);
    });

    it('stores a raw payload JSON cannot represent as null, keeps the rest, and warns', () => {
      const { database } = freshWithStreams();
      const circular: Record<string, unknown> = { post_type: 'message' };
      circular['self'] = circular;
      expect(database.messages.insertInbound(messageRecord({ raw: circular }))).toBe('inserted');
      expect(database.messages.get('stream-a', 'inbound', 'm1')).toEqual(messageRecord({ raw: null }));
      expect(databases.records).toContainEqual(expect.objectContaining({ level: 'warn', messageId: 'm1', fields: ['raw'] }));
    });

    it('stores BigInts and throwing getters as null too, and reads an unstorable extra back as {}', () => {
      const { database } = freshWithStreams();
      const throwing = {
        get boom(): never {
          throw new Error('getter');
        },
      };
      database.messages.insertInbound(messageRecord({ raw: { id: 1n }, extra: throwing }));
      expect(database.messages.get('stream-a', 'inbound', 'm1')).toMatchObject({ raw: null, extra: {}, content: 'text of m1' });
    });

    it('keeps a raw payload that is a string, a number or an array', () => {
      const { database } = freshWithStreams();
      for (const [index, raw] of (['[CQ:face,id=1]', 42, [1, '二']] as const).entries()) {
        database.messages.insertInbound(messageRecord({ messageId: `r${index}`, raw }));
        expect(database.messages.get('stream-a', 'inbound', `r${index}`)?.raw).toEqual(raw);
      }
    });
  });

  describe('deleteReadBefore', () => {
    it('deletes the read inbound and the outbound messages older than the cutoff, and says how many', () => {
      const { database } = freshWithStreams();
      database.messages.insertInbound(messageRecord({ messageId: 'old-read', time: 1000 }));
      database.messages.markRead('stream-a', ['old-read']);
      database.messages.insertOutbound(messageRecord({ messageId: 'old-sent', direction: 'outbound', time: 1000, streamId: 'stream-b' }));
      database.messages.insertInbound(messageRecord({ messageId: 'new-read', time: 3000 }));
      database.messages.markRead('stream-a', ['new-read']);
      expect(database.messages.deleteReadBefore(2000)).toBe(2);
      expect(database.messages.get('stream-a', 'inbound', 'old-read')).toBeUndefined();
      expect(database.messages.get('stream-b', 'outbound', 'old-sent')).toBeUndefined();
      expect(ids(database.messages.history('stream-a', 10))).toEqual(['new-read']);
    });

    it('never deletes an unread message, however old, nor one exactly at the cutoff', () => {
      const { database } = freshWithStreams();
      database.messages.insertInbound(messageRecord({ messageId: 'old-unread', time: 1000 }));
      database.messages.insertOutbound(messageRecord({ messageId: 'at-cutoff', direction: 'outbound', time: 2000 }));
      expect(database.messages.deleteReadBefore(2000)).toBe(0);
      expect(ids(database.messages.unread('stream-a'))).toEqual(['old-unread']);
      expect(ids(database.messages.history('stream-a', 10))).toEqual(['at-cutoff']);
    });
  });
});
