import { describe, expect, it } from 'vitest';
import { describeInboundMedia, fillPlaceholders, hasInboundMedia } from '../../src/app/inbound-media.js';
import type { Message } from '../../src/chat/message.js';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import type { PluginMediaAccess } from '../../src/media/media-types.js';

function message(text: string, media: unknown[], extra: Record<string, unknown> = {}): Message {
  return { processedPlainText: text, streamId: 's', messageId: 'm', chatType: 'group', extra: { media, ...extra } } as unknown as Message;
}

function media(overrides: Partial<PluginMediaAccess> = {}): PluginMediaAccess & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    describeImage: async (url) => (asked.push(url), url.includes('fail') ? null : `[图片：${url.slice(-5)}]`),
    describeVideo: async (url) => (asked.push(url), `[视频：${url.slice(-5)}]`),
    imagesAvailable: () => true,
    videosAvailable: () => true,
    videosWatchedOnArrival: (inbound) => inbound.extra['mentions_bot'] === true,
    maxWaitS: () => 40,
    ...overrides,
  };
}

describe('describing the media of inbound messages', () => {
  const { logger } = createMemoryLogger();

  it('fills the n-th placeholder of each kind, leaving the others', () => {
    expect(fillPlaceholders('[图片]和[图片]，[视频]', [{ kind: 'image', index: 1, text: '[图片：狗]' }, { kind: 'video', index: 0, text: '[视频：海]' }])).toBe(
      '[图片]和[图片：狗]，[视频：海]',
    );
  });

  it('describes images always and videos only in the watch range; a failed one keeps its placeholder', async () => {
    const access = media();
    const refs = [
      { kind: 'image', url: 'http://x/a.png', index: 0 },
      { kind: 'image', url: 'http://x/fail1', index: 1 },
      { kind: 'video', url: 'http://x/v.mp4', index: 0 },
    ];
    expect(hasInboundMedia(message('', refs))).toBe(true);
    expect(await describeInboundMedia(message('[图片][图片][视频]', refs), access, logger)).toBe('[图片：a.png][图片][视频]');
    expect(await describeInboundMedia(message('[图片][图片][视频]', refs, { mentions_bot: true }), access, logger)).toBe('[图片：a.png][图片][视频：v.mp4]');
  });

  it('asks nothing when images and videos are unavailable', async () => {
    const access = media({ imagesAvailable: () => false, videosAvailable: () => false });
    expect(await describeInboundMedia(message('[图片]', [{ kind: 'image', url: 'http://x/a.png' }], { mentions_bot: true }), access, logger)).toBeUndefined();
    expect(access.asked).toEqual([]);
    expect(hasInboundMedia(message('text', []))).toBe(false);
  });
});
