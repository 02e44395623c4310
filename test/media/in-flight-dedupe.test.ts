import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MediaService } from '../../src/media/media-service.js';
import { completion } from '../llm/support/fake-openai-server.js';
import { buildMp4 } from './support/build-mp4.js';
import { buildPng } from './support/build-png.js';
import { createMediaHarness, heldAnswer, type MediaHarness } from './support/media-harness.js';

const PNG = buildPng({ rgb: [10, 200, 30] });
const IMAGE_KEY = createHash('sha256').update(PNG).digest('hex');

describe(MediaService, () => {
  let harness: MediaHarness;

  beforeEach(async () => {
    harness = await createMediaHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  describe('when two callers ask for the same content at once', () => {
    it('[T-36] downloads the image once and asks the model once; both get the same text', async () => {
      const held = heldAnswer('一片绿色');
      harness.model.reply(held.handler);
      const url = harness.files.serve('/green.png', { body: PNG });

      const first = harness.service.describeImage(url);
      const second = harness.service.describeImage(url);
      await harness.model.receivedRequests(1);
      held.release();

      await expect(Promise.all([first, second])).resolves.toEqual(['[图片：一片绿色]', '[图片：一片绿色]']);
      expect(harness.files.requestsFor('/green.png')).toHaveLength(1);
      expect(harness.modelCalls()).toHaveLength(1);
    });

    it('[T-36] shares the model request between two sources of the same bytes (dedupe by hash after loading)', async () => {
      const held = heldAnswer('一片绿色');
      harness.model.reply(held.handler);
      const url = harness.files.serve('/green.png', { body: PNG });

      const inline = harness.service.describeImage(`base64://${PNG.toString('base64')}`);
      await harness.model.receivedRequests(1);
      const downloaded = harness.service.describeImage(url);
      await vi.waitFor(() => expect(harness.records.some((record) => record.key === IMAGE_KEY && /waiting for the running task/.test(record.msg))).toBe(true));
      held.release();

      await expect(Promise.all([inline, downloaded])).resolves.toEqual(['[图片：一片绿色]', '[图片：一片绿色]']);
      expect(harness.modelCalls()).toHaveLength(1);
      expect(harness.records.some((record) => record.msg === 'image description taken from the cache')).toBe(false);
    });

    it('[T-36] reads the video duration once and asks the video model once', async () => {
      const held = heldAnswer('跳舞');
      harness.model.reply(held.handler);
      const url = harness.files.serve('/clip.mp4', { body: buildMp4({ durationS: 42 }) });

      const first = harness.service.describeVideo(url, 'clip');
      const second = harness.service.describeVideo(`${url}?mirror=1`, 'clip');
      await harness.model.receivedRequests(1);
      held.release();

      await expect(Promise.all([first, second])).resolves.toEqual(['[视频：跳舞]', '[视频：跳舞]']);
      expect(harness.files.requestsFor('/clip.mp4')).toHaveLength(7);
      expect(harness.modelCalls()).toHaveLength(1);
    });
  });

  describe("when a waiter's signal aborts", () => {
    it('[T-36] cancels the shared image task: the model request is closed, every waiter gets null, nothing is cached, and a later call works', async () => {
      const held = heldAnswer('太迟了');
      harness.model.reply(held.handler, completion({ content: '重新识别' }));
      const url = harness.files.serve('/green.png', { body: PNG });
      const controller = new AbortController();

      const cancelled = harness.service.describeImage(url, { signal: controller.signal });
      const bystander = harness.service.describeImage(url);
      await harness.model.receivedRequests(1);
      controller.abort(new Error('the turn was interrupted'));

      await expect(Promise.all([cancelled, bystander])).resolves.toEqual([null, null]);
      await expect(held.closedEarly).resolves.toBe(true);
      held.release();
      expect(harness.database.mediaCache.get('image', IMAGE_KEY)).toBeUndefined();
      expect(harness.warnings()).toHaveLength(0);
      expect(harness.records.some((record) => record.msg === 'image description cancelled by a waiter')).toBe(true);

      await expect(harness.service.describeImage(url)).resolves.toBe('[图片：重新识别]');
      expect(harness.modelCalls()).toHaveLength(2);
    });

    it('[T-36] cancels the shared video task the same way', async () => {
      const held = heldAnswer('太迟了');
      harness.model.reply(held.handler, completion({ content: '重新观看' }));
      const url = harness.files.serve('/clip.mp4', { body: buildMp4({ durationS: 42 }) });
      const controller = new AbortController();

      const cancelled = harness.service.describeVideo(url, 'clip', { signal: controller.signal });
      const bystander = harness.service.describeVideo(url, 'clip');
      await harness.model.receivedRequests(1);
      controller.abort();

      await expect(Promise.all([cancelled, bystander])).resolves.toEqual([null, null]);
      await expect(held.closedEarly).resolves.toBe(true);
      expect(harness.database.mediaCache.get('video', 'clip')).toBeUndefined();

      await expect(harness.service.describeVideo(url, 'clip')).resolves.toBe('[视频：重新观看]');
    });

    it('[T-36] stops a download in progress when the only waiter aborts', async () => {
      const url = harness.files.serve('/slow.png', { body: PNG, stall: true });
      const controller = new AbortController();

      const result = harness.service.describeImage(url, { signal: controller.signal });
      await harness.files.receivedRequests(1);
      controller.abort();

      await expect(result).resolves.toBeNull();
      await expect(harness.files.requestsFor('/slow.png')[0]!.finished).resolves.toBe(false);
      expect(harness.modelCalls()).toHaveLength(0);
    });

    it('[T-36] gives null at once to a caller whose signal was already aborted, without touching a running task', async () => {
      const held = heldAnswer('一片绿色');
      harness.model.reply(held.handler);
      const url = harness.files.serve('/green.png', { body: PNG });
      const running = harness.service.describeImage(url);
      await harness.model.receivedRequests(1);

      await expect(harness.service.describeImage(url, { signal: AbortSignal.abort() })).resolves.toBeNull();
      held.release();

      await expect(running).resolves.toBe('[图片：一片绿色]');
    });
  });
});
