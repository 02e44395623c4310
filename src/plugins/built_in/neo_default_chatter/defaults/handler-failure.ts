import { EventDecision, type HandlerResult, type Logger } from 'moonglass';

/**
 * What a default handler does when its own work fails: log it and PASS with the params
 * unchanged, so the session reads the pre-filled default instead of a half-made result.
 */
export function passAfterFailure<P extends { stream_id: string }>(logger: Logger, handler: string, params: P, error: unknown): HandlerResult<P> {
  logger.warn(
    { handler, stream_id: params.stream_id, error: error instanceof Error ? error.message : String(error) },
    `${handler} failed; the session reads the pre-filled default`,
  );
  return [EventDecision.PASS, params];
}
