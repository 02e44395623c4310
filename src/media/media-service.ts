import type { AppConfig } from '../kernel/config/app-config.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Clock } from '../kernel/time/clock.js';
import type { LlmService } from '../llm/llm-service.js';
import type { MediaLookup } from './check-media-url.js';
import type { MediaCacheRepository } from '../storage/media-cache-repository.js';
import { GuardedMediaCache } from './guarded-media-cache.js';
import { IMAGE_TASK, ImageDescriber } from './image-describer.js';
import { type BotNames, isInWatchRange } from './is-in-watch-range.js';
import type { MediaContext, MediaRequest } from './media-context.js';
import { MediaFetcher } from './media-fetcher.js';
import { mediaTaskProblem } from './media-task-problem.js';
import type { InboundForWatchRange, PluginMediaAccess } from './media-types.js';
import { shortenSource } from './shorten-source.js';
import { VIDEO_TASK, VideoDescriber } from './video-describer.js';

export type { MediaRequest } from './media-context.js';

export interface MediaServiceOptions {
  /** `[media]` of features.toml. Switches and limits are read on every call; deadlines once, here. */
  config: AppConfig['media'];
  /** Answers the `vlm` (images) and `video` tasks. */
  llm: LlmService;
  clock: Clock;
  logger: Logger;
  /** Where finished descriptions are kept (`database.mediaCache`). */
  cache: MediaCacheRepository;
  /** The names that put a group message in the video watch range (`related` scope). Copied here. */
  bot: BotNames;
  /**
   * The names of the bot account a stream belongs to (its `bot.toml [accounts."<id>"]`
   * nickname and aliases), for a message that names its stream; default: `bot` for all.
   */
  botNamesFor?: (streamId: string) => BotNames;
  /**
   * Sends downloads and Range requests (one hop each; redirects are followed and checked
   * here). Default: a built-in node:http(s) client that connects only to the checked address.
   */
  fetch?: typeof fetch;
  /** Resolves host names for the `allow_private_addresses` check (default: node:dns, all addresses). */
  lookup?: MediaLookup;
}

/**
 * The host's image and video description, for inbound messages and (through
 * `createPluginMediaAccess`) for plugins. Results are the chat-body texts `[图片：…]`,
 * `[视频：…]` or the over-length form; every failure resolves `null` and is logged with its
 * reason. Unless `allow_private_addresses` is on, only http(s) URLs of public addresses are
 * fetched (at every redirect) and local files are not read. Descriptions are cached by
 * content, concurrent callers of the same content share one task, and a waiter whose signal
 * aborts cancels that shared task for all its waiters.
 */
export class MediaService implements PluginMediaAccess {
  readonly #config: AppConfig['media'];
  readonly #llm: LlmService;
  readonly #logger: Logger;
  readonly #bot: BotNames;
  readonly #botNamesFor: ((streamId: string) => BotNames) | undefined;
  readonly #images: ImageDescriber;
  readonly #videos: VideoDescriber;
  /** Seconds, fixed at construction: a config reload does not change them. */
  readonly #maxWait: { images: number; videos: number };

  constructor(options: MediaServiceOptions) {
    const { config } = options;
    this.#config = config;
    this.#llm = options.llm;
    this.#logger = options.logger;
    this.#bot = { nickname: options.bot.nickname, aliases: [...options.bot.aliases] };
    this.#botNamesFor = options.botNamesFor;
    this.#maxWait = {
      images: config.image_download_timeout_s + config.recognition_timeout_s,
      videos: config.recognition_timeout_s,
    };
    const context: MediaContext = {
      config,
      llm: options.llm,
      clock: options.clock,
      logger: options.logger,
      cache: new GuardedMediaCache(options.cache, options.logger),
      fetcher: new MediaFetcher({
        allowPrivateAddresses: () => config.allow_private_addresses,
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
      }),
    };
    this.#images = new ImageDescriber(context, {
      downloadMs: config.image_download_timeout_s * 1000,
      recognitionMs: config.recognition_timeout_s * 1000,
    });
    this.#videos = new VideoDescriber(context, config.recognition_timeout_s * 1000);
  }

  /**
   * `[图片：…]` for an image source (`http(s)://`, `base64://`; `file://` or a local path only
   * with `allow_private_addresses`), or `null` when images are not available, the source is
   * refused, or the download, decoding or model fails.
   */
  async describeImage(source: string, options: MediaRequest = {}): Promise<string | null> {
    const problem = this.#imageProblem();
    if (problem !== undefined) {
      this.#logger.info({ source: shortenSource(String(source)), requester: options.requester }, `image not described: ${problem}`);
      return null;
    }
    if (typeof source !== 'string' || source.trim() === '') {
      this.#logger.warn({ requester: options.requester }, 'could not describe an image: the source is empty');
      return null;
    }
    return this.#images.describe(source.trim(), options);
  }

  /**
   * `[视频：…]` or the over-length form for a video's direct URL, cached under
   * `contentFileName` when given (else the URL); `null` when videos are not available or the
   * duration or the model fails. Does not apply the inbound watch range.
   */
  async describeVideo(url: string, contentFileName?: string, options: MediaRequest = {}): Promise<string | null> {
    const problem = this.#videoProblem();
    if (problem !== undefined) {
      this.#logger.info({ url: shortenSource(String(url)), requester: options.requester }, `video not watched: ${problem}`);
      return null;
    }
    if (typeof url !== 'string' || url.trim() === '') {
      this.#logger.warn({ requester: options.requester }, 'could not describe a video: the URL is empty');
      return null;
    }
    const key = typeof contentFileName === 'string' && contentFileName.trim() !== '' ? contentFileName.trim() : url.trim();
    return this.#videos.describe(url.trim(), key, options);
  }

  /** `images_enabled` is on and task `vlm` has a model that can see. */
  imagesAvailable(): boolean {
    return this.#imageProblem() === undefined;
  }

  /** `videos_enabled` is on and task `video` has a model that can see. */
  videosAvailable(): boolean {
    return this.#videoProblem() === undefined;
  }

  /** Whether this message's videos are watched on arrival under `video_watch_scope`. */
  videosWatchedOnArrival(inbound: InboundForWatchRange): boolean {
    const names = inbound.streamId === undefined || this.#botNamesFor === undefined ? this.#bot : this.#botNamesFor(inbound.streamId);
    return isInWatchRange(inbound, this.#config.video_watch_scope, names);
  }

  /**
   * The longest wait in seconds for one item of the chosen kinds: image = download +
   * recognition deadline, video = recognition deadline; 0 when no kind is chosen.
   */
  maxWaitS(kinds: { images?: boolean; videos?: boolean }): number {
    const chosen = [kinds.images === true ? this.#maxWait.images : 0, kinds.videos === true ? this.#maxWait.videos : 0];
    return Math.max(...chosen);
  }

  #imageProblem(): string | undefined {
    if (!this.#config.images_enabled) return 'images_enabled is off in [media]';
    return mediaTaskProblem(this.#llm, IMAGE_TASK);
  }

  #videoProblem(): string | undefined {
    if (!this.#config.videos_enabled) return 'videos_enabled is off in [media]';
    return mediaTaskProblem(this.#llm, VIDEO_TASK);
  }
}
