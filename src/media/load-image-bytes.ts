import { fileURLToPath } from 'node:url';
import { downloadBytes } from './download-bytes.js';
import { MediaFailure } from './media-failure.js';
import type { MediaFetcher } from './media-fetcher.js';
import { readLocalBytes } from './read-local-bytes.js';

export interface LoadImageOptions {
  /** Downloads (each URL and redirect checked) and says whether local files may be read. */
  fetcher: Pick<MediaFetcher, 'get' | 'localFilesAllowed'>;
  maxBytes: number;
  signal: AbortSignal;
}

const BASE64_PREFIX = 'base64://';
const BASE64_TEXT = /^[A-Za-z0-9+/\-_]*={0,2}$/;

/**
 * The bytes of an image source: `base64://<data>`, `http(s)://` (downloaded through the
 * fetcher, which refuses private addresses), or `file://` and a local path (read only when the
 * fetcher allows local files, i.e. `allow_private_addresses`). Throws `MediaFailure` for a
 * refused source, another scheme, bad base64, a missing file, an HTTP error or more than
 * `maxBytes`; the signal's reason when it aborts.
 */
export async function loadImageBytes(source: string, options: LoadImageOptions): Promise<Uint8Array> {
  if (source.startsWith(BASE64_PREFIX)) return decodeBase64(source.slice(BASE64_PREFIX.length), options.maxBytes);
  // Two letters at least, so a Windows drive (`C:\`) stays a path; `data:` and `file:/x` count as schemes.
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]+):/.exec(source)?.[1]?.toLowerCase();
  switch (scheme) {
    case undefined:
      refuseLocalUnlessAllowed(options, 'a local path');
      return readLocalBytes(source, options.maxBytes, options.signal);
    case 'http':
    case 'https':
      return downloadBytes(source, options);
    case 'file':
      refuseLocalUnlessAllowed(options, 'a file:// URL');
      return readLocalBytes(filePath(source), options.maxBytes, options.signal);
    default:
      throw new MediaFailure(`unsupported source scheme ${scheme}: (expected http(s)://, file://, base64:// or a local path)`);
  }
}

// A chat message must not make the host read its own disk; a same-machine setup turns this on with the private addresses.
function refuseLocalUnlessAllowed(options: LoadImageOptions, what: string): void {
  if (options.fetcher.localFilesAllowed()) return;
  throw new MediaFailure(`refused to read ${what}: local files are read only with allow_private_addresses = true in features.toml [media]`);
}

function filePath(url: string): string {
  try {
    return fileURLToPath(url);
  } catch (error) {
    throw new MediaFailure(`not a usable file:// URL: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

function decodeBase64(data: string, maxBytes: number): Uint8Array {
  const text = data.replace(/\s+/g, '');
  if (text === '') throw new MediaFailure('the base64:// source is empty');
  if (!BASE64_TEXT.test(text)) throw new MediaFailure('the base64:// source is not valid base64');
  // Checked before decoding, so an oversized inline image is never materialised.
  const decodedBytes = Math.floor((text.length * 3) / 4) - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);
  if (decodedBytes > maxBytes) {
    throw new MediaFailure(`the image is too large: ${decodedBytes} bytes, over the image_max_bytes limit of ${maxBytes} bytes`);
  }
  return Buffer.from(text, 'base64');
}
