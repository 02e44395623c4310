import { createHash } from 'node:crypto';
import { askMediaModel } from './ask-media-model.js';
import { detectImageType, type ImageMimeType } from './detect-image-type.js';
import { logMediaFailure } from './failure-reason.js';
import { imageText } from './format-media-text.js';
import { InFlightTasks } from './in-flight-tasks.js';
import { loadImageBytes } from './load-image-bytes.js';
import type { MediaContext, MediaRequest } from './media-context.js';
import { MediaFailure } from './media-failure.js';
import { IMAGE_INSTRUCTION } from './media-prompts.js';
import { runWithDeadline } from './run-with-deadline.js';
import { shortenSource } from './shorten-source.js';

/** The model task that describes images. */
export const IMAGE_TASK = 'vlm';

export interface ImageDeadlines {
  /** Milliseconds to load an image (`image_download_timeout_s`). */
  downloadMs: number;
  /** Milliseconds the model may take once the image is loaded (`recognition_timeout_s`). */
  recognitionMs: number;
}

type LogFields = Record<string, unknown>;

/**
 * Image source -> `[图片：…]`: load under the download deadline and within the size limit,
 * check the format by magic bytes, answer from the cache by the sha256 of the bytes, else ask
 * the `vlm` task under the recognition deadline and cache the text. Concurrent callers share
 * the work by source (before loading) and by hash (after). Failures resolve `null`, are
 * logged at warn with the reason, and are not cached.
 */
export class ImageDescriber {
  readonly #context: MediaContext;
  readonly #deadlines: ImageDeadlines;
  readonly #bySource: InFlightTasks<string>;
  readonly #byHash: InFlightTasks<string>;

  constructor(context: MediaContext, deadlines: ImageDeadlines) {
    this.#context = context;
    this.#deadlines = { ...deadlines };
    this.#bySource = new InFlightTasks(context.logger, 'image description');
    this.#byHash = new InFlightTasks(context.logger, 'image description');
  }

  describe(source: string, request: MediaRequest): Promise<string | null> {
    return this.#bySource.run(source, request.signal, (signal) => this.#fromSource(source, request.requester, signal));
  }

  async #fromSource(source: string, requester: string | undefined, signal: AbortSignal): Promise<string | null> {
    const { clock, config, fetcher, cache, logger } = this.#context;
    const log: LogFields = { source: shortenSource(source), requester };
    let bytes: Uint8Array;
    let mimeType: ImageMimeType;
    try {
      const timeoutS = this.#deadlines.downloadMs / 1000;
      bytes = await runWithDeadline(
        { clock, signal, timeoutMs: this.#deadlines.downloadMs, timeoutReason: () => `the image was not loaded within ${timeoutS} s (image_download_timeout_s)` },
        (loadSignal) => loadImageBytes(source, { fetcher, maxBytes: config.image_max_bytes, signal: loadSignal }),
      );
      const detected = detectImageType(bytes);
      if (detected === undefined) throw new MediaFailure(`not an image: the ${bytes.length} bytes are not PNG, JPEG, GIF or WebP`);
      mimeType = detected;
    } catch (error) {
      return logMediaFailure(this.#context.logger, 'image', log, signal, error);
    }
    const key = createHash('sha256').update(bytes).digest('hex');
    const cached = cache.get('image', key);
    if (cached !== undefined) {
      logger.debug({ ...log, key }, 'image description taken from the cache');
      return cached.text;
    }
    return this.#byHash.run(key, signal, (modelSignal) => this.#recognize(key, bytes, mimeType, { ...log, key }, modelSignal));
  }

  async #recognize(key: string, bytes: Uint8Array, mimeType: ImageMimeType, log: LogFields, signal: AbortSignal): Promise<string | null> {
    const { clock, llm, cache, logger } = this.#context;
    const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
    const timeoutS = this.#deadlines.recognitionMs / 1000;
    try {
      const description = await runWithDeadline(
        { clock, signal, timeoutMs: this.#deadlines.recognitionMs, timeoutReason: () => `no answer from the vision model within ${timeoutS} s (recognition_timeout_s)` },
        (modelSignal) =>
          askMediaModel(llm, {
            taskName: IMAGE_TASK,
            requestName: 'describe_image',
            content: [
              { type: 'text', text: IMAGE_INSTRUCTION },
              { type: 'image_url', image_url: { url: `data:${mimeType};base64,${data}`, detail: 'low' } },
            ],
            signal: modelSignal,
          }),
      );
      if (signal.aborted) return null;
      const text = imageText(description);
      cache.put({ kind: 'image', key, text, durationS: null, createdAt: clock.now() });
      logger.debug(log, 'described an image');
      return text;
    } catch (error) {
      return logMediaFailure(this.#context.logger, 'image', log, signal, error);
    }
  }
}
