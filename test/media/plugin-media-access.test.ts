import { afterEach, describe, expect, it } from 'vitest';
import { MediaService } from '../../src/media/media-service.js';
import { createPluginMediaAccess } from '../../src/media/plugin-media-access.js';
import { completion, text } from '../llm/support/fake-openai-server.js';
import { buildPng } from './support/build-png.js';
import { createMediaHarness, heldAnswer, type MediaHarness } from './support/media-harness.js';

describe(createPluginMediaAccess, () => {
  let harness: MediaHarness | undefined;

  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  describe('when the host wired a media service', () => {
    it('[T-32] hands the calls on to the service without exposing it', async () => {
      harness = await createMediaHarness({ media: { video_watch_scope: 'related' } });
      harness.model.reply(completion({ content: '一只橘猫' }));
      const media = createPluginMediaAccess(harness.service, 'forward_reader');

      await expect(media.describeImage(harness.files.serve('/cat.png', { body: buildPng() }))).resolves.toBe('[图片：一只橘猫]');
      expect(media.imagesAvailable()).toBe(true);
      expect(media.videosAvailable()).toBe(true);
      expect(media.videosWatchedOnArrival({ chatType: 'private', extra: {}, processedPlainText: '' })).toBe(true);
      expect(media.maxWaitS({ images: true })).toBe(harness.service.maxWaitS({ images: true }));

      expect(Object.isFrozen(media)).toBe(true);
      expect(media).not.toBeInstanceOf(MediaService);
      expect(Object.keys(media).sort()).toEqual(['describeImage', 'describeVideo', 'imagesAvailable', 'maxWaitS', 'videosAvailable', 'videosWatchedOnArrival']);
      for (const method of Object.values(media)) expect(method).not.toBe(harness.service);
    });

    it('[T-32] names the plugin in the log line of a failure', async () => {
      harness = await createMediaHarness();
      harness.model.reply(text(500, 'down'));
      const media = createPluginMediaAccess(harness.service, 'forward_reader');

      await expect(media.describeImage(harness.files.serve('/cat.png', { body: buildPng() }))).resolves.toBeNull();

      expect(harness.warnings().some((record) => record['requester'] === 'forward_reader')).toBe(true);
    });

    it("[T-36] passes the plugin's signal through: aborting it cancels the shared task", async () => {
      harness = await createMediaHarness();
      const held = heldAnswer('太迟了');
      harness.model.reply(held.handler);
      const media = createPluginMediaAccess(harness.service, 'forward_reader');
      const controller = new AbortController();
      const url = harness.files.serve('/cat.png', { body: buildPng() });

      const mine = media.describeImage(url, { signal: controller.signal });
      const hosts = harness.service.describeImage(url);
      await harness.model.receivedRequests(1);
      controller.abort();

      await expect(Promise.all([mine, hosts])).resolves.toEqual([null, null]);
      await expect(held.closedEarly).resolves.toBe(true);
    });
  });

  describe('when the host wired no media service', () => {
    it('[T-33] throws from every method, saying the host has no media service', async () => {
      const media = createPluginMediaAccess(undefined, 'forward_reader');
      const message = /plugin forward_reader called ctx\.media\.\w+\(\), but this host has no media service wired/;

      await expect(media.describeImage('https://example.com/a.png')).rejects.toThrow(message);
      await expect(media.describeVideo('https://example.com/a.mp4', 'a')).rejects.toThrow(message);
      expect(() => media.imagesAvailable()).toThrow(message);
      expect(() => media.videosAvailable()).toThrow(message);
      expect(() => media.videosWatchedOnArrival({ chatType: 'private', extra: {}, processedPlainText: '' })).toThrow(message);
      expect(() => media.maxWaitS({ images: true })).toThrow(message);
    });
  });
});
