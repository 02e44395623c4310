import { afterEach, describe, expect, it } from 'vitest';
import { MediaService } from '../../src/media/media-service.js';
import { completion, hang, text } from '../llm/support/fake-openai-server.js';
import { buildMp4 } from './support/build-mp4.js';
import { createMediaHarness, type MediaHarness, userParts } from './support/media-harness.js';

const SHORT = buildMp4({ durationS: 42, mvhdVersion: 0 });
const LONG = buildMp4({ durationS: 600, mvhdVersion: 1, largeMdat: true });

describe(MediaService, () => {
  let harness: MediaHarness;

  afterEach(async () => {
    await harness.close();
  });

  describe('.describeVideo', () => {
    describe('when the video is within video_max_seconds', () => {
      it('[T-32] reads the duration by small Range requests, then returns [视频：…] from task video with a video_url part', async () => {
        harness = await createMediaHarness({ media: { video_max_seconds: 180 } });
        harness.model.reply(completion({ content: '一个人在海边\n放风筝' }));
        const url = harness.files.serve('/clip.mp4', { body: SHORT, contentType: 'video/mp4' });

        await expect(harness.service.describeVideo(url, 'c0ffee.mp4')).resolves.toBe('[视频：一个人在海边 放风筝]');

        const probes = harness.files.requestsFor('/clip.mp4');
        // ftyp, free, mdat, moov; iods, mvhd; the mvhd fields.
        expect(probes.length).toBe(7);
        for (const probe of probes) {
          const [, start, end] = /^bytes=(\d+)-(\d+)$/.exec(probe.range ?? '') ?? [];
          expect(Number(end) - Number(start) + 1).toBe(16);
        }
        const [call] = harness.modelCalls();
        expect(call!.body['model']).toBe('vision-model');
        expect(userParts(call!.body)[1]).toEqual({ type: 'video_url', video_url: { url } });
        expect(harness.database.mediaCache.get('video', 'c0ffee.mp4')).toMatchObject({ text: '[视频：一个人在海边 放风筝]', durationS: 42 });
      });

      it('[T-32] answers a second call for the same content file name from the cache, even from another URL', async () => {
        harness = await createMediaHarness();
        harness.model.reply(completion({ content: '猫咪跳舞' }));
        const url = harness.files.serve('/clip.mp4', { body: SHORT });
        const mirror = harness.files.serve('/mirror.mp4', { body: SHORT });
        await harness.service.describeVideo(url, 'c0ffee.mp4');

        await expect(harness.build().describeVideo(mirror, 'c0ffee.mp4')).resolves.toBe('[视频：猫咪跳舞]');

        expect(harness.modelCalls()).toHaveLength(1);
        expect(harness.files.requestsFor('/mirror.mp4')).toHaveLength(0);
      });

      it('[T-32] uses the URL as the cache key without a content file name', async () => {
        harness = await createMediaHarness();
        harness.model.reply(completion({ content: '猫咪跳舞' }));
        const url = harness.files.serve('/clip.mp4', { body: SHORT });
        await harness.service.describeVideo(url);

        expect(harness.database.mediaCache.get('video', url)).toMatchObject({ text: '[视频：猫咪跳舞]' });
      });
    });

    describe('when the video is longer than video_max_seconds', () => {
      it('[T-32] returns the over-length text in minutes without a model call, and caches it with its duration', async () => {
        harness = await createMediaHarness({ media: { video_max_seconds: 180 } });
        const url = harness.files.serve('/long.mp4', { body: LONG });

        await expect(harness.service.describeVideo(url, 'long.mp4')).resolves.toBe('[视频：约 10 分钟，超出观看时长上限，未看]');
        const probes = harness.files.requestsFor('/long.mp4').length;
        await expect(harness.service.describeVideo(url, 'long.mp4')).resolves.toBe('[视频：约 10 分钟，超出观看时长上限，未看]');

        expect(harness.modelCalls()).toHaveLength(0);
        expect(harness.files.requestsFor('/long.mp4')).toHaveLength(probes);
        expect(harness.database.mediaCache.get('video', 'long.mp4')).toMatchObject({ durationS: 600 });
      });

      it('[T-32] says seconds under a minute', async () => {
        harness = await createMediaHarness({ media: { video_max_seconds: 30 } });
        const url = harness.files.serve('/clip.mp4', { body: SHORT });

        await expect(harness.service.describeVideo(url)).resolves.toBe('[视频：约 42 秒，超出观看时长上限，未看]');
      });

      it('[T-32] watches a cached over-length video once the limit allows it, without reading the duration again', async () => {
        harness = await createMediaHarness({ media: { video_max_seconds: 30 } });
        harness.model.reply(completion({ content: '海边风筝' }));
        const url = harness.files.serve('/clip.mp4', { body: SHORT });
        await harness.service.describeVideo(url, 'clip');
        const probes = harness.files.requestsFor('/clip.mp4').length;

        harness.config.video_max_seconds = 60;

        await expect(harness.service.describeVideo(url, 'clip')).resolves.toBe('[视频：海边风筝]');
        expect(harness.files.requestsFor('/clip.mp4')).toHaveLength(probes);
      });
    });

    describe('when the duration cannot be read or the model fails', () => {
      it('[T-32] resolves null when the server ignores Range (HTTP 200), without downloading the video or asking the model', async () => {
        harness = await createMediaHarness({ honourRange: false });
        const url = harness.files.serve('/clip.mp4', { body: buildMp4({ durationS: 42, mdatBytes: 16 * 1024 * 1024 }), chunked: true });

        await expect(harness.service.describeVideo(url, 'clip')).resolves.toBeNull();

        expect(harness.warned(/ignores Range requests \(HTTP 200 instead of 206\)/)).toBe(true);
        expect(harness.files.requestsFor('/clip.mp4')).toHaveLength(1);
        await expect(harness.files.requestsFor('/clip.mp4')[0]!.finished).resolves.toBe(false);
        expect(harness.modelCalls()).toHaveLength(0);
        expect(harness.database.mediaCache.get('video', 'clip')).toBeUndefined();
      });

      it('[T-32] resolves null for a file without a moov box', async () => {
        harness = await createMediaHarness();
        const url = harness.files.serve('/not-mp4.mp4', { body: Buffer.from('this is not an mp4 file at all, just text') });

        await expect(harness.service.describeVideo(url)).resolves.toBeNull();
        expect(harness.warnings()).toHaveLength(1);
      });

      it('[T-32] resolves null for a 404', async () => {
        harness = await createMediaHarness();
        await expect(harness.service.describeVideo(harness.files.url('/gone.mp4'))).resolves.toBeNull();
        expect(harness.warned(/HTTP 404/)).toBe(true);
      });

      it('[T-32] resolves null when the video model answers 500, and caches nothing', async () => {
        harness = await createMediaHarness();
        harness.model.reply(text(500, 'overloaded'));
        const url = harness.files.serve('/clip.mp4', { body: SHORT });

        await expect(harness.service.describeVideo(url, 'clip')).resolves.toBeNull();

        expect(harness.warned(/HTTP 500/)).toBe(true);
        expect(harness.database.mediaCache.get('video', 'clip')).toBeUndefined();
      });

      it('[T-32] resolves null when the video model stalls past recognition_timeout_s', async () => {
        harness = await createMediaHarness({ media: { recognition_timeout_s: 20 } });
        harness.model.reply(hang);
        const result = harness.service.describeVideo(harness.files.serve('/clip.mp4', { body: SHORT }));
        await harness.model.receivedRequests(1);

        await harness.clock.advance(20_000);

        await expect(result).resolves.toBeNull();
        expect(harness.warned(/not described within 20 s .* while waiting for the video model/)).toBe(true);
      });
    });
  });
});
