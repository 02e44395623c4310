import { describeError } from '../../kernel/errors/describe-error.js';
import { StorageError } from '../errors/storage-error.js';

/**
 * A `StorageError` for a write that SQLite refused: `action` says what was being stored
 * (`store message 42 of stream abc`); a missing stream gets a reason a caller can act on.
 */
export function writeError(file: string, action: string, error: unknown): StorageError {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const reason =
    code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
      ? 'the stream is not stored; upsert the stream first'
      : describeError(error);
  return new StorageError(file, `cannot ${action}: ${reason}`, { cause: error });
}
