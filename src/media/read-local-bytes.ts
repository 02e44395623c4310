import { readFile, stat } from 'node:fs/promises';
import { describeError } from '../kernel/errors/describe-error.js';
import { MediaFailure } from './media-failure.js';

/** Reads a local file of at most `maxBytes` (checked before reading). Throws `MediaFailure` or the signal's reason. */
export async function readLocalBytes(path: string, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new MediaFailure(`${path} is not a file`);
    if (info.size > maxBytes) throw new MediaFailure(`the image is too large: ${info.size} bytes, over the image_max_bytes limit of ${maxBytes} bytes`);
    const bytes = await readFile(path, { signal });
    if (bytes.length > maxBytes) throw new MediaFailure(`the image grew to ${bytes.length} bytes while being read, over the limit of ${maxBytes} bytes`);
    return bytes;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof MediaFailure) throw error;
    throw new MediaFailure(`cannot read the file: ${describeError(error)}`, { cause: error });
  }
}
