import type { Message } from '../chat/message.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { PluginMediaAccess } from '../media/media-types.js';

/** One image or video of an inbound message, as the adapter listed it (`extra.media`). */
interface MediaReference {
  kind: 'image' | 'video';
  url: string;
  file?: string;
  index?: number;
}

const PLACEHOLDER = { image: '[图片]', video: '[视频]' } as const;

function mediaOf(message: Message): MediaReference[] {
  const media = message.extra['media'];
  return Array.isArray(media) ? (media as MediaReference[]) : [];
}

/** True when the message lists images or videos to describe. */
export function hasInboundMedia(message: Message): boolean {
  return mediaOf(message).length > 0;
}

/**
 * Describes an inbound message's images (when images are available) and videos (when
 * videos are available and the message is in the watch range), all at once, and returns its
 * text with each described placeholder replaced (`[图片]` -> `[图片：…]`), or undefined when
 * nothing was described. A failed description leaves its placeholder as it was.
 */
export async function describeInboundMedia(message: Message, media: PluginMediaAccess, logger: Logger): Promise<string | undefined> {
  const wanted = mediaOf(message).filter((reference) =>
    reference.kind === 'image' ? media.imagesAvailable() : media.videosAvailable() && media.videosWatchedOnArrival(message),
  );
  if (wanted.length === 0) return undefined;
  const ordinal = { image: 0, video: 0 };
  const jobs = wanted.map(async (reference) => {
    const index = reference.index ?? ordinal[reference.kind]++;
    const text = reference.kind === 'image' ? await media.describeImage(reference.url) : await media.describeVideo(reference.url, reference.file);
    return { kind: reference.kind, index, text };
  });
  const results = (await Promise.all(jobs)).filter((result): result is { kind: 'image' | 'video'; index: number; text: string } => result.text !== null);
  if (results.length === 0) return undefined;
  logger.debug({ stream_id: message.streamId, message_id: message.messageId, described: results.length }, 'described the media of an inbound message');
  return fillPlaceholders(message.processedPlainText, results);
}

/** Replaces the `index`-th placeholder of each kind with its text, leaving the others. */
export function fillPlaceholders(text: string, fills: readonly { kind: 'image' | 'video'; index: number; text: string }[]): string {
  let result = '';
  let position = 0;
  const seen = { image: 0, video: 0 };
  const pattern = /\[图片\]|\[视频\]/g;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const kind = match[0] === PLACEHOLDER.image ? 'image' : 'video';
    const index = seen[kind]++;
    const fill = fills.find((entry) => entry.kind === kind && entry.index === index);
    result += text.slice(position, match.index) + (fill?.text ?? match[0]);
    position = match.index + match[0].length;
  }
  return result + text.slice(position);
}
