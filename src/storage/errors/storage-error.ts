import { MoonglassError } from '../../kernel/errors/moonglass-error.js';

/**
 * The database could not be used: the file cannot be opened or is not SQLite, a migration
 * failed, the schema is newer than this code, or a write broke a rule the schema enforces
 * (a message for a stream that was never stored). Names the file and the reason; the
 * underlying SQLite error, if any, is the `cause`.
 */
export class StorageError extends MoonglassError {
  /** Path of the database file (`:memory:` for an in-memory database). */
  readonly file: string;
  /** What went wrong, in one sentence, without the file name. */
  readonly reason: string;

  constructor(file: string, reason: string, options: { cause?: unknown } = {}) {
    super('MG_STORAGE', `database ${file}: ${reason}`, options);
    this.file = file;
    this.reason = reason;
  }
}
