import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MediaService } from '../../src/media/media-service.js';
import { createMediaHarness, type MediaHarness } from './support/media-harness.js';

describe(MediaService, () => {
  let harness: MediaHarness;

  beforeEach(async () => {
    harness = await createMediaHarness({ media: { image_download_timeout_s: 10, recognition_timeout_s: 30 } });
  });
  afterEach(async () => {
    await harness.close();
  });

  describe('.maxWaitS', () => {
    it('[T-35] is download + recognition for images, recognition for videos, the larger for both, and 0 for none', () => {
      const { service } = harness;
      expect(service.maxWaitS({ images: true })).toBe(40);
      expect(service.maxWaitS({ videos: true })).toBe(30);
      expect(service.maxWaitS({ images: true, videos: true })).toBe(40);
      expect(service.maxWaitS({})).toBe(0);
      expect(service.maxWaitS({ images: false, videos: false })).toBe(0);
    });

    it('[T-35] is fixed when the service is built: a later config change does not move it', () => {
      harness.config.image_download_timeout_s = 100;
      harness.config.recognition_timeout_s = 300;

      expect(harness.service.maxWaitS({ images: true, videos: true })).toBe(40);
      expect(harness.build().maxWaitS({ images: true, videos: true })).toBe(400);
    });

    it('[T-35] bounds a stalled image: download and recognition each end at their own deadline', async () => {
      const url = harness.files.serve('/slow.png', { body: Buffer.alloc(0), stall: true });
      const result = harness.service.describeImage(url);
      await harness.files.receivedRequests(1);

      await harness.clock.advance(harness.service.maxWaitS({ images: true }) * 1000);

      await expect(result).resolves.toBeNull();
    });

    it('[T-35] bounds a video whose duration probe stalls by the recognition deadline', async () => {
      const url = harness.files.serve('/slow.mp4', { body: Buffer.alloc(0), stall: true });
      const result = harness.service.describeVideo(url);
      await harness.files.receivedRequests(1);

      await harness.clock.advance(harness.service.maxWaitS({ videos: true }) * 1000);

      await expect(result).resolves.toBeNull();
      expect(harness.warned(/not described within 30 s .* while reading the duration/)).toBe(true);
    });
  });
});
