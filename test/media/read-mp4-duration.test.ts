import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaFailure } from '../../src/media/media-failure.js';
import { MediaFetcher } from '../../src/media/media-fetcher.js';
import { readMp4DurationSeconds } from '../../src/media/read-mp4-duration.js';
import { box, buildMp4, mvhd } from './support/build-mp4.js';
import { MediaFileServer } from './support/media-file-server.js';

describe(readMp4DurationSeconds, () => {
  let files: MediaFileServer;
  // The file server is on loopback.
  const fetcher = new MediaFetcher({ allowPrivateAddresses: () => true });
  const read = (url: string) => readMp4DurationSeconds(url, { fetcher, signal: new AbortController().signal });

  beforeAll(async () => {
    files = await MediaFileServer.start();
  });
  afterAll(async () => {
    await files.close();
  });

  it('reads a version 0 mvhd after a large mdat', async () => {
    await expect(read(files.serve('/v0.mp4', { body: buildMp4({ durationS: 42, timescale: 600 }) }))).resolves.toBe(42);
  });

  it('reads a version 1 mvhd and a 64-bit mdat size', async () => {
    await expect(read(files.serve('/v1.mp4', { body: buildMp4({ durationS: 600, mvhdVersion: 1, largeMdat: true, timescale: 90_000 }) }))).resolves.toBe(600);
  });

  it('reads a moov that comes first (fast start) with few requests', async () => {
    const body = Buffer.concat([box('ftyp', Buffer.from('isom')), box('moov', mvhd(0, 1000, 12_500)), box('mdat', Buffer.alloc(1000))]);
    await expect(read(files.serve('/faststart.mp4', { body }))).resolves.toBe(12.5);
    // ftyp, moov, mvhd, the mvhd fields.
    expect(files.requestsFor('/faststart.mp4')).toHaveLength(4);
  });

  it('gives up after 64 top-level boxes without moov', async () => {
    const body = Buffer.concat(Array.from({ length: 70 }, () => box('free', Buffer.alloc(8))));
    await expect(read(files.serve('/many.mp4', { body }))).rejects.toThrow(/no moov box in the top level among the first 64 boxes/);
    expect(files.requestsFor('/many.mp4')).toHaveLength(64);
  });

  it('fails at the end of the file without moov, and for an mvhd without a duration', async () => {
    await expect(read(files.serve('/short.mp4', { body: box('ftyp', Buffer.from('isom')) }))).rejects.toThrow(/no moov box in the top level before the end/);
    const fragmented = Buffer.concat([box('ftyp', Buffer.from('isom')), box('moov', mvhd(0, 1000, 0))]);
    await expect(read(files.serve('/fragmented.mp4', { body: fragmented }))).rejects.toThrow(MediaFailure);
  });

  it('fails when the server ignores Range', async () => {
    const plain = await MediaFileServer.start({ honourRange: false });
    try {
      await expect(read(plain.serve('/v0.mp4', { body: buildMp4({ durationS: 42 }) }))).rejects.toThrow(/ignores Range requests/);
    } finally {
      await plain.close();
    }
  });
});
