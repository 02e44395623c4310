import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MediaService } from '../../src/media/media-service.js';
import type { InboundForWatchRange } from '../../src/media/media-types.js';
import { completion } from '../llm/support/fake-openai-server.js';
import { buildMp4 } from './support/build-mp4.js';
import { createMediaHarness, type MediaHarness } from './support/media-harness.js';

function inbound(overrides: Partial<InboundForWatchRange> = {}): InboundForWatchRange {
  return { chatType: 'group', extra: {}, processedPlainText: '大家看这个视频', ...overrides };
}

describe(MediaService, () => {
  let harness: MediaHarness;

  beforeEach(async () => {
    harness = await createMediaHarness({ media: { video_watch_scope: 'related' } });
  });
  afterEach(async () => {
    await harness.close();
  });

  describe('.videosWatchedOnArrival', () => {
    it('[T-34] with scope all, is true for any message, even an unrelated group one', () => {
      harness.config.video_watch_scope = 'all';
      expect(harness.service.videosWatchedOnArrival(inbound())).toBe(true);
    });

    it('[T-34] with scope related, is true in a private chat', () => {
      expect(harness.service.videosWatchedOnArrival(inbound({ chatType: 'private' }))).toBe(true);
    });

    it('[T-34] with scope related, is true when the message @-mentions or replies to her (extra.mentions_bot)', () => {
      expect(harness.service.videosWatchedOnArrival(inbound({ extra: { mentions_bot: true } }))).toBe(true);
      expect(harness.service.videosWatchedOnArrival(inbound({ extra: { mentions_bot: 'yes' } }))).toBe(false);
    });

    it('[T-34] with scope related, is true when the text names her by nickname or an alias (letters without case)', () => {
      expect(harness.service.videosWatchedOnArrival(inbound({ processedPlainText: '月璃你看这个' }))).toBe(true);
      expect(harness.service.videosWatchedOnArrival(inbound({ processedPlainText: '给璃璃看看' }))).toBe(true);
      expect(harness.service.videosWatchedOnArrival(inbound({ processedPlainText: 'hey YUELI look' }))).toBe(true);
    });

    it('[T-34] with scope related, is false for an unrelated group message', () => {
      expect(harness.service.videosWatchedOnArrival(inbound())).toBe(false);
    });

    it('[T-34] ignores empty names, which every text would contain', () => {
      const service = harness.build({ bot: { nickname: '', aliases: ['  '] } });
      expect(service.videosWatchedOnArrival(inbound())).toBe(false);
    });
  });

  describe('.describeVideo', () => {
    it('[T-34] does not apply the watch range: an unrelated group video is watched when asked', async () => {
      harness.model.reply(completion({ content: '一段舞蹈' }));
      const url = harness.files.serve('/clip.mp4', { body: buildMp4({ durationS: 42 }) });
      expect(harness.service.videosWatchedOnArrival(inbound())).toBe(false);

      await expect(harness.service.describeVideo(url)).resolves.toBe('[视频：一段舞蹈]');
    });
  });
});
