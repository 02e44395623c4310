import { describeError } from '../kernel/errors/describe-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import type { Clock } from '../kernel/time/clock.js';
import { ModelRequestError } from './errors/model-request-error.js';
import type { ModelCall, ModelClient, ModelReply } from './model-client.js';
import type { AttemptFailure } from './openai/attempt-failure.js';
import { buildChatRequestBody } from './openai/build-chat-request-body.js';
import { ChatCompletionChunkSchema, ChatCompletionSchema } from './openai/chat-completion-schema.js';
import { describeHttpError } from './openai/describe-http-error.js';
import { describeZodIssues } from './openai/describe-zod-issues.js';
import { parseChatCompletion } from './openai/parse-chat-completion.js';
import { parseRetryAfter } from './openai/parse-retry-after.js';
import { readServerSentEvents } from './openai/read-server-sent-events.js';
import { redactSecret } from './openai/redact-secret.js';
import { StreamAccumulator } from './openai/stream-accumulator.js';

/** Default time one attempt may take, in milliseconds. */
export const DEFAULT_MODEL_TIMEOUT_MS = 60_000;
/** Default number of retries after the first attempt. */
export const DEFAULT_MODEL_MAX_RETRIES = 2;

export interface OpenAiCompatibleClientOptions {
  /** The API root, e.g. `http://localhost:11434/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>` when set and not empty. Never logged. */
  apiKey?: string;
  /**
   * Milliseconds one attempt may take (default 60 000). For a streamed answer this is the
   * longest silence between two chunks, so a long answer that keeps coming is not cut.
   */
  timeoutMs?: number;
  /** Retries after the first attempt on 429, 5xx, network errors and timeouts (default 2). */
  maxRetries?: number;
  /** The first backoff delay in milliseconds, doubled on every retry (default 1000). */
  retryBaseDelayMs?: number;
  /**
   * The longest wait between attempts, in milliseconds (default 60 000). A `Retry-After`
   * longer than this ends the retries, so the next model of the task gets its turn.
   */
  maxRetryDelayMs?: number;
  /** The provider's name in `config/models.toml`, for messages and logs. */
  providerName?: string;
  /** Drives timeouts and backoff. */
  clock: Clock;
  logger: Logger;
}

type AttemptOutcome = { ok: true; reply: ModelReply } | { ok: false; failure: AttemptFailure };

/**
 * A `ModelClient` for any OpenAI-compatible `/chat/completions` endpoint (Ollama, vLLM,
 * LM Studio, hosted APIs) over Node's fetch. Streams when asked (SSE), retries with
 * exponential backoff on the injected clock, honours `Retry-After`, and reads tool calls
 * defensively: arguments as a JSON string, an object, invalid JSON (kept as `args._raw`) or
 * missing; a missing id becomes `call_<index>_<name>`; `content: null` becomes `''`.
 */
export class OpenAiCompatibleClient implements ModelClient {
  readonly #url: string;
  readonly #baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #retryBaseDelayMs: number;
  readonly #maxRetryDelayMs: number;
  readonly #providerName: string | undefined;
  readonly #clock: Clock;
  readonly #logger: Logger;

  constructor(options: OpenAiCompatibleClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#url = `${this.#baseUrl}/chat/completions`;
    this.#apiKey = options.apiKey === '' ? undefined : options.apiKey;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS;
    this.#maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_MODEL_MAX_RETRIES);
    this.#retryBaseDelayMs = options.retryBaseDelayMs ?? 1000;
    this.#maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.#providerName = options.providerName;
    this.#clock = options.clock;
    this.#logger = options.logger;
  }

  async complete(call: ModelCall, signal: AbortSignal): Promise<ModelReply> {
    const body = JSON.stringify(buildChatRequestBody(call));
    const stream = call.stream === true;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(body, stream, signal);
      if (outcome.ok) return outcome.reply;
      const { failure } = outcome;
      if (!failure.retryable || attempt > this.#maxRetries) throw this.#error(failure, attempt);
      const delayMs = failure.retryAfterMs ?? Math.min(this.#retryBaseDelayMs * 2 ** (attempt - 1), this.#maxRetryDelayMs);
      if (delayMs > this.#maxRetryDelayMs) {
        const reason = `${failure.reason} (the server asked to retry after ${delayMs / 1000} s, longer than the ${this.#maxRetryDelayMs / 1000} s limit)`;
        throw this.#error({ ...failure, reason, retryable: false }, attempt);
      }
      this.#logger.warn(
        { provider: this.#providerName, base_url: this.#baseUrl, model: call.model, attempt, status: failure.status, delay_ms: delayMs },
        `model request failed (${failure.reason}); retrying in ${delayMs} ms`,
      );
      await this.#clock.sleep(delayMs, signal);
    }
  }

  #error(failure: AttemptFailure, attempts: number): ModelRequestError {
    return new ModelRequestError({
      provider: this.#providerName,
      baseUrl: this.#baseUrl,
      status: failure.status,
      attempts,
      retryable: failure.retryable,
      reason: failure.reason,
      cause: failure.cause,
    });
  }

