/** One finished media description, kept so the same content is never described twice. */
export interface MediaCacheEntry {
  kind: 'image' | 'video';
  /** The content hash (or the platform's content file name, else the URL, for videos). */
  key: string;
  /** The chat-body text: `[图片：…]`, `[视频：…]` or the over-length form. */
  text: string;
  /** A video's duration in seconds, when it was read. */
  durationS: number | null;
  /** Epoch milliseconds. */
  createdAt: number;
}

/** Descriptions of images and videos by content key. Failures are never stored. */
export interface MediaCacheRepository {
  get(kind: 'image' | 'video', key: string): MediaCacheEntry | undefined;
  /** Stores or replaces the entry for its kind and key. */
  put(entry: MediaCacheEntry): void;
}
