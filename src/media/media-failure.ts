/**
 * Why describing one image or video failed: a download, size, decode, duration or model
 * problem. Internal to the media service, which catches it, logs `message` as the reason
 * and resolves `null`; it never reaches callers.
 */
export class MediaFailure extends Error {
  constructor(reason: string, options: { cause?: unknown } = {}) {
    super(reason, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MediaFailure';
  }
}
