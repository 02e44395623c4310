import type BetterSqlite3 from 'better-sqlite3';
import { InvalidArgumentError } from '../../kernel/errors/invalid-argument-error.js';
import type { Logger } from '../../kernel/logger/logger.js';
import type { MessageRecord, MessageRepository } from '../message-repository.js';
import { asPlainObject } from './as-plain-object.js';
import { checkLimit } from './check-limit.js';
import { fromJsonColumn } from './from-json-column.js';
import { toJsonColumn } from './to-json-column.js';
import { writeError } from './write-error.js';

interface MessageRow {
  stream_id: string;
  message_id: string;
  direction: 'inbound' | 'outbound';
  time: number;
  reply_to: string | null;
  content: string | null;
  processed_plain_text: string | null;
  message_type: string | null;
  sender_id: string | null;
  sender_name: string | null;
  sender_card: string | null;
  sender_role: string | null;
  platform: string | null;
  chat_type: 'private' | 'group' | null;
  raw: string | null;
  extra: string | null;
}

interface MessageInsertRow extends MessageRow {
  unread: 0 | 1;
}

const COLUMNS =
  'stream_id, message_id, direction, time, reply_to, content, processed_plain_text, message_type, sender_id, ' +
  'sender_name, sender_card, sender_role, platform, chat_type, raw, extra';

/**
 * `MessageRepository` on the `messages` table. The unread flag lives in the row, so after a
 * restart every stream's unread messages are back (the predecessor kept them in memory).
 */
export class SqliteMessageRepository implements MessageRepository {
  readonly #database: BetterSqlite3.Database;
  readonly #logger: Logger;
  readonly #insert: BetterSqlite3.Statement<[MessageInsertRow]>;
  readonly #unread: BetterSqlite3.Statement<[string], MessageRow>;
  readonly #markRead: BetterSqlite3.Statement<[string, string]>;
  readonly #updateText: BetterSqlite3.Statement<[string, string, string, string]>;
  readonly #history: BetterSqlite3.Statement<[string, number], MessageRow>;
  readonly #streamsWithUnread: BetterSqlite3.Statement<[], { stream_id: string }>;
  readonly #get: BetterSqlite3.Statement<[string, string, string], MessageRow>;
  readonly #countSince: BetterSqlite3.Statement<[number], { direction: 'inbound' | 'outbound'; count: number }>;
  /** Marks each id read, one UPDATE each; `#markReadAll` is the same in a transaction of its own. */
  readonly #markEach: (streamId: string, messageIds: readonly string[]) => number;
  readonly #markReadAll: (streamId: string, messageIds: readonly string[]) => number;
  readonly #deleteReadBefore: BetterSqlite3.Statement<[number]>;