  /** One HTTP attempt under its own timeout. Rejects only when `signal` aborts. */
  async #attempt(body: string, stream: boolean, signal: AbortSignal): Promise<AttemptOutcome> {
    if (signal.aborted) throw signal.reason;
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const fire = (): void => {
      timedOut = true;
      controller.abort(new Error(`no response within ${this.#timeoutMs} ms`));
    };
    let timer = this.#clock.setTimeout(fire, this.#timeoutMs);
    const restartTimer = (): void => {
      this.#clock.clearTimeout(timer);
      timer = this.#clock.setTimeout(fire, this.#timeoutMs);
    };
    try {
      const response = await fetch(this.#url, { method: 'POST', headers: this.#headers(stream), body, signal: controller.signal });
      if (!response.ok) return { ok: false, failure: await this.#httpFailure(response) };
      const isEventStream = (response.headers.get('content-type') ?? '').includes('text/event-stream');
      // A server may ignore `stream: true` and answer with one JSON body; read what came.
      if (stream && isEventStream && response.body !== null) return await this.#readStream(response.body, restartTimer);
      return this.#parseBody(response.status, await response.text());
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (timedOut) return { ok: false, failure: { reason: `no response within ${this.#timeoutMs} ms`, status: undefined, retryable: true } };
      return { ok: false, failure: { reason: `network error: ${this.#redact(describeNetworkError(error))}`, status: undefined, retryable: true, cause: error } };
    } finally {
      this.#clock.clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  #headers(stream: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream, application/json' : 'application/json',
    };
    if (this.#apiKey !== undefined) headers['authorization'] = `Bearer ${this.#apiKey}`;
    return headers;
  }

  async #httpFailure(response: Response): Promise<AttemptFailure> {
    const status = response.status;
    const text = await response.text();
    const retryable = status === 429 || status >= 500;
    const retryAfterMs = retryable ? parseRetryAfter(response.headers.get('retry-after'), this.#clock.now()) : undefined;
    const failure: AttemptFailure = { reason: this.#redact(describeHttpError(status, response.statusText, text)), status, retryable };
    if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
    return failure;
  }

  #parseBody(status: number, text: string): AttemptOutcome {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      const excerpt = text.trim().slice(0, 120).replace(/\s+/g, ' ');
      return this.#malformed(status, `the response body is not JSON: ${excerpt === '' ? '(empty)' : excerpt}`, error);
    }
    const parsed = ChatCompletionSchema.safeParse(json);
    if (!parsed.success) {
      return this.#malformed(status, `the response body is not a chat completion: ${describeZodIssues(parsed.error)}${errorField(json)}`, parsed.error);
    }
    return { ok: true, reply: parseChatCompletion(parsed.data) };
  }

  async #readStream(body: ReadableStream<Uint8Array>, onChunk: () => void): Promise<AttemptOutcome> {
    const accumulator = new StreamAccumulator();
    let done = false;
    for await (const data of readServerSentEvents(body, onChunk)) {
      if (data.trim() === '[DONE]') {
        done = true;
        break;
      }
      let json: unknown;
      try {
        json = JSON.parse(data);
      } catch (error) {
        return this.#malformed(200, `a stream event is not JSON: ${data.slice(0, 120)}`, error);
      }
      const chunk = ChatCompletionChunkSchema.safeParse(json);
      if (!chunk.success) return this.#malformed(200, `a stream event is not a chat completion chunk: ${describeZodIssues(chunk.error)}`, chunk.error);
      if (chunk.data.error !== undefined && chunk.data.error !== null) {
        return this.#malformed(200, `the server reported an error in the stream${errorField(json)}`);
      }
      accumulator.add(chunk.data);
    }
    if (!done && !accumulator.finished) {
      return { ok: false, failure: { reason: 'the stream ended before [DONE] and without a finish reason', status: 200, retryable: true } };
    }
    return { ok: true, reply: accumulator.reply() };
  }

  #malformed(status: number, reason: string, cause?: unknown): AttemptOutcome {
    return { ok: false, failure: { reason: this.#redact(reason), status, retryable: false, cause } };
  }

  #redact(text: string): string {
    return redactSecret(text, this.#apiKey);
  }
}

/** fetch's `TypeError: fetch failed` hides the reason in `cause` (ECONNREFUSED, a reset ...). */
function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause === undefined ? describeError(error) : `${describeError(error)} (${describeError(cause)})`;
}

/** ` (server said: ...)` when a body carries an `error` field, else `''`. */
function errorField(json: unknown): string {
  if (typeof json !== 'object' || json === null || !('error' in json)) return '';
  const error = (json as { error: unknown }).error;
  const message = typeof error === 'object' && error !== null && 'message' in error ? (error as { message: unknown }).message : error;
  return ` (server said: ${String(typeof message === 'string' ? message : JSON.stringify(message)).slice(0, 200)})`;
}
