import { fileURLToPath } from 'node:url';
import { downloadBytes } from './download-bytes.js';
import { MediaFailure } from './media-failure.js';
import { readLocalBytes } from './read-local-bytes.js';

export interface LoadImageOptions {
  fetch: typeof fetch;
  maxBytes: number;
  signal: AbortSignal;
}

const BASE64_PREFIX = 'base64://';
const BASE64_TEXT = /^[A-Za-z0-9+/\-_]*={0,2}$/;

/**
 * The bytes of an image source: `base64://<data>`, `http(s)://` (downloaded), `file://` or
 * a local path. Throws `MediaFailure` for another scheme, bad base64, a missing file, an
 * HTTP error or more than `maxBytes`; the signal's reason when it aborts.
 */
export async function loadImageBytes(source: string, options: LoadImageOptions): Promise<Uint8Array> {
  if (source.startsWith(BASE64_PREFIX)) return decodeBase64(source.slice(BASE64_PREFIX.length), options.maxBytes);
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(source)?.[1]?.toLowerCase();
  switch (scheme) {
    case undefined:
      return readLocalBytes(source, options.maxBytes, options.signal);
    case 'http':
    case 'https':
      return downloadBytes(source, options);
    case 'file':
      return readLocalBytes(filePath(source), options.maxBytes, options.signal);
    default:
      throw new MediaFailure(`unsupported source scheme ${scheme}:// (expected http(s)://, file://, base64:// or a local path)`);
  }
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
