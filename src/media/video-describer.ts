import { askMediaModel } from './ask-media-model.js';
import { logMediaFailure } from './failure-reason.js';
import { isOverLengthVideoText, overLengthVideoText, videoText } from './format-media-text.js';
import { InFlightTasks } from './in-flight-tasks.js';
import type { MediaContext, MediaRequest } from './media-context.js';
import { MediaFailure } from './media-failure.js';
import { VIDEO_INSTRUCTION } from './media-prompts.js';
import { readMp4DurationSeconds } from './read-mp4-duration.js';
import { runWithDeadline } from './run-with-deadline.js';
import { shortenSource } from './shorten-source.js';

/** The model task that watches videos. */
export const VIDEO_TASK = 'video';

type LogFields = Record<string, unknown>;

/**
 * Video URL -> `[视频：…]` or the over-length form. Under one deadline
 * (`recognition_timeout_s`): read the duration from the MP4 boxes by HTTP Range; a video over
 * `video_max_seconds` gets the over-length text without a model call; otherwise the `video`
 * task watches it by URL. Results and durations are cached under the content file name (or
 * the URL); concurrent callers of a key share the work. Failures resolve `null`, are logged
 * at warn with the reason, and are not cached.
 */
export class VideoDescriber {
  readonly #context: MediaContext;
  readonly #deadlineMs: number;
  readonly #byKey: InFlightTasks<string>;

  constructor(context: MediaContext, deadlineMs: number) {
    this.#context = context;
    this.#deadlineMs = deadlineMs;
    this.#byKey = new InFlightTasks(context.logger, 'video description');
  }

  describe(url: string, key: string, request: MediaRequest): Promise<string | null> {
    const log: LogFields = { url: shortenSource(url), key: shortenSource(key), requester: request.requester };
    return this.#byKey.run(key, request.signal, (signal) => this.#watch(url, key, log, signal));
  }

  async #watch(url: string, key: string, log: LogFields, signal: AbortSignal): Promise<string | null> {
    const { clock, config, fetcher, llm, cache, logger } = this.#context;
    const cached = cache.get('video', key);
    const maxSeconds = config.video_max_seconds;
    // An over-length entry stands only while the limit still excludes the video.
    const reusable = cached !== undefined && !(isOverLengthVideoText(cached.text) && cached.durationS !== null && cached.durationS <= maxSeconds);
    if (reusable) {
      logger.debug(log, 'video description taken from the cache');
      return cached.text;
    }
    let stage = 'reading the duration';
    const timeoutS = this.#deadlineMs / 1000;
    try {
      if (!/^https?:\/\//i.test(url)) throw new MediaFailure('a video is watched by its http(s):// URL');
      return await runWithDeadline(
        { clock, signal, timeoutMs: this.#deadlineMs, timeoutReason: () => `the video was not described within ${timeoutS} s (recognition_timeout_s), while ${stage}` },
        async (workSignal) => {
          // Also when the duration is cached: the model is only handed a URL that may be fetched.
          await fetcher.check(url);
          const durationS = cached?.durationS ?? (await readMp4DurationSeconds(url, { fetcher, signal: workSignal }));
          if (durationS > maxSeconds) {
            const text = overLengthVideoText(durationS);
            if (!workSignal.aborted) cache.put({ kind: 'video', key, text, durationS, createdAt: clock.now() });
            logger.debug({ ...log, durationS, maxSeconds }, 'video over the watch limit; not watched');
            return text;
          }
          stage = 'waiting for the video model';
          const description = await askMediaModel(llm, {
            taskName: VIDEO_TASK,
            requestName: 'describe_video',
            content: [
              { type: 'text', text: VIDEO_INSTRUCTION },
              { type: 'video_url', video_url: { url } },
            ],
            signal: workSignal,
          });
          const text = videoText(description);
          if (!workSignal.aborted) cache.put({ kind: 'video', key, text, durationS, createdAt: clock.now() });
          logger.debug({ ...log, durationS }, 'watched a video');
          return text;
        },
      );
    } catch (error) {
      return logMediaFailure(this.#context.logger, 'video', log, signal, error);
    }
  }
}
