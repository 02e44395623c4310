/** What `videosWatchedOnArrival` needs of an inbound message (the `Message` plugins observe fits). */
export interface InboundForWatchRange {
  chatType: 'private' | 'group';
  /** The adapter's flags: `mentions_bot` (an @ of the bot or a reply to it). */
  extra: Readonly<Record<string, unknown>>;
  processedPlainText: string;
  /** Its stream: the names that count are those of the stream's bot account (`bot.toml [accounts]`). */
  streamId?: string;
}

/** `this.ctx.media`: the host's own image and video description, offered to plugins. */
export interface PluginMediaAccess {
  /**
   * Describes an image (`http(s)://` or `base64://`; `file://` and local paths only with
   * `allow_private_addresses`, which also lets URLs reach loopback and private addresses).
   * Resolves to the chat-body text `[图片：…]`, or `null` when the source is refused or on any
   * download, decode or model failure (the host logs why). A plugin with a file of its own
   * passes its bytes as `base64://`. Cached by content; a second caller of the same content waits for the first.
   * When `options.signal` aborts, the shared task is cancelled and every waiter gets `null`.
   */
  describeImage(source: string, options?: { signal?: AbortSignal }): Promise<string | null>;
  /**
   * Watches a video by its direct http(s) URL (public addresses only, unless
   * `allow_private_addresses`); `contentFileName` (the platform's content file name,
   * e.g. an MD5) is the cache key when given. Resolves to `[视频：…]`, to the over-length form
   * `[视频：约 N 秒/分钟，超出观看时长上限，未看]`, or to `null` on failure. Ignores the inbound
   * watch range. When `options.signal` aborts, the shared task is cancelled and every waiter
   * gets `null`.
   */
  describeVideo(url: string, contentFileName?: string, options?: { signal?: AbortSignal }): Promise<string | null>;
  /** Images can be described: the switch is on and a vision model is configured. */
  imagesAvailable(): boolean;
  /** Videos can be watched: the switch is on and a video model is configured. */
  videosAvailable(): boolean;
  /** Whether this message's videos are in the watch-on-arrival range (all, or private / @ / name / reply). */
  videosWatchedOnArrival(inbound: InboundForWatchRange): boolean;
  /** The longest wait, in seconds, for one item of the chosen kinds (fixed when the service was built). */
  maxWaitS(kinds: { images?: boolean; videos?: boolean }): number;
}
