import type BetterSqlite3 from 'better-sqlite3';

/**
 * One step of the schema. `version` numbers are unique and ascending; a released migration
 * is never edited, only followed by a new one. `up` runs inside a transaction that also
 * records the version in `schema_migrations`, so a step is applied entirely or not at all.
 */
export interface Migration {
  readonly version: number;
  /** Short snake_case description, stored beside the version. */
  readonly name: string;
  up(database: BetterSqlite3.Database): void;
}

/**
 * Every migration this code knows, oldest first. Times follow the rows they describe:
 * message `time` in epoch seconds (the platforms' unit), stream-state deadlines in epoch
 * milliseconds (the host clock's unit); JSON columns hold `JSON.stringify` text or NULL.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'create_streams_messages_state_tool_calls',
    up(database) {
      database.exec(`
        CREATE TABLE streams (
          stream_id      TEXT PRIMARY KEY,
          platform       TEXT NOT NULL,
          chat_type      TEXT NOT NULL CHECK (chat_type IN ('private', 'group')),
          group_id       TEXT,
          group_name     TEXT,
          user_id        TEXT,
          user_name      TEXT,
          created_at     REAL NOT NULL,
          last_active_at REAL NOT NULL
        );
        CREATE INDEX streams_last_active ON streams (last_active_at);

        CREATE TABLE messages (
          row_id               INTEGER PRIMARY KEY,
          stream_id            TEXT NOT NULL REFERENCES streams (stream_id),
          message_id           TEXT NOT NULL,
          direction            TEXT NOT NULL CHECK (direction IN ('inbound', 'outbound')),
          time                 REAL NOT NULL,
          reply_to             TEXT,
          content              TEXT,
          processed_plain_text TEXT,
          message_type         TEXT,
          sender_id            TEXT,
          sender_name          TEXT,
          sender_card          TEXT,
          sender_role          TEXT,
          platform             TEXT,
          chat_type            TEXT,
          raw                  TEXT,
          extra                TEXT,
          unread               INTEGER NOT NULL DEFAULT 0 CHECK (unread IN (0, 1)),
          UNIQUE (stream_id, direction, message_id)
        );
        CREATE INDEX messages_stream_unread ON messages (stream_id, unread);
        CREATE INDEX messages_stream_time ON messages (stream_id, time);
        CREATE INDEX messages_time ON messages (time);

        CREATE TABLE stream_state (
          stream_id        TEXT PRIMARY KEY REFERENCES streams (stream_id),
          kind             TEXT NOT NULL CHECK (kind IN ('idle', 'wait', 'stop')),
          wait_until       REAL,
          stop_until       REAL,
          wake_probability REAL NOT NULL DEFAULT 0,
          updated_at       REAL
        );

        CREATE TABLE tool_calls (
          row_id        INTEGER PRIMARY KEY,
          stream_id     TEXT,
          call_id       TEXT,
          tool_name     TEXT,
          arguments     TEXT,
          success       INTEGER,
          observation   TEXT,
          error_message TEXT,
          started_at    REAL,
          duration_ms   REAL
        );
        CREATE INDEX tool_calls_stream ON tool_calls (stream_id, started_at);
      `);
    },
  },
  {
    version: 2,
    name: 'create_mcp_usage_media_cache',
    up(database) {
      database.exec(`
        CREATE TABLE mcp_usage (
          day    TEXT NOT NULL,
          server TEXT NOT NULL,
          tool   TEXT NOT NULL,
          calls  INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (day, server, tool)
        );

        CREATE TABLE media_cache (
          kind       TEXT NOT NULL CHECK (kind IN ('image', 'video')),
          cache_key  TEXT NOT NULL,
          text       TEXT NOT NULL,
          duration_s REAL,
          created_at REAL NOT NULL,
          PRIMARY KEY (kind, cache_key)
        );
      `);
    },
  },
  {
    version: 3,
    name: 'create_model_calls',
    up(database) {
      database.exec(`
        CREATE TABLE model_calls (
          row_id            INTEGER PRIMARY KEY,
          time              REAL NOT NULL,
          task              TEXT NOT NULL,
          request_name      TEXT NOT NULL,
          model             TEXT,
          stream_id         TEXT,
          success           INTEGER NOT NULL,
          prompt_tokens     INTEGER,
          completion_tokens INTEGER,
          duration_ms       REAL
        );
        CREATE INDEX model_calls_time ON model_calls (time);
      `);
    },
  },
  {
    version: 4,
    name: 'create_outbox_stream_account',
    up(database) {
      // The outbox: replies decided but not yet acknowledged by the platform. AUTOINCREMENT
      // keeps a row id unique for ever, so an adapter may use it to recognise a retry.
      // Times are epoch milliseconds (the host clock's unit).
      database.exec(`
        CREATE TABLE outbox (
          row_id      INTEGER PRIMARY KEY AUTOINCREMENT,
          stream_id   TEXT NOT NULL,
          account     TEXT,
          message     TEXT NOT NULL,
          delivery    TEXT NOT NULL,
          created_at  REAL NOT NULL,
          due_at      REAL NOT NULL,
          deadline_at REAL NOT NULL,
          attempts    INTEGER NOT NULL DEFAULT 0,
          last_error  TEXT,
          in_doubt_at REAL
        );
        CREATE INDEX outbox_stream ON outbox (stream_id, row_id);

        ALTER TABLE streams ADD COLUMN account TEXT;
      `);
    },
  },
  {
    version: 5,
    name: 'create_schedules',
    up(database) {
      // One row per persisted plugin job (ctx.schedule): when it was first registered and when
      // its last run started, so a run due while the host was down is found after a restart.
      // Times are epoch milliseconds (the host clock's unit); last_error is NULL after a run
      // that succeeded.
      database.exec(`
        CREATE TABLE schedules (
          plugin_id   TEXT NOT NULL,
          job_name    TEXT NOT NULL,
          spec        TEXT NOT NULL,
          created_at  REAL NOT NULL,
          last_run_at REAL,
          last_error  TEXT,
          PRIMARY KEY (plugin_id, job_name)
        );
      `);
    },
  },
  {
    version: 6,
    name: 'create_chat_mutes',
    up(database) {
      // One row per chat an owner muted (/mute): until when (epoch milliseconds), by whom
      // (platform user id, NULL when unknown), since when. An expired row means nothing; it
      // is deleted when convenient. No foreign key: a mute may name a stream not stored yet.
      database.exec(`
        CREATE TABLE chat_mutes (
          stream_id  TEXT PRIMARY KEY,
          until_ms   REAL NOT NULL,
          muted_by   TEXT,
          created_at REAL NOT NULL
        );
      `);
    },
  },
  {
    version: 7,
    name: 'create_sent_notices',
    up(database) {
      // Notices sent once per key (an owner told that a task's budget is spent today:
      // "budget:<day>:<task>"), so a restart on the same day does not send them again.
      database.exec(`
        CREATE TABLE sent_notices (
          key        TEXT PRIMARY KEY,
          sent_at_ms REAL NOT NULL
        );
      `);
    },
  },
  {
    version: 8,
    name: 'index_only_unread_messages',
    up(database) {
      // Unread messages are found by a partial index holding only the unread ones (a few per
      // open chat) instead of an index of every message by (stream_id, unread). The old one
      // changed a page at a random place for every message stored and every one marked read;
      // under load those pages were a large part of what each commit wrote to the WAL.
      database.exec(`
        DROP INDEX messages_stream_unread;
        CREATE INDEX messages_unread ON messages (stream_id, time) WHERE unread = 1;
      `);
    },
  },
  {
    version: 9,
    name: 'index_tool_calls_by_time',
    up(database) {
      // The tool-call log is written on every turn and read by hand or for one stream's last
      // few calls. Its index by (stream_id, started_at) put each row at a random place: under
      // load (1,000 conversations) that index was 18% of the pages every commit wrote, and
      // dropping it gave 8% more answers per second. An index by time is appended to (one
      // page), and it serves the retention's delete; a stream's last calls are found by
      // walking it back from the newest (`SqliteToolCallLog.recent`).
      database.exec(`
        DROP INDEX tool_calls_stream;
        CREATE INDEX tool_calls_started ON tool_calls (started_at);
      `);
    },
  },
];
