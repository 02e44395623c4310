import { fetchByteRange } from './fetch-byte-range.js';
import { MediaFailure } from './media-failure.js';
import type { MediaFetcher } from './media-fetcher.js';

/** Bytes asked for per Range request: a box header with a 64-bit size fits. */
const READ_BYTES = 16;
/** The most boxes walked on one level (top level, then inside `moov`). */
const MAX_BOXES = 64;

interface BoxHeader {
  type: string;
  start: number;
  headerSize: number;
  /** The offset after the box; `Infinity` for a box that runs to the end of the file (size 0). */
  end: number;
  /** The bytes read at `start` (at most `READ_BYTES`). */
  bytes: Uint8Array;
}

type ReadAt = (offset: number) => Promise<Uint8Array>;

/**
 * The duration in seconds of the MP4 at `url`, read from its `moov`/`mvhd` boxes with HTTP
 * Range requests of 16 bytes at box offsets, so the media data is never downloaded. Walks up
 * to 64 top-level boxes to `moov`, then up to 64 boxes inside it to `mvhd` (version 0 or 1).
 * Throws `MediaFailure` when the server ignores Range, a box is missing or malformed, or the
 * duration is unknown; the signal's reason when it aborts.
 */
export async function readMp4DurationSeconds(url: string, options: { fetcher: Pick<MediaFetcher, 'get'>; signal: AbortSignal }): Promise<number> {
  const readAt: ReadAt = (offset) => fetchByteRange(options.fetcher, url, offset, READ_BYTES, options.signal);
  const moov = await findBox(readAt, 0, Number.POSITIVE_INFINITY, 'moov', 'the top level');
  const mvhd = await findBox(readAt, moov.start + moov.headerSize, moov.end, 'mvhd', 'moov');
  const contentStart = mvhd.start + mvhd.headerSize;
  const version = mvhd.bytes.length > mvhd.headerSize ? mvhd.bytes[mvhd.headerSize] : (await readAt(contentStart))[0];
  if (version !== 0 && version !== 1) throw new MediaFailure(`the mvhd box has version ${String(version)}, expected 0 or 1`);
  // After version and flags (4 bytes): creation and modification times (4 or 8 bytes each), timescale (4), duration (4 or 8).
  const fields = await readAt(contentStart + (version === 0 ? 12 : 20));
  const needed = version === 0 ? 8 : 12;
  if (fields.length < needed) throw new MediaFailure('the mvhd box is cut short');
  const view = new DataView(fields.buffer, fields.byteOffset, fields.byteLength);
  const timescale = view.getUint32(0);
  const duration = version === 0 ? view.getUint32(4) : view.getBigUint64(4);
  const unknown = version === 0 ? duration === 0xffff_ffff : duration === 0xffff_ffff_ffff_ffffn;
  if (timescale === 0) throw new MediaFailure('the mvhd box has a timescale of 0');
  if (unknown || duration === 0 || duration === 0n) throw new MediaFailure('the mvhd box gives no duration (a fragmented or live MP4?)');
  return Number(duration) / timescale;
}

async function findBox(readAt: ReadAt, from: number, end: number, wanted: string, where: string): Promise<BoxHeader> {
  let offset = from;
  for (let index = 0; index < MAX_BOXES; index++) {
    const box = offset < end ? await readBoxHeader(readAt, offset) : undefined;
    if (box === undefined) throw new MediaFailure(`no ${wanted} box in ${where} before the end (not an MP4 the duration can be read from)`);
    if (box.type === wanted) return box;
    offset = box.end;
  }
  throw new MediaFailure(`no ${wanted} box in ${where} among the first ${MAX_BOXES} boxes`);
}

/** The box header at `offset`; `undefined` at the end of the file. */
async function readBoxHeader(readAt: ReadAt, offset: number): Promise<BoxHeader | undefined> {
  const bytes = await readAt(offset);
  if (bytes.length === 0) return undefined;
  if (bytes.length < 8) throw new MediaFailure(`the box header at byte ${offset} is cut short`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = String.fromCharCode(...bytes.subarray(4, 8));
  let size = view.getUint32(0);
  let headerSize = 8;
  if (size === 1) {
    if (bytes.length < 16) throw new MediaFailure(`the 64-bit size of the ${type} box at byte ${offset} is cut short`);
    size = Number(view.getBigUint64(8));
    headerSize = 16;
  }
  if (size !== 0 && size < headerSize) throw new MediaFailure(`the ${type} box at byte ${offset} has an impossible size of ${size}`);
  return { type, start: offset, headerSize, end: size === 0 ? Number.POSITIVE_INFINITY : offset + size, bytes };
}
