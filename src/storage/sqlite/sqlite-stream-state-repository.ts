import type BetterSqlite3 from 'better-sqlite3';
import { InvalidArgumentError } from '../../kernel/errors/invalid-argument-error.js';
import type { StreamStateRecord, StreamStateRepository } from '../stream-state-repository.js';
import { writeError } from './write-error.js';

interface StreamStateRow {
  stream_id: string;
  kind: 'idle' | 'wait' | 'stop';
  wait_until: number | null;
  stop_until: number | null;
  wake_probability: number;
  updated_at: number | null;
}

const COLUMNS = 'stream_id, kind, wait_until, stop_until, wake_probability, updated_at';
const KINDS: ReadonlySet<string> = new Set(['idle', 'wait', 'stop']);

/** `StreamStateRepository` on the `stream_state` table. */
export class SqliteStreamStateRepository implements StreamStateRepository {
  readonly #file: string;
  readonly #set: BetterSqlite3.Statement<[StreamStateRow]>;
  readonly #get: BetterSqlite3.Statement<[string], StreamStateRow>;
  readonly #all: BetterSqlite3.Statement<[], StreamStateRow>;

  constructor(database: BetterSqlite3.Database) {
    this.#file = database.name;
    this.#set = database.prepare<StreamStateRow>(
      `INSERT INTO stream_state (${COLUMNS})
       VALUES (@stream_id, @kind, @wait_until, @stop_until, @wake_probability, @updated_at)
       ON CONFLICT (stream_id) DO UPDATE SET
         kind = excluded.kind,
         wait_until = excluded.wait_until,
         stop_until = excluded.stop_until,
         wake_probability = excluded.wake_probability,
         updated_at = excluded.updated_at`,
    );
    this.#get = database.prepare<[string], StreamStateRow>(`SELECT ${COLUMNS} FROM stream_state WHERE stream_id = ?`);
    this.#all = database.prepare<[], StreamStateRow>(`SELECT ${COLUMNS} FROM stream_state ORDER BY stream_id`);
  }

  get(streamId: string): StreamStateRecord | undefined {
    const row = this.#get.get(streamId);
    return row === undefined ? undefined : toRecord(row);
  }

  set(record: StreamStateRecord): void {
    if (!KINDS.has(record.kind)) {
      throw new InvalidArgumentError('StreamStateRepository.set', 'kind', record.kind, "'idle', 'wait' or 'stop'");
    }
    if (!(record.wakeProbability >= 0 && record.wakeProbability <= 1)) {
      throw new InvalidArgumentError('StreamStateRepository.set', 'wakeProbability', record.wakeProbability, 'between 0 and 1');
    }
    try {
      this.#set.run({
        stream_id: record.streamId,
        kind: record.kind,
        wait_until: record.waitUntil,
        stop_until: record.stopUntil,
        wake_probability: record.wakeProbability,
        updated_at: record.updatedAt,
      });
    } catch (error) {
      throw writeError(this.#file, `store the state of stream ${record.streamId}`, error);
    }
  }

  all(): StreamStateRecord[] {
    return this.#all.all().map(toRecord);
  }
}

function toRecord(row: StreamStateRow): StreamStateRecord {
  return {
    streamId: row.stream_id,
    kind: row.kind,
    waitUntil: row.wait_until,
    stopUntil: row.stop_until,
    wakeProbability: row.wake_probability,
    updatedAt: row.updated_at ?? 0,
  };
}