  constructor(database: BetterSqlite3.Database, logger: Logger) {
    this.#database = database;
    this.#logger = logger;
    this.#insert = database.prepare<MessageInsertRow>(
      `INSERT INTO messages (${COLUMNS}, unread)
       VALUES (@stream_id, @message_id, @direction, @time, @reply_to, @content, @processed_plain_text, @message_type,
               @sender_id, @sender_name, @sender_card, @sender_role, @platform, @chat_type, @raw, @extra, @unread)
       ON CONFLICT (stream_id, direction, message_id) DO NOTHING`,
    );
    this.#unread = database.prepare<[string], MessageRow>(
      `SELECT ${COLUMNS} FROM messages WHERE stream_id = ? AND unread = 1 ORDER BY time, row_id`,
    );
    this.#markRead = database.prepare<[string, string]>(
      "UPDATE messages SET unread = 0 WHERE stream_id = ? AND direction = 'inbound' AND message_id = ? AND unread = 1",
    );
    this.#updateText = database.prepare<[string, string, string, string]>(
      'UPDATE messages SET processed_plain_text = ? WHERE stream_id = ? AND direction = ? AND message_id = ?',
    );
    this.#history = database.prepare<[string, number], MessageRow>(
      `SELECT ${COLUMNS} FROM (
         SELECT row_id, ${COLUMNS} FROM messages WHERE stream_id = ? AND unread = 0 ORDER BY time DESC, row_id DESC LIMIT ?
       ) ORDER BY time, row_id`,
    );
    this.#streamsWithUnread = database.prepare<[], { stream_id: string }>(
      'SELECT stream_id FROM messages WHERE unread = 1 GROUP BY stream_id ORDER BY MIN(time), stream_id',
    );
    this.#get = database.prepare<[string, string, string], MessageRow>(
      `SELECT ${COLUMNS} FROM messages WHERE stream_id = ? AND direction = ? AND message_id = ?`,
    );
    this.#countSince = database.prepare<[number], { direction: 'inbound' | 'outbound'; count: number }>(
      'SELECT direction, COUNT(*) AS count FROM messages WHERE time >= ? GROUP BY direction',
    );
    this.#deleteReadBefore = database.prepare<[number]>('DELETE FROM messages WHERE time < ? AND unread = 0');
    this.#markEach = (streamId, messageIds) => {
      let changed = 0;
      for (const messageId of messageIds) changed += this.#markRead.run(streamId, messageId).changes;
      return changed;
    };
    this.#markReadAll = database.transaction(this.#markEach);
  }

  insertInbound(record: MessageRecord): 'inserted' | 'duplicate' {
    checkDirection('MessageRepository.insertInbound', record, 'inbound');
    return this.#write(record, 1) ? 'inserted' : 'duplicate';
  }

  insertOutbound(record: MessageRecord): void {
    checkDirection('MessageRepository.insertOutbound', record, 'outbound');
    this.#write(record, 0);
  }

  unread(streamId: string): MessageRecord[] {
    return this.#unread.all(streamId).map(toRecord);
  }

  updateProcessedText(streamId: string, messageId: string, text: string, direction: 'inbound' | 'outbound' = 'inbound'): boolean {
    try {
      return this.#updateText.run(text, streamId, direction, messageId).changes > 0;
    } catch (error) {
      throw writeError(this.#database.name, `update the text of message ${messageId} of stream ${streamId}`, error);
    }
  }

  markRead(streamId: string, messageIds: readonly string[]): number {
    if (messageIds.length === 0) return 0;
    try {
      // Inside a transaction (a write batch) or for one id, the updates need no savepoint of
      // their own: a failed UPDATE undoes itself, and the caller's savepoint undoes the rest.
      // The savepoint pair was a tenth of a reply's statements (issue 20).
      const alreadyAtomic = messageIds.length === 1 || this.#database.inTransaction;
      return (alreadyAtomic ? this.#markEach : this.#markReadAll)(streamId, messageIds);
    } catch (error) {
      throw writeError(this.#database.name, `mark ${messageIds.length} messages of stream ${streamId} read`, error);
    }
  }

  history(streamId: string, limit: number): MessageRecord[] {
    checkLimit('MessageRepository.history', limit);
    return this.#history.all(streamId, limit).map(toRecord);
  }

  streamsWithUnread(): string[] {
    return this.#streamsWithUnread.all().map((row) => row.stream_id);
  }

  get(streamId: string, direction: 'inbound' | 'outbound', messageId: string): MessageRecord | undefined {
    const row = this.#get.get(streamId, direction, messageId);
    return row === undefined ? undefined : toRecord(row);
  }

  countSince(epochSeconds: number): { inbound: number; outbound: number } {
    const counts = { inbound: 0, outbound: 0 };
    for (const row of this.#countSince.all(epochSeconds)) counts[row.direction] = row.count;
    return counts;
  }

  deleteReadBefore(epochSeconds: number): number {
    try {
      return this.#deleteReadBefore.run(epochSeconds).changes;
    } catch (error) {
      throw writeError(this.#database.name, `delete the read messages older than ${new Date(epochSeconds * 1000).toISOString()}`, error);
    }
  }

  /** Inserts the row; true when it was new. */
  #write(record: MessageRecord, unread: 0 | 1): boolean {
    const raw = toJsonColumn(record.raw);
    const extra = toJsonColumn(record.extra);
    const unstorable = [
      ...(raw === null && record.raw !== null && record.raw !== undefined ? ['raw'] : []),
      ...(extra === null && record.extra !== null && record.extra !== undefined ? ['extra'] : []),
    ];
    if (unstorable.length > 0) {
      this.#logger.warn(
        { streamId: record.streamId, messageId: record.messageId, fields: unstorable },
        'message fields that JSON cannot represent were stored as null',
      );
    }
    try {
      const result = this.#insert.run({
        stream_id: record.streamId,
        message_id: record.messageId,
        direction: record.direction,
        time: record.time,
        reply_to: record.replyTo,
        content: record.content,
        processed_plain_text: record.processedPlainText,
        message_type: record.messageType,
        sender_id: record.senderId,
        sender_name: record.senderName,
        sender_card: record.senderCard,
        sender_role: record.senderRole,
        platform: record.platform,
        chat_type: record.chatType,
        raw,
        extra,
        unread,
      });
      return result.changes > 0;
    } catch (error) {
      throw writeError(this.#database.name, `store ${record.direction} message ${record.messageId} of stream ${record.streamId}`, error);
    }
  }
}

function checkDirection(functionName: string, record: MessageRecord, expected: 'inbound' | 'outbound'): void {
  if (record.direction !== expected) {
    throw new InvalidArgumentError(functionName, 'record.direction', record.direction, `'${expected}'`);
  }
}

function toRecord(row: MessageRow): MessageRecord {
  return {
    messageId: row.message_id,
    streamId: row.stream_id,
    direction: row.direction,
    time: row.time,
    replyTo: row.reply_to,
    content: row.content ?? '',
    processedPlainText: row.processed_plain_text ?? '',
    messageType: row.message_type ?? '',
    senderId: row.sender_id ?? '',
    senderName: row.sender_name ?? '',
    senderCard: row.sender_card,
    senderRole: row.sender_role,
    platform: row.platform ?? '',
    chatType: row.chat_type ?? 'private',
    raw: fromJsonColumn(row.raw),
    extra: asPlainObject(fromJsonColumn(row.extra)),
  };
}
