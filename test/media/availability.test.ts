import { afterEach, describe, expect, it } from 'vitest';
import { MediaService } from '../../src/media/media-service.js';
import { completion } from '../llm/support/fake-openai-server.js';
import { buildMp4 } from './support/build-mp4.js';
import { buildPng } from './support/build-png.js';
import { createMediaHarness, type HarnessOptions, type MediaHarness } from './support/media-harness.js';

const PNG = buildPng();

describe(MediaService, () => {
  let harness: MediaHarness;

  afterEach(async () => {
    await harness.close();
  });

  async function expectUnavailable(options: HarnessOptions, reason: RegExp, service?: (harness: MediaHarness) => MediaService): Promise<void> {
    harness = await createMediaHarness(options);
    harness.model.reply(completion({ content: '不该被调用' }));
    const media = service?.(harness) ?? harness.service;
    const image = harness.files.serve('/cat.png', { body: PNG });
    const video = harness.files.serve('/clip.mp4', { body: buildMp4({ durationS: 42 }) });

    expect(media.imagesAvailable()).toBe(false);
    expect(media.videosAvailable()).toBe(false);
    await expect(media.describeImage(image)).resolves.toBeNull();
    await expect(media.describeVideo(video)).resolves.toBeNull();

    expect(harness.modelCalls()).toHaveLength(0);
    expect(harness.files.requests).toHaveLength(0);
    const notes = harness.records.filter((record) => /^(image not described|video not watched): /.test(record.msg));
    expect(notes).toHaveLength(2);
    for (const note of notes) expect(note.msg).toMatch(reason);
  }

  describe('.imagesAvailable / .videosAvailable', () => {
    it('[T-33] are true with the switches on and vlm / video tasks that list models', async () => {
      harness = await createMediaHarness();
      expect(harness.service.imagesAvailable()).toBe(true);
      expect(harness.service.videosAvailable()).toBe(true);
    });

    it('[T-33] are false when the [media] switches are off, and describe* resolve null without a download or model call', async () => {
      await expectUnavailable({ media: { images_enabled: false, videos_enabled: false } }, /_enabled is off in \[media\]/);
    });

    it('[T-33] follow a switch turned off after the service was built', async () => {
      harness = await createMediaHarness();
      harness.config.images_enabled = false;
      expect(harness.service.imagesAvailable()).toBe(false);
      expect(harness.service.videosAvailable()).toBe(true);
    });

    it('[T-33] are false with only the offline demo model (no provider at all), which cannot see', async () => {
      await expectUnavailable({ models: () => ({}) }, /offline demo model cannot see/);
    });

    it('[T-33] are false when vlm and video are not listed, even though actor has a model', async () => {
      const actorOnly = (baseUrl: string) => ({
        providers: { local: { base_url: baseUrl, max_retries: 0 } },
        models: { chat: { provider: 'local', model: 'chat-model' } },
        tasks: { actor: { models: ['chat'] } },
      });
      await expectUnavailable({ models: actorOnly }, /lists no models in config\/models\.toml/);
    });

    it('[T-33] are false when the tasks list no models and actor has none either', async () => {
      const empty = (baseUrl: string) => ({
        providers: { local: { base_url: baseUrl } },
        models: { eyes: { provider: 'local', model: 'vision-model' } },
        tasks: { vlm: { models: [] } },
      });
      await expectUnavailable({ models: empty }, /has no usable model/);
    });

    it('[T-33] count vlm and video as available when they list the same model as actor: they list it themselves', async () => {
      const sameAsActor = (baseUrl: string) => ({
        providers: { local: { base_url: baseUrl } },
        models: { omni: { provider: 'local', model: 'omni-model' } },
        tasks: { actor: { models: ['omni'] }, vlm: { models: ['omni'] }, video: { models: ['omni'] } },
      });
      harness = await createMediaHarness({ models: sameAsActor });
      expect(harness.service.imagesAvailable()).toBe(true);
      expect(harness.service.videosAvailable()).toBe(true);
    });
  });
});
